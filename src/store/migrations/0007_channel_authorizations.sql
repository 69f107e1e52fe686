CREATE TABLE `channel_authorizations` (
	`channel_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`device_enc` text,
	`device_expires_at` integer,
	`poll_interval_ms` integer,
	`next_poll_at` integer,
	`tokens_enc` text,
	`access_expires_at` integer,
	`version` integer NOT NULL,
	`refreshing_until` integer,
	`message` text,
	`authorized_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`channel_id`) REFERENCES `shipping_channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `channel_authorizations_next_poll` ON `channel_authorizations` (`next_poll_at`);