import { Type } from 'typebox';
import { LABEL_FORMATS } from '../../src/domain/labels.js';
import { MAPPING_PRESETS, type MappingSetting } from '../../src/imports/mapping.js';
import { IMPORT_TARGETS } from '../../src/imports/orders.js';
import { IMPORT_STATUSES } from '../../src/services/imports/records.js';
import { WATCHED_FOLDER_STATUSES } from '../../src/services/imports/watched-folders.js';
import { MAX_COPIES } from '../../src/services/printing/print-jobs.js';
import { FreeObject, MoveToStation, Nullable, PlainText, Timestamp } from '../http/schemas.js';

/** JSON schemas of watched folders and imports (SPEC §2.7, §7). */

const LabelFormat = Type.String({ enum: [...LABEL_FORMATS] });
const TARGET_DESCRIPTION = 'shipments: each order is created at once; orders: each waits in the order queue (/v1/orders) for the packer';
const Target = Type.String({ enum: [...IMPORT_TARGETS], description: TARGET_DESCRIPTION });
/** Created with no target, a folder or an upload creates shipments (a change leaves the target as it is). */
const NewTarget = Type.String({ enum: [...IMPORT_TARGETS], default: 'shipments', description: TARGET_DESCRIPTION });
const Mapping = Type.Unsafe<MappingSetting>({
  anyOf: [Type.String({ minLength: 1 }), FreeObject],
  description: `A preset name (${Object.keys(MAPPING_PRESETS).join(', ')}; "default": columns named like the API fields flattened with _) or `
    + '{"preset": "<name>" (optional), "columns": {"<file column>": "<import field>"}, "defaults": {"<import field>": value}}: a preset\'s columns with these added, e.g. the sender in defaults',
});

export const WatchedFolderSchema = Type.Object({
  id: Type.String({ description: 'wf_…' }),
  station: Nullable(Type.String({ description: 'The station whose daemon watches the folder: the one it was added through or moved to (null: any daemon, a folder from before stations)' })),
  path: Type.String({ description: 'Absolute path on the daemon machine' }),
  shipping_channel_id: Nullable(Type.String({ description: 'The channel of every order of the file that names none; without it, the account\'s shipping rules choose each order\'s channel' })),
  label_format: LabelFormat,
  printer_id: Nullable(Type.String({ description: 'Labels are printed here once they exist' })),
  mapping: Nullable(Mapping),
  target: Target,
  status: Type.String({ enum: [...WATCHED_FOLDER_STATUSES] }),
  folders: Type.Object({
    in: Type.String(), processing: Type.String(), done: Type.String(), failed: Type.String(), out: Type.String(),
  }, { description: 'Drop files into in/; results appear in out/' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateWatchedFolderBody = Type.Object({
  path: PlainText({ minLength: 1, maxLength: 4096 }),
  shipping_channel_id: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'The channel of every order of the file that names none; without it, the account\'s shipping rules choose each order\'s channel' }))),
  label_format: LabelFormat,
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  mapping: Type.Optional(Nullable(Mapping)),
  target: Type.Optional(NewTarget),
  status: Type.Optional(Type.String({ enum: [...WATCHED_FOLDER_STATUSES], default: 'active' })),
});

export const UpdateWatchedFolderBody = Type.Object({
  path: Type.Optional(PlainText({ minLength: 1, maxLength: 4096 })),
  shipping_channel_id: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'null: the shipping rules choose each order\'s channel' }))),
  label_format: Type.Optional(LabelFormat),
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  mapping: Type.Optional(Nullable(Mapping)),
  target: Type.Optional(Target),
  status: Type.Optional(Type.String({ enum: [...WATCHED_FOLDER_STATUSES] })),
  station: Type.Optional(MoveToStation('folder')),
});

export const ImportSchema = Type.Object({
  id: Type.String({ description: 'imp_…' }),
  watched_folder_id: Nullable(Type.String({ description: 'null for files sent with POST /v1/imports (packdesk import)' })),
  file_name: Type.String(),
  sha256: Type.String({ description: "The file's SHA-256: with the folder and the reference number it keys each order (exactly once)" }),
  rows: Type.Integer({ description: 'Order rows in the file (header and blank rows not counted)' }),
  rows_processed: Type.Integer({ description: "Rows whose order is finished: a shipment past its carrier step, already imported, or failed" }),
  created: Type.Integer({ description: "Orders whose shipment the carrier created: the result file's `created` lines (or a status after it). Read from the shipments as they are now, like refused_by_carrier and awaiting_carrier" }),
  refused_by_carrier: Type.Integer({ description: "Orders whose shipment the carrier refused (the result file's `failed`): the shipment waits, pending, to be corrected or retried" }),
  awaiting_carrier: Type.Integer({ description: "Orders whose shipment's carrier step has not finished, or is retried after an outage (the result file's `pending`)" }),
  invalid: Type.Integer({ description: "Orders the API's rules refused, so no shipment (the result file's `error` lines; their rows are in the errors file). Set when the import finishes" }),
  queued: Type.Integer({ description: 'Orders this import put in the order queue for the packer (GET /v1/orders), whatever became of them since' }),
  shipments_created: Type.Integer({ description: 'Shipments this import stored, whatever their carrier step did: created + refused_by_carrier + awaiting_carrier, and any cancelled or deleted before the carrier created them. Set when the import finishes' }),
  orders_already_imported: Type.Integer({ description: 'Orders an earlier import of the same file had created (nothing new)' }),
  failed_rows: Type.Integer({ description: 'Rows of the file that became no shipment: every row of an invalid order, and rows outside any order (the errors file lists them). Set when the import finishes' }),
  status: Type.String({ enum: [...IMPORT_STATUSES] }),
  result_path: Nullable(Type.String({ description: 'The result CSV: reference_number, shipment_id, status, tracking_numbers, error' })),
  errors_path: Nullable(Type.String({ description: 'The errors CSV (row, reference_number, field, column, message); null when no row failed' })),
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Nullable(Timestamp),
});

export const UploadImportBody = Type.Object({
  file_name: PlainText({ minLength: 1, maxLength: 255 }),
  content_base64: Type.String({ minLength: 1, description: 'The file as it is (any of the accepted encodings), base64' }),
  shipping_channel_id: Type.Optional(Type.String({ minLength: 1, description: 'The channel of every order of the file that names none; without it, the account\'s shipping rules choose each order\'s channel' })),
  label_format: Type.Optional(Type.String({ enum: ['pdf', 'zpl', 'epl'], default: 'pdf' })),
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  copies: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COPIES, default: 1 })),
  mapping: Type.Optional(Nullable(Mapping)),
  target: Type.Optional(NewTarget),
});

export const ResultRowSchema = Type.Object({
  reference_number: Type.String(),
  shipment_id: Nullable(Type.String()),
  status: Type.String({ description: 'created (or later), pending, failed, already_imported, error, deleted; queued (target orders)' }),
  tracking_numbers: Type.Array(Type.String()),
  error: Nullable(Type.String()),
});

export const ErrorRowSchema = Type.Object({
  row: Type.Integer({ description: 'Row in the file; the header is row 1' }),
  reference_number: Nullable(Type.String()),
  field: Type.String({ description: 'API field path, e.g. parcels.1.weight_amount' }),
  column: Nullable(Type.String({ description: "The file's column" })),
  message: Type.String(),
});
