export { mergeLabels, LABEL_MIME_TYPES, type MergedLabel } from './merge.js';
export { layoutA4 } from './a4.js';
export { LabelFormatError } from './errors.js';
export { splitLabels } from './split.js';
export {
  convertLabelOffThread, previewLabelOffThread, renderCommercialInvoiceOffThread, renderHandoverListOffThread, renderTestLabelOffThread, stopLabelConversions,
} from './conversions.js';

/** A stored label is the carrier's own bytes, or one packdesk converted from the carrier's other format. */
export type LabelSource = 'carrier' | 'converted';
