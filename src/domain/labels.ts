/** Label formats packdesk stores, merges and prints (SPEC §6). */
export const LABEL_FORMATS = ['pdf', 'zpl', 'epl'] as const;

export type LabelFormat = (typeof LABEL_FORMATS)[number];

export function isLabelFormat(value: unknown): value is LabelFormat {
  return typeof value === 'string' && (LABEL_FORMATS as readonly string[]).includes(value);
}
