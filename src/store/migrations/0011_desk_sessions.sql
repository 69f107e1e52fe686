CREATE TABLE `desk_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`api_key_id` text NOT NULL,
	`token_hash` text,
	`link_hash` text,
	`link_expires_at` integer,
	`csrf_token` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `desk_sessions_token` ON `desk_sessions` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `desk_sessions_link` ON `desk_sessions` (`link_hash`);--> statement-breakpoint
CREATE INDEX `desk_sessions_expires` ON `desk_sessions` (`expires_at`);