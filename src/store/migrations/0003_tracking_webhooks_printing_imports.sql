CREATE TABLE `imported_orders` (
	`source` text NOT NULL,
	`sha256` text NOT NULL,
	`reference_number` text NOT NULL,
	`import_id` text NOT NULL,
	`shipment_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`source`, `sha256`, `reference_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`watched_folder_id` text,
	`file_name` text NOT NULL,
	`sha256` text NOT NULL,
	`rows` integer NOT NULL,
	`shipments_created` integer NOT NULL,
	`failed_rows` integer NOT NULL,
	`status` text NOT NULL,
	`result_path` text,
	`errors_path` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`watched_folder_id`) REFERENCES `watched_folders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `imports_account_created` ON `imports` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `imports_source_sha` ON `imports` (`watched_folder_id`,`sha256`);--> statement-breakpoint
CREATE TABLE `print_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`shipment_id` text,
	`printer_id` text NOT NULL,
	`format` text NOT NULL,
	`copies` integer NOT NULL,
	`content` blob,
	`layout` text,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`error` text,
	`next_attempt_at` integer,
	`expires_at` integer NOT NULL,
	`lease_until` integer,
	`created_at` integer NOT NULL,
	`printed_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `print_jobs_account_created` ON `print_jobs` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `print_jobs_due` ON `print_jobs` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `print_jobs_printer` ON `print_jobs` (`printer_id`,`status`);--> statement-breakpoint
CREATE INDEX `print_jobs_shipment` ON `print_jobs` (`shipment_id`);--> statement-breakpoint
CREATE TABLE `printers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`uri` text NOT NULL,
	`formats` text NOT NULL,
	`default_for` text NOT NULL,
	`status` text NOT NULL,
	`status_detail` text,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `printers_account_name` ON `printers` (`account_id`,`name`);--> statement-breakpoint
CREATE INDEX `printers_account_created` ON `printers` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tracking_parcels` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`provider` text NOT NULL,
	`shipment_id` text,
	`parcel_id` text,
	`tracking_number` text NOT NULL,
	`origin` text NOT NULL,
	`status` text NOT NULL,
	`recipient_name` text,
	`recipient_email` text,
	`recipient_phone` text,
	`check_delay_hours` integer NOT NULL,
	`max_checks` integer NOT NULL,
	`checks_done` integer NOT NULL,
	`next_check_at` integer,
	`last_checked_at` integer,
	`lease_until` integer,
	`external_data` text,
	`tracking_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parcel_id`) REFERENCES `parcels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_parcels_channel_number` ON `tracking_parcels` (`channel_id`,`tracking_number`);--> statement-breakpoint
CREATE INDEX `tracking_parcels_account_created` ON `tracking_parcels` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tracking_parcels_due` ON `tracking_parcels` (`next_check_at`);--> statement-breakpoint
CREATE INDEX `tracking_parcels_shipment` ON `tracking_parcels` (`shipment_id`);--> statement-breakpoint
CREATE TABLE `tracking_updates` (
	`id` text PRIMARY KEY NOT NULL,
	`tracking_parcel_id` text NOT NULL,
	`status` text NOT NULL,
	`carrier_code` text NOT NULL,
	`carrier_text` text,
	`location` text,
	`description` text,
	`occurred_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tracking_parcel_id`) REFERENCES `tracking_parcels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_updates_event` ON `tracking_updates` (`tracking_parcel_id`,`carrier_code`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `tracking_updates_parcel_time` ON `tracking_updates` (`tracking_parcel_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `watched_folders` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`path` text NOT NULL,
	`channel_id` text NOT NULL,
	`label_format` text NOT NULL,
	`printer_id` text,
	`mapping` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watched_folders_path` ON `watched_folders` (`path`);--> statement-breakpoint
CREATE INDEX `watched_folders_account_created` ON `watched_folders` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_queue` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`subscription_id` text NOT NULL,
	`event_id` text NOT NULL,
	`resource_key` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_queue_seq` ON `webhook_queue` (`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_queue_subscription_event` ON `webhook_queue` (`subscription_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_queue_due` ON `webhook_queue` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_queue_order` ON `webhook_queue` (`subscription_id`,`resource_key`,`seq`);--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `failing_since` integer;