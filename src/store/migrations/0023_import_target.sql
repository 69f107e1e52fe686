ALTER TABLE `imported_orders` ADD `order_id` text;--> statement-breakpoint
ALTER TABLE `watched_folders` ADD `target` text DEFAULT 'shipments' NOT NULL;