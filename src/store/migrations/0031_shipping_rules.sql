CREATE TABLE `shipping_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`conditions` text NOT NULL,
	`action` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipping_rules_account_position` ON `shipping_rules` (`account_id`,`position`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_watched_folders` (
	`station` text,
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`path` text NOT NULL,
	`channel_id` text,
	`label_format` text NOT NULL,
	`printer_id` text,
	`mapping` text,
	`target` text DEFAULT 'shipments' NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_watched_folders`("station", "id", "account_id", "path", "channel_id", "label_format", "printer_id", "mapping", "target", "status", "created_at", "updated_at") SELECT "station", "id", "account_id", "path", "channel_id", "label_format", "printer_id", "mapping", "target", "status", "created_at", "updated_at" FROM `watched_folders`;--> statement-breakpoint
DROP TABLE `watched_folders`;--> statement-breakpoint
ALTER TABLE `__new_watched_folders` RENAME TO `watched_folders`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `watched_folders_path` ON `watched_folders` (`path`);--> statement-breakpoint
CREATE INDEX `watched_folders_account_created` ON `watched_folders` (`account_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `shipments` ADD `chosen_by` text;