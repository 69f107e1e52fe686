import { deflateSync } from 'node:zlib';
import { cropToBytes, inkBox, type Bitmap } from './bitmap.js';

/**
 * A whole label as one graphic, in ZPL II or EPL2. Only the inked part is sent, at its place on the label; `bitmap`
 * is the full label (its size sets the print width and length).
 */

/** `^GF` with Z64 data (zlib-deflated, base64, CRC-16/XMODEM of the base64 text), as ZPL II Programming Guide vol. 2 describes. */
export function zplGraphicLabel(bitmap: Bitmap): string {
  const lines = ['^XA', `^PW${bitmap.width}`, `^LL${bitmap.height}`, '^LH0,0'];
  const ink = inkBox(bitmap);
  if (ink) {
    const { bitmap: part, left, top } = cropToBytes(bitmap, ink);
    const data = deflateSync(part.bits, { level: 9 }).toString('base64');
    const total = part.bits.byteLength;
    lines.push(`^FO${left},${top}^GFA,${total},${total},${part.bytesPerRow},:Z64:${data}:${crc16Xmodem(data)}^FS`);
  }
  lines.push('^XZ', '');
  return lines.join('\n');
}

/** `GW` with raw bytes: in EPL2 a 1 bit is a white dot, so the bits are inverted (Zebra support note "GW command"). */
export function eplGraphicLabel(bitmap: Bitmap): Buffer {
  const head = ['', 'N', `q${bitmap.width}`, `Q${bitmap.height},24`].join('\n') + '\n';
  const ink = inkBox(bitmap);
  if (!ink) return Buffer.from(`${head}P1\n`, 'latin1');
  const { bitmap: part, left, top } = cropToBytes(bitmap, ink);
  const data = Buffer.allocUnsafe(part.bits.byteLength);
  for (let i = 0; i < data.length; i++) data[i] = ~part.bits[i]! & 0xff;
  return Buffer.concat([
    Buffer.from(`${head}GW${left},${top},${part.bytesPerRow},${part.height},`, 'latin1'), data, Buffer.from('\nP1\n', 'latin1'),
  ]);
}

function crc16Xmodem(text: string): string {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
