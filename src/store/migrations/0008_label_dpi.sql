ALTER TABLE `printers` ADD `dpi` integer DEFAULT 203 NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `label_dpi` integer DEFAULT 203 NOT NULL;