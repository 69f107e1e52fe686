import { crc32, deflateSync } from 'node:zlib';
import type { Bitmap } from './bitmap.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A greyscale PNG: 1-bit from a label bitmap (a few KB), or 8-bit from a rendered page. */
export function encodePng(image: Bitmap | { width: number; height: number; gray: Uint8Array }): Buffer {
  const oneBit = 'bits' in image;
  const rowBytes = oneBit ? image.bytesPerRow : image.width;
  const raw = Buffer.alloc((rowBytes + 1) * image.height); // each row: filter type 0, then the row
  for (let y = 0; y < image.height; y++) {
    const out = y * (rowBytes + 1) + 1;
    if (oneBit) {
      // PNG greyscale 1 is white; our bitmaps say 1 for black
      for (let b = 0; b < rowBytes; b++) raw[out + b] = ~image.bits[y * rowBytes + b]! & 0xff;
    } else {
      raw.set(image.gray.subarray(y * rowBytes, (y + 1) * rowBytes), out);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = oneBit ? 1 : 8; // bit depth; colour type 0 (greyscale), deflate, no filter method, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}
