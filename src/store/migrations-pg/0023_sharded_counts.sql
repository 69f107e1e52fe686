-- Transactions of several daemons run side by side (src/store/postgres.ts): what every shipment change wrote to one
-- row per account now spreads over 64 shards, by the connection that writes it, and is summed when read.
ALTER TABLE "shipment_counts" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_counts" DROP CONSTRAINT "shipment_counts_account_id_channel_id_status_pk";--> statement-breakpoint
ALTER TABLE "shipment_counts" ADD CONSTRAINT "shipment_counts_account_id_channel_id_status_shard_pk" PRIMARY KEY("account_id","channel_id","status","shard");--> statement-breakpoint
-- each transaction counts in the shard of its connection (of 64), so concurrent ones seldom share a row; a shipment
-- counted in one shard may be taken off in another, which may go below zero: only sums are read
CREATE OR REPLACE FUNCTION "shipment_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "shipment_counts" ("account_id", "channel_id", "status", "shard", "n") VALUES (OLD."account_id", OLD."channel_id", OLD."status", pg_backend_pid() % 64, -1)
    ON CONFLICT ("account_id", "channel_id", "status", "shard") DO UPDATE SET "n" = "shipment_counts"."n" - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "shipment_counts" ("account_id", "channel_id", "status", "shard", "n") VALUES (NEW."account_id", NEW."channel_id", NEW."status", pg_backend_pid() % 64, 1)
    ON CONFLICT ("account_id", "channel_id", "status", "shard") DO UPDATE SET "n" = "shipment_counts"."n" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
ALTER TABLE "shipment_list_versions" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_list_versions" DROP CONSTRAINT "shipment_list_versions_pkey";--> statement-breakpoint
ALTER TABLE "shipment_list_versions" ADD PRIMARY KEY ("account_id", "shard");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "shipment_list_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shipment_list_versions" ("account_id", "shard", "version")
  VALUES (CASE TG_OP WHEN 'DELETE' THEN OLD."account_id" ELSE NEW."account_id" END, pg_backend_pid() % 64, 1)
  ON CONFLICT ("account_id", "shard") DO UPDATE SET "version" = "shipment_list_versions"."version" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- shipment numbers come from a sequence: reading max(seq) would hand concurrent transactions the same number
CREATE SEQUENCE "shipment_seq" OWNED BY "shipments"."seq";--> statement-breakpoint
SELECT setval('shipment_seq', (SELECT coalesce(max("seq"), 0) + 1 FROM "shipments"), false);
