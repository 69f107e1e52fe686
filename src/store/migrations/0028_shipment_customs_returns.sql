CREATE TABLE `shipment_documents` (
	`shipment_id` text NOT NULL,
	`type` text NOT NULL,
	`content` blob NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`shipment_id`, `type`),
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `shipments` ADD `customs` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `return_of` text;