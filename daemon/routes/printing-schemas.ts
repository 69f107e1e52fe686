import { Type } from 'typebox';
import { STATUS_QUERIES } from '../../printers/index.js';
import { PRINTER_STATES } from '../../src/services/printing/printers.js';
import { MAX_COPIES, PRINT_JOB_STATUSES } from '../../src/services/printing/print-jobs.js';
import { LabelDpiSchema, MoveToStation, Nullable, PlainText, Timestamp } from '../http/schemas.js';

/** JSON schemas of printers and print jobs (SPEC §2.6). */

export const FormatSchema = Type.String({ enum: ['pdf', 'zpl', 'epl'] });
const Formats = (description: string) => Type.Array(FormatSchema, { minItems: 1, maxItems: 3, uniqueItems: true, description });
const StatusQuerySchema = (description: string) => Type.String({ enum: [...STATUS_QUERIES], description });
const STATUS_QUERY_HELP = "auto: a tcp:// printer taking ZPL is asked Zebra's host status (~HS) before and after each job, IPP printers their "
  + 'attributes; none: a tcp:// printer that never answers ~HS (many non-Zebra ZPL printers and print servers) is only connected '
  + 'to, and a job counts printed once its bytes were written and the connection closed cleanly. Only tcp:// printers take none '
  + '(422 on status_query otherwise)';

export const PrinterSchema = Type.Object({
  id: Type.String({ description: 'prn_…' }),
  station: Nullable(Type.String({ description: 'The station whose daemon prints to it: the one it was added through or moved to (null: any daemon, a printer from before stations)' })),
  name: Type.String(),
  uri: Type.String({ description: 'tcp://host:9100 (raw socket: ZPL, EPL), ipp:// or ipps:// (PDF, or ZPL/EPL to a CUPS raw queue), file:///dir' }),
  formats: Type.Array(FormatSchema),
  default_for: Type.Array(FormatSchema, { description: "Formats for which this is the account's default printer" }),
  dpi: LabelDpiSchema,
  status: Type.String({ enum: [...PRINTER_STATES], description: 'As last seen: ready, offline (unreachable or unable to print), unknown' }),
  status_query: StatusQuerySchema(STATUS_QUERY_HELP),
  status_detail: Nullable(Type.Object({
    reachable: Type.Boolean(),
    problems: Type.Array(Type.String(), { description: 'e.g. paper_out, head_open, paused, no_status_answer (Zebra ~HS); media-empty, stopped (IPP)' }),
    message: Type.String(),
  }, { additionalProperties: true, description: "What the printer said: Zebra host status flags or IPP printer-state and printer-state-reasons" })),
  last_seen_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreatePrinterBody = Type.Object({
  name: PlainText({ minLength: 1, maxLength: 255 }),
  uri: PlainText({ minLength: 1, maxLength: 2048 }),
  formats: Formats('Formats the printer takes: zpl, epl, pdf'),
  default_for: Type.Optional(Type.Array(FormatSchema, { maxItems: 3, uniqueItems: true, description: 'Make it the default printer for these formats' })),
  dpi: Type.Optional(LabelDpiSchema),
  status_query: Type.Optional(StatusQuerySchema(`Default auto. ${STATUS_QUERY_HELP}`)),
});

export const UpdatePrinterBody = Type.Object({
  name: Type.Optional(PlainText({ minLength: 1, maxLength: 255 })),
  uri: Type.Optional(PlainText({ minLength: 1, maxLength: 2048 })),
  formats: Type.Optional(Formats('Formats the printer takes')),
  default_for: Type.Optional(Type.Array(FormatSchema, { maxItems: 3, uniqueItems: true })),
  dpi: Type.Optional(LabelDpiSchema),
  status_query: Type.Optional(StatusQuerySchema(`${STATUS_QUERY_HELP}. A printer whose new uri cannot take its status query goes back to auto unless the request names one`)),
  station: Type.Optional(MoveToStation('printer')),
});

export const TestPrintBody = Type.Object({
  formats: Type.Optional(Formats('Only these formats (default: every format the printer takes)')),
});

export const PrintJobSchema = Type.Object({
  id: Type.String({ description: 'pj_…' }),
  kind: Type.String({ enum: ['shipment_label', 'shipment_labels', 'test_label', 'dispatch_document'], description: "shipment_labels: several shipments' labels merged into one job; dispatch_document: a dispatch's hand-over document" }),
  shipment_id: Nullable(Type.String()),
  shipment_ids: Type.Array(Type.String(), { description: 'The shipments whose labels the job prints' }),
  dispatch_id: Nullable(Type.String({ description: 'The dispatch whose hand-over document the job prints' })),
  printer_id: Type.String(),
  format: FormatSchema,
  copies: Type.Integer(),
  layout: Nullable(Type.String({ description: 'a4: four 10×15 cm labels per A4 page' })),
  status: Type.String({ enum: [...PRINT_JOB_STATUSES] }),
  attempts: Type.Integer(),
  error: Nullable(Type.String()),
  next_attempt_at: Nullable(Timestamp),
  expires_at: Timestamp,
  created_at: Timestamp,
  printed_at: Nullable(Timestamp),
});

export const BatchPrintBody = Type.Object({
  shipment_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, description: 'Printed in this order' }),
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1, description: "Default: the station's printer for each label format" }))),
  copies: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COPIES, default: 1 })),
  station: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Whose printers: default the daemon's station" })),
});

export const ShipmentPrintBody = Type.Object({
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1, description: "Default: the station's printer for the label format (its settings, else the account's default printer for it)" }))),
  station: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Whose printers: default the daemon's station" })),
  copies: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COPIES, default: 1 })),
  layout: Type.Optional(Type.String({ enum: ['a4'], description: 'pdf only: four labels per A4 page, for office printers' })),
});
