CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer NOT NULL,
	`max_attempts` integer NOT NULL,
	`run_at` integer NOT NULL,
	`lease_until` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due` ON `jobs` (`state`,`run_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_kind_subject` ON `jobs` (`kind`,`subject_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`shipment_id` text PRIMARY KEY NOT NULL,
	`format` text NOT NULL,
	`content` blob NOT NULL,
	`pages` integer NOT NULL,
	`sha256` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `parcels` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`position` integer NOT NULL,
	`parcel_type` text NOT NULL,
	`weight_amount` real NOT NULL,
	`weight_unit` text NOT NULL,
	`length_dimension` real NOT NULL,
	`width_dimension` real NOT NULL,
	`height_dimension` real NOT NULL,
	`dimension_unit` text NOT NULL,
	`tracking_number` text,
	`tracking_status` text,
	`tracking_url` text,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `parcels_shipment_position` ON `parcels` (`shipment_id`,`position`);--> statement-breakpoint
CREATE INDEX `parcels_tracking_number` ON `parcels` (`tracking_number`);--> statement-breakpoint
CREATE TABLE `shipment_counts` (
	`account_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`account_id`, `channel_id`, `status`)
);
--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`account_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`label_format` text NOT NULL,
	`shipping_date` text NOT NULL,
	`reference_number` text,
	`provider_shipment_id` text,
	`product` text,
	`is_international` integer NOT NULL,
	`cod_amount_minor` integer,
	`cod_currency` text,
	`sender_contact` text NOT NULL,
	`recipient_contact` text NOT NULL,
	`origin_address` text NOT NULL,
	`destination_address` text NOT NULL,
	`metadata` text,
	`label_comment` text,
	`enable_tracking` integer NOT NULL,
	`print_request` text,
	`total_price_minor` integer,
	`currency` text,
	`failure` text,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer,
	`carrier_progress` text,
	`cancelled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipments_seq` ON `shipments` (`seq`);--> statement-breakpoint
CREATE INDEX `shipments_account_created` ON `shipments` (`account_id`,`created_at`,`seq`);--> statement-breakpoint
CREATE INDEX `shipments_account_status_created` ON `shipments` (`account_id`,`status`,`created_at`,`seq`);--> statement-breakpoint
CREATE INDEX `shipments_account_channel_created` ON `shipments` (`account_id`,`channel_id`,`created_at`,`seq`);--> statement-breakpoint
CREATE INDEX `shipments_channel_status` ON `shipments` (`channel_id`,`status`);