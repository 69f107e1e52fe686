CREATE TABLE "daemons" (
	"id" text PRIMARY KEY NOT NULL,
	"station" text NOT NULL,
	"host" text NOT NULL,
	"pid" bigint NOT NULL,
	"version" text NOT NULL,
	"started_at" bigint NOT NULL,
	"seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_facts" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "daemons_seen" ON "daemons" USING btree ("seen_at");