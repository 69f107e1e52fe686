import { Type } from 'typebox';
import { LABEL_FORMATS } from '../../src/domain/labels.js';
import { MAPPING_PRESETS, type MappingSetting } from '../../src/imports/mapping.js';
import { IMPORT_STATUSES } from '../../src/services/imports/records.js';
import { WATCHED_FOLDER_STATUSES } from '../../src/services/imports/watched-folders.js';
import { MAX_COPIES } from '../../src/services/printing/print-jobs.js';
import { FreeObject, MoveToStation, Nullable, PlainText, Timestamp } from '../http/schemas.js';

/** JSON schemas of watched folders and imports (SPEC §2.7, §7). */

const LabelFormat = Type.String({ enum: [...LABEL_FORMATS] });
const Mapping = Type.Unsafe<MappingSetting>({
  anyOf: [Type.String({ minLength: 1 }), FreeObject],
  description: `A preset name (${Object.keys(MAPPING_PRESETS).join(', ')}; "default": columns named like the API fields flattened with _) or `
    + '{"preset": "<name>" (optional), "columns": {"<file column>": "<import field>"}, "defaults": {"<import field>": value}}: a preset\'s columns with these added, e.g. the sender in defaults',
});

export const WatchedFolderSchema = Type.Object({
  id: Type.String({ description: 'wf_…' }),
  station: Nullable(Type.String({ description: 'The station whose daemon watches the folder: the one it was added through or moved to (null: any daemon, a folder from before stations)' })),
  path: Type.String({ description: 'Absolute path on the daemon machine' }),
  shipping_channel_id: Type.String(),
  label_format: LabelFormat,
  printer_id: Nullable(Type.String({ description: 'Labels are printed here once they exist' })),
  mapping: Nullable(Mapping),
  status: Type.String({ enum: [...WATCHED_FOLDER_STATUSES] }),
  folders: Type.Object({
    in: Type.String(), processing: Type.String(), done: Type.String(), failed: Type.String(), out: Type.String(),
  }, { description: 'Drop files into in/; results appear in out/' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateWatchedFolderBody = Type.Object({
  path: PlainText({ minLength: 1, maxLength: 4096 }),
  shipping_channel_id: Type.String({ minLength: 1 }),
  label_format: LabelFormat,
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  mapping: Type.Optional(Nullable(Mapping)),
  status: Type.Optional(Type.String({ enum: [...WATCHED_FOLDER_STATUSES], default: 'active' })),
});

export const UpdateWatchedFolderBody = Type.Object({
  path: Type.Optional(PlainText({ minLength: 1, maxLength: 4096 })),
  shipping_channel_id: Type.Optional(Type.String({ minLength: 1 })),
  label_format: Type.Optional(LabelFormat),
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  mapping: Type.Optional(Nullable(Mapping)),
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
  shipments_created: Type.Integer({ description: 'Shipments this import created' }),
  orders_already_imported: Type.Integer({ description: 'Orders an earlier import of the same file had created (nothing new)' }),
  failed_rows: Type.Integer(),
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
  shipping_channel_id: Type.String({ minLength: 1 }),
  label_format: Type.Optional(Type.String({ enum: ['pdf', 'zpl', 'epl'], default: 'pdf' })),
  printer_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  copies: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COPIES, default: 1 })),
  mapping: Type.Optional(Nullable(Mapping)),
});

export const ResultRowSchema = Type.Object({
  reference_number: Type.String(),
  shipment_id: Nullable(Type.String()),
  status: Type.String({ description: 'created (or later), pending, failed, already_imported, error, deleted' }),
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
