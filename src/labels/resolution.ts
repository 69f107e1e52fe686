import type { LabelDpi } from '../domain/labels.js';

/** A 4×6 in label in dots: 812×1218 at 203 dpi, 1200×1800 at 300 dpi. */
export function thermalLabelDots(dpi: LabelDpi): { width: number; height: number } {
  return dpi === 203 ? { width: 812, height: 1218 } : { width: 1200, height: 1800 };
}

/** zebrash and printers count in dots per millimetre. */
export function dotsPerMm(dpi: LabelDpi): number {
  return dpi === 203 ? 8 : 12;
}
