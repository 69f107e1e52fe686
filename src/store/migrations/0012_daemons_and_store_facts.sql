CREATE TABLE `daemons` (
	`id` text PRIMARY KEY NOT NULL,
	`station` text NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`version` text NOT NULL,
	`started_at` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `daemons_seen` ON `daemons` (`seen_at`);--> statement-breakpoint
CREATE TABLE `store_facts` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
