CREATE TABLE `station_settings` (
	`account_id` text NOT NULL,
	`station` text NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `station`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `print_jobs` ADD `shipment_ids` text;--> statement-breakpoint
ALTER TABLE `printers` ADD `status_query` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `printed_at` integer;