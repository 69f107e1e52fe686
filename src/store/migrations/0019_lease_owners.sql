ALTER TABLE `idempotency_keys` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `print_jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `tracking_parcels` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `webhook_queue` ADD `lease_owner` text;