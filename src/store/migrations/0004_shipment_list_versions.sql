-- A per-account version of the shipment list, bumped by every change to a shipment row: list answers are cached
-- per version and never served stale, whoever wrote the change.
CREATE TABLE `shipment_list_versions` (`account_id` text PRIMARY KEY NOT NULL, `version` integer NOT NULL);
--> statement-breakpoint
CREATE TRIGGER `shipment_list_versions_insert` AFTER INSERT ON `shipments` BEGIN
  INSERT INTO `shipment_list_versions` (`account_id`, `version`) VALUES (NEW.`account_id`, 1)
  ON CONFLICT (`account_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_list_versions_update` AFTER UPDATE ON `shipments` BEGIN
  INSERT INTO `shipment_list_versions` (`account_id`, `version`) VALUES (NEW.`account_id`, 1)
  ON CONFLICT (`account_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipment_list_versions_delete` AFTER DELETE ON `shipments` BEGIN
  INSERT INTO `shipment_list_versions` (`account_id`, `version`) VALUES (OLD.`account_id`, 1)
  ON CONFLICT (`account_id`) DO UPDATE SET `version` = `version` + 1;
END;
