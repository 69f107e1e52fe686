/** A 1-bit image in thermal-printer order: rows top to bottom, 8 dots per byte, most significant bit leftmost, 1 = black. */
export interface Bitmap {
  width: number;
  height: number;
  bytesPerRow: number;
  bits: Uint8Array;
}

/** A rectangle in dots: left/top inclusive, width and height. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function blankBitmap(width: number, height: number): Bitmap {
  const bytesPerRow = Math.ceil(width / 8);
  return { width, height, bytesPerRow, bits: new Uint8Array(bytesPerRow * height) };
}

function isBlack(bitmap: Bitmap, x: number, y: number): boolean {
  return (bitmap.bits[y * bitmap.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
}

function setBlack(bitmap: Bitmap, x: number, y: number): void {
  bitmap.bits[y * bitmap.bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
}

/**
 * Black where a grey pixel is darker than `threshold` (0–255): a hard cut, no dithering, so a barcode's bars stay
 * solid and its edges fall on whole dots.
 */
export function thresholdGray(gray: Uint8Array, width: number, height: number, threshold = 128): Bitmap {
  const bitmap = blankBitmap(width, height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if (gray[row + x]! < threshold) setBlack(bitmap, x, y);
  }
  return bitmap;
}

/** The smallest box holding every black dot; null for a blank image. */
export function inkBox(bitmap: Bitmap): Box | null {
  let top = -1;
  let bottom = -1;
  let leftByte = bitmap.bytesPerRow;
  let rightByte = -1;
  for (let y = 0; y < bitmap.height; y++) {
    const row = y * bitmap.bytesPerRow;
    for (let b = 0; b < bitmap.bytesPerRow; b++) {
      if (bitmap.bits[row + b] === 0) continue;
      if (top === -1) top = y;
      bottom = y;
      if (b < leftByte) leftByte = b;
      if (b > rightByte) rightByte = b;
    }
  }
  if (top === -1) return null;
  let left = leftByte * 8;
  while (!columnHasInk(bitmap, left, top, bottom)) left++;
  let right = Math.min(bitmap.width - 1, rightByte * 8 + 7);
  while (!columnHasInk(bitmap, right, top, bottom)) right--;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

function columnHasInk(bitmap: Bitmap, x: number, top: number, bottom: number): boolean {
  for (let y = top; y <= bottom; y++) if (isBlack(bitmap, x, y)) return true;
  return false;
}

/** Copies `box` of `source` onto a `width`×`height` canvas at (`left`, `top`), turned a quarter clockwise if asked. */
export function placeOnCanvas(source: Bitmap, box: Box, canvas: { width: number; height: number; left: number; top: number; quarterTurn: boolean }): Bitmap {
  const out = blankBitmap(canvas.width, canvas.height);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      if (!isBlack(source, box.left + x, box.top + y)) continue;
      // a clockwise quarter turn sends (x, y) of a w×h image to (h-1-y, x)
      const tx = canvas.quarterTurn ? canvas.left + box.height - 1 - y : canvas.left + x;
      const ty = canvas.quarterTurn ? canvas.top + x : canvas.top + y;
      if (tx >= 0 && ty >= 0 && tx < out.width && ty < out.height) setBlack(out, tx, ty);
    }
  }
  return out;
}

/** The part of a bitmap inside `box`, its left edge moved to a whole byte (thermal graphics start on a byte). */
export function cropToBytes(bitmap: Bitmap, box: Box): { bitmap: Bitmap; left: number; top: number } {
  const left = box.left - (box.left % 8);
  const width = box.left + box.width - left;
  const out = blankBitmap(width, box.height);
  const firstByte = left >> 3;
  for (let y = 0; y < box.height; y++) {
    const from = (box.top + y) * bitmap.bytesPerRow + firstByte;
    out.bits.set(bitmap.bits.subarray(from, from + out.bytesPerRow), y * out.bytesPerRow);
  }
  // the last byte may carry dots right of the box; they are outside the ink box, so white already
  return { bitmap: out, left, top: box.top };
}

/**
 * The narrowest bar of the barcodes on a bitmap, in dots, or null where none is found: a bar is a black run at least
 * `minBarHeight` dots tall in a row holding at least ten such runs (text strokes are shorter and fewer).
 */
export function narrowestBar(bitmap: Bitmap, minBarHeight: number): number | null {
  let narrowest: number | null = null;
  const step = Math.max(1, Math.floor(minBarHeight / 4));
  for (let y = 0; y + minBarHeight <= bitmap.height; y += step) {
    const widths: number[] = [];
    let x = 0;
    while (x < bitmap.width) {
      if (!isBlack(bitmap, x, y)) { x++; continue; }
      const start = x;
      while (x < bitmap.width && isBlack(bitmap, x, y)) x++;
      const middle = (start + x - 1) >> 1;
      let tall = true;
      for (let dy = 1; dy < minBarHeight && tall; dy++) tall = isBlack(bitmap, middle, y + dy);
      if (tall) widths.push(x - start);
    }
    if (widths.length >= 10) narrowest = Math.min(narrowest ?? Infinity, ...widths);
  }
  return narrowest;
}
