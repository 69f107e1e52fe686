DROP INDEX `shipping_channels_account_name`;--> statement-breakpoint
ALTER TABLE `shipping_channels` ADD `deleted_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `shipping_channels_account_name` ON `shipping_channels` (`account_id`,`name`) WHERE `deleted_at` IS NULL;