-- Substring search over reference numbers, carrier ids and parcel tracking numbers (trigram index, case-insensitive).
CREATE VIRTUAL TABLE `shipment_search` USING fts5(`account_id` UNINDEXED, `terms`, tokenize = 'trigram');
--> statement-breakpoint
-- List totals per account, channel and status, kept exact by triggers.
CREATE TRIGGER `shipment_counts_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_counts` (`account_id`, `channel_id`, `status`, `n`) VALUES (NEW.`account_id`, NEW.`channel_id`, NEW.`status`, 1)
  ON CONFLICT (`account_id`, `channel_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_counts_delete` AFTER DELETE ON `shipments` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1
  WHERE `account_id` = OLD.`account_id` AND `channel_id` = OLD.`channel_id` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_counts_status` AFTER UPDATE OF `status` ON `shipments` WHEN OLD.`status` <> NEW.`status` BEGIN
  UPDATE `shipment_counts` SET `n` = `n` - 1
  WHERE `account_id` = OLD.`account_id` AND `channel_id` = OLD.`channel_id` AND `status` = OLD.`status`;
  INSERT INTO `shipment_counts` (`account_id`, `channel_id`, `status`, `n`) VALUES (NEW.`account_id`, NEW.`channel_id`, NEW.`status`, 1)
  ON CONFLICT (`account_id`, `channel_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
