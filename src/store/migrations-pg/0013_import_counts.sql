ALTER TABLE "imports" ADD COLUMN "invalid_orders" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "imported_orders_import" ON "imported_orders" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "orders_import" ON "orders" USING btree ("import_id");--> statement-breakpoint
-- imports finished before invalid orders were counted: their failed rows, one per order in most files
UPDATE "imports" SET "invalid_orders" = "failed_rows";
