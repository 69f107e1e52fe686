CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"reference_number" text,
	"status" text NOT NULL,
	"draft" text NOT NULL,
	"search_text" text NOT NULL,
	"shipment_id" text,
	"import_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"shipped_at" bigint,
	"cancelled_at" bigint
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_account_created" ON "orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_account_status" ON "orders" USING btree ("account_id","status","created_at");