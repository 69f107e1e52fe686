CREATE TABLE "station_settings" (
	"account_id" text NOT NULL,
	"station" text NOT NULL,
	"settings" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "station_settings_account_id_station_pk" PRIMARY KEY("account_id","station")
);
--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "shipment_ids" text;--> statement-breakpoint
ALTER TABLE "printers" ADD COLUMN "status_query" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "printed_at" bigint;--> statement-breakpoint
ALTER TABLE "station_settings" ADD CONSTRAINT "station_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;