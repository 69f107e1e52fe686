-- Search terms of 1-2 characters are too short for the trigram index: they match a whole reference number, through this index.
CREATE INDEX `shipments_account_reference` ON `shipments` (`account_id`, `reference_number` COLLATE NOCASE);
