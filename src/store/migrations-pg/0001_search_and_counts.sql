-- What the SQLite migrations write by hand, in PostgreSQL's terms.
-- Substring search over reference numbers, carrier ids and parcel tracking numbers: SQLite's fts5 trigram table becomes
-- a plain table under a trigram index, searched with ILIKE. rowid is the shipment's seq, given by the writer.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "shipment_search" ("rowid" bigint PRIMARY KEY NOT NULL, "account_id" text, "terms" text);
--> statement-breakpoint
CREATE INDEX "shipment_search_terms" ON "shipment_search" USING gin ("terms" gin_trgm_ops);
--> statement-breakpoint
-- Search terms of 1-2 characters are too short for the trigram index: they match a whole reference number, through
-- this index, compared as lower(reference_number) where SQLite uses COLLATE NOCASE.
CREATE INDEX "shipments_account_reference" ON "shipments" USING btree ("account_id", lower("reference_number"));
--> statement-breakpoint
-- List totals per account, channel and status, kept exact by triggers.
CREATE FUNCTION "shipment_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "shipment_counts" SET "n" = "n" - 1
    WHERE "account_id" = OLD."account_id" AND "channel_id" = OLD."channel_id" AND "status" = OLD."status";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "shipment_counts" ("account_id", "channel_id", "status", "n") VALUES (NEW."account_id", NEW."channel_id", NEW."status", 1)
    ON CONFLICT ("account_id", "channel_id", "status") DO UPDATE SET "n" = "shipment_counts"."n" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "shipment_counts_insert" AFTER INSERT ON "shipments" FOR EACH ROW EXECUTE FUNCTION "shipment_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "shipment_counts_delete" AFTER DELETE ON "shipments" FOR EACH ROW EXECUTE FUNCTION "shipment_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "shipment_counts_status" AFTER UPDATE OF "status" ON "shipments" FOR EACH ROW
  WHEN (OLD."status" <> NEW."status") EXECUTE FUNCTION "shipment_counts_track"();
--> statement-breakpoint
-- A per-account version of the shipment list, bumped by every change to a shipment row: list answers are cached
-- per version and never served stale, whoever wrote the change.
CREATE TABLE "shipment_list_versions" ("account_id" text PRIMARY KEY NOT NULL, "version" bigint NOT NULL);
--> statement-breakpoint
CREATE FUNCTION "shipment_list_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shipment_list_versions" ("account_id", "version")
  VALUES (CASE TG_OP WHEN 'DELETE' THEN OLD."account_id" ELSE NEW."account_id" END, 1)
  ON CONFLICT ("account_id") DO UPDATE SET "version" = "shipment_list_versions"."version" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "shipment_list_versions_insert" AFTER INSERT ON "shipments" FOR EACH ROW EXECUTE FUNCTION "shipment_list_versions_bump"();
--> statement-breakpoint
CREATE TRIGGER "shipment_list_versions_update" AFTER UPDATE ON "shipments" FOR EACH ROW EXECUTE FUNCTION "shipment_list_versions_bump"();
--> statement-breakpoint
CREATE TRIGGER "shipment_list_versions_delete" AFTER DELETE ON "shipments" FOR EACH ROW EXECUTE FUNCTION "shipment_list_versions_bump"();
