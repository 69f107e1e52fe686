ALTER TABLE `jobs` ADD `lane` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_lane_due` ON `jobs` (`kind`,`state`,`lane`,`run_at`);--> statement-breakpoint
-- creation jobs queued before lanes existed join their shipment's lane (`provider:channel`, see src/services/shipments/create.ts)
UPDATE `jobs` SET `lane` = (SELECT `provider` || ':' || `channel_id` FROM `shipments` WHERE `shipments`.`id` = `jobs`.`subject_id`)
WHERE `kind` = 'shipment.create' AND EXISTS (SELECT 1 FROM `shipments` WHERE `shipments`.`id` = `jobs`.`subject_id`);
