-- Shipment counts gain a shard (schema.ts): SQLite, with one writer, keeps every count in shard 0.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
-- the triggers that keep the counts go first: the table they write is renamed into place below
DROP TRIGGER `shipment_counts_insert`;--> statement-breakpoint
DROP TRIGGER `shipment_counts_delete`;--> statement-breakpoint
DROP TRIGGER `shipment_counts_status`;--> statement-breakpoint
CREATE TABLE `__new_shipment_counts` (
	`account_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`status` text NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`account_id`, `channel_id`, `status`, `shard`)
);
--> statement-breakpoint
INSERT INTO `__new_shipment_counts`("account_id", "channel_id", "status", "shard", "n") SELECT "account_id", "channel_id", "status", 0, "n" FROM `shipment_counts`;--> statement-breakpoint
DROP TABLE `shipment_counts`;--> statement-breakpoint
ALTER TABLE `__new_shipment_counts` RENAME TO `shipment_counts`;--> statement-breakpoint
CREATE TRIGGER `shipment_counts_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_counts` (`account_id`, `channel_id`, `status`, `shard`, `n`) VALUES (NEW.`account_id`, NEW.`channel_id`, NEW.`status`, 0, 1)
  ON CONFLICT (`account_id`, `channel_id`, `status`, `shard`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_counts_delete` AFTER DELETE ON `shipments` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1
  WHERE `account_id` = OLD.`account_id` AND `channel_id` = OLD.`channel_id` AND `status` = OLD.`status` AND `shard` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_counts_status` AFTER UPDATE OF `status` ON `shipments` WHEN OLD.`status` <> NEW.`status` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1
  WHERE `account_id` = OLD.`account_id` AND `channel_id` = OLD.`channel_id` AND `status` = OLD.`status` AND `shard` = 0;
  INSERT INTO `shipment_counts` (`account_id`, `channel_id`, `status`, `shard`, `n`) VALUES (NEW.`account_id`, NEW.`channel_id`, NEW.`status`, 0, 1)
  ON CONFLICT (`account_id`, `channel_id`, `status`, `shard`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
PRAGMA foreign_keys=ON;
