CREATE TABLE `dispatches` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`pickup_request` text,
	`pickup` text,
	`print_request` text,
	`carrier_ref` text,
	`document` blob,
	`document_source` text,
	`failure` text,
	`attempts` integer NOT NULL,
	`carrier_progress` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`dispatched_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dispatches_account_created` ON `dispatches` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `dispatches_channel_created` ON `dispatches` (`channel_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `print_jobs` ADD `dispatch_id` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `dispatch_id` text;--> statement-breakpoint
CREATE INDEX `shipments_dispatch` ON `shipments` (`dispatch_id`);