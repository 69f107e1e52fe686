CREATE TABLE "dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"pickup_request" text,
	"pickup" text,
	"print_request" text,
	"carrier_ref" text,
	"document" "bytea",
	"document_source" text,
	"failure" text,
	"attempts" bigint NOT NULL,
	"carrier_progress" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"dispatched_at" bigint
);
--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "dispatch_id" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "dispatch_id" text;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_channel_id_shipping_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."shipping_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispatches_account_created" ON "dispatches" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "dispatches_channel_created" ON "dispatches" USING btree ("channel_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_dispatch" ON "shipments" USING btree ("dispatch_id");