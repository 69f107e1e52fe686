ALTER TABLE `shipping_channels` ADD `dispatch_at` text;--> statement-breakpoint
ALTER TABLE `shipping_channels` ADD `auto_dispatched_on` text;