export { mergeLabels, LABEL_MIME_TYPES, type MergedLabel } from './merge.js';
export { layoutA4 } from './a4.js';
export { LabelFormatError } from './errors.js';
export { splitLabels } from './split.js';
