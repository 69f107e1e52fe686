ALTER TABLE `shipments` ADD `with_return` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `shipments_return_of` ON `shipments` (`return_of`);