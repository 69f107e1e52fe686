ALTER TABLE `printers` ADD `station` text;--> statement-breakpoint
ALTER TABLE `watched_folders` ADD `station` text;