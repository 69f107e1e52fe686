/** Label formats packdesk stores, merges and prints (SPEC §6). */
export const LABEL_FORMATS = ['pdf', 'zpl', 'epl'] as const;

export type LabelFormat = (typeof LABEL_FORMATS)[number];

export function isLabelFormat(value: unknown): value is LabelFormat {
  return typeof value === 'string' && (LABEL_FORMATS as readonly string[]).includes(value);
}

/** Thermal print resolutions packdesk converts labels for: 8 and 12 dots per mm. */
export const LABEL_DPIS = [203, 300] as const;

export type LabelDpi = (typeof LABEL_DPIS)[number];

export const DEFAULT_LABEL_DPI: LabelDpi = 203;
