ALTER TABLE `shipments` ADD `price_source` text;--> statement-breakpoint
ALTER TABLE `shipping_channels` ADD `price_list` text;