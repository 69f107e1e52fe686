CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`reference_number` text,
	`status` text NOT NULL,
	`draft` text NOT NULL,
	`search_text` text NOT NULL,
	`shipment_id` text,
	`import_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`shipped_at` integer,
	`cancelled_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `orders_account_created` ON `orders` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_account_status` ON `orders` (`account_id`,`status`,`created_at`);