CREATE TABLE "shipment_documents" (
	"shipment_id" text NOT NULL,
	"type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"source" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "shipment_documents_shipment_id_type_pk" PRIMARY KEY("shipment_id","type")
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "customs" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "return_of" text;--> statement-breakpoint
ALTER TABLE "shipment_documents" ADD CONSTRAINT "shipment_documents_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;