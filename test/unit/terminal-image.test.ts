import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { detectImageProtocol, encodeTerminalImage, type ImageProtocol } from '../../src/cli/terminal-image.js';

type Rgba = [number, number, number, number];

function buildPng(width: number, height: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) png.data.set(pixel(x, y), (y * width + x) * 4);
  }
  return PNG.sync.write(png);
}

/** Colour noise compresses badly, so the PNG is large enough to need several kitty chunks. */
function noisyPng(width: number, height: number): Buffer {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  return buildPng(width, height, () => [next(), next(), next(), 255]);
}

interface SixelImage { width: number; height: number; palette: Map<number, string>; pixels: Int16Array }

/**
 * A minimal sixel decoder: raster attributes, palette definitions and selections, `!n` repeats, `$` and `-`.
 * Every pixel holds the palette index last painted on it, -1 where nothing was painted.
 */
function decodeSixel(text: string): SixelImage {
  const match = /^\x1bP([0-9;]*)q([\s\S]*)\x1b\\\n$/.exec(text);
  if (!match) throw new Error('not a sixel DCS sequence ending in ST and a newline');
  const body = match[2]!;
  const raster = /^"(\d+);(\d+);(\d+);(\d+)/.exec(body);
  if (!raster) throw new Error('no raster attributes');
  const width = Number(raster[3]);
  const height = Number(raster[4]);
  const pixels = new Int16Array(width * height).fill(-1);
  const palette = new Map<number, string>();
  let colour = 0;
  let x = 0;
  let top = 0;
  let i = raster[0].length;
  const readNumber = (): number => {
    const digits = /^\d+/.exec(body.slice(i));
    if (!digits) throw new Error(`number expected at ${i}`);
    i += digits[0].length;
    return Number(digits[0]);
  };
  const paint = (char: string, count: number) => {
    const bits = char.charCodeAt(0) - 63;
    if (bits < 0 || bits > 63) throw new Error(`not a sixel character: ${JSON.stringify(char)}`);
    for (let n = 0; n < count; n++, x++) {
      for (let bit = 0; bit < 6; bit++) {
        if (!(bits & (1 << bit))) continue;
        const y = top + bit;
        if (x >= width || y >= height) throw new Error(`pixel ${x},${y} outside the ${width}×${height} raster`);
        pixels[y * width + x] = colour;
      }
    }
  };
  while (i < body.length) {
    const char = body[i]!;
    if (char === '#') {
      i++;
      colour = readNumber();
      if (body[i] === ';') {
        const definition = /^;(\d+);(\d+);(\d+);(\d+)/.exec(body.slice(i));
        if (!definition || definition[1] !== '2') throw new Error('only RGB colour definitions expected');
        palette.set(colour, definition.slice(2).join(';'));
        i += definition[0].length;
      }
    } else if (char === '!') {
      i++;
      const count = readNumber();
      paint(body[i]!, count);
      i++;
    } else if (char === '$') {
      x = 0;
      i++;
    } else if (char === '-') {
      x = 0;
      top += 6;
      i++;
    } else {
      paint(char, 1);
      i++;
    }
  }
  return { width, height, palette, pixels };
}

/** The decoded sixel image as rows of '#' (black) and '.' (white), failing on unpainted or other-coloured pixels. */
function sixelRows(image: SixelImage): string[] {
  const rows: string[] = [];
  for (let y = 0; y < image.height; y++) {
    let row = '';
    for (let x = 0; x < image.width; x++) {
      const rgb = image.palette.get(image.pixels[y * image.width + x]!);
      if (rgb === '0;0;0') row += '#';
      else if (rgb === '100;100;100') row += '.';
      else throw new Error(`pixel ${x},${y} is ${rgb ?? 'unpainted'}`);
    }
    rows.push(row);
  }
  return rows;
}

function expectedRows(width: number, height: number, isBlack: (x: number, y: number) => boolean): string[] {
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => (isBlack(x, y) ? '#' : '.')).join(''));
}

describe('detecting which image protocol the terminal speaks', () => {
  const cases: Array<[string, NodeJS.ProcessEnv, ImageProtocol | null]> = [
    ['kitty by TERM', { TERM: 'xterm-kitty' }, 'kitty'],
    ['kitty by window id', { TERM: 'xterm-256color', KITTY_WINDOW_ID: '3' }, 'kitty'],
    ['Ghostty speaks kitty graphics', { TERM: 'xterm-ghostty', TERM_PROGRAM: 'ghostty' }, 'kitty'],
    ['iTerm2', { TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app' }, 'iterm'],
    ['WezTerm', { TERM: 'xterm-256color', TERM_PROGRAM: 'WezTerm' }, 'iterm'],
    ['iTerm2 over ssh keeps LC_TERMINAL', { TERM: 'xterm-256color', LC_TERMINAL: 'iTerm2' }, 'iterm'],
    ['foot', { TERM: 'foot' }, 'sixel'],
    ['foot-extra', { TERM: 'foot-extra' }, 'sixel'],
    ['mlterm by TERM', { TERM: 'mlterm' }, 'sixel'],
    ['yaft', { TERM: 'yaft-256color' }, 'sixel'],
    ['contour by TERM_PROGRAM', { TERM: 'xterm-256color', TERM_PROGRAM: 'contour' }, 'sixel'],
    ['plain xterm is not guessed', { TERM: 'xterm-256color' }, null],
    ['Apple Terminal', { TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }, null],
    ['an empty environment', {}, null],
    ['kitty inside tmux', { TERM: 'tmux-256color', TMUX: '/tmp/tmux-1000/default,1,0', KITTY_WINDOW_ID: '1' }, null],
    ['tmux with TERM left as xterm-kitty', { TERM: 'xterm-kitty', TMUX: '/tmp/tmux-1000/default,1,0' }, null],
    ['iTerm2 inside tmux with TERM=screen', { TERM: 'screen-256color', TERM_PROGRAM: 'iTerm.app' }, null],
    ['foot inside GNU screen', { TERM: 'screen.foot', LC_TERMINAL: 'iTerm2' }, null],
    ['forced kitty in plain xterm', { TERM: 'xterm-256color', PACKDESK_IMAGE_PROTOCOL: 'kitty' }, 'kitty'],
    ['forced sixel inside tmux', { TERM: 'tmux-256color', TMUX: '/tmp/t,1,0', PACKDESK_IMAGE_PROTOCOL: 'sixel' }, 'sixel'],
    ['forced iterm wins over kitty', { TERM: 'xterm-kitty', PACKDESK_IMAGE_PROTOCOL: 'iterm' }, 'iterm'],
    ['none turns kitty off', { TERM: 'xterm-kitty', PACKDESK_IMAGE_PROTOCOL: 'none' }, null],
    ['an invalid override falls back to detection', { TERM: 'foot', PACKDESK_IMAGE_PROTOCOL: 'sixels' }, 'sixel'],
    ['an invalid override does not invent a protocol', { TERM: 'xterm-256color', PACKDESK_IMAGE_PROTOCOL: 'png' }, null],
  ];
  it.each(cases)('%s', (_, env, expected) => {
    expect(detectImageProtocol(env, true)).toBe(expected);
  });

  it('never draws into a pipe or file, not even when forced', () => {
    expect(detectImageProtocol({ TERM: 'xterm-kitty' }, false)).toBeNull();
    expect(detectImageProtocol({ TERM: 'xterm-256color', PACKDESK_IMAGE_PROTOCOL: 'kitty' }, false)).toBeNull();
  });
});

describe('kitty graphics', () => {
  it('sends a large label PNG in 4096-byte chunks that reassemble to the exact file', () => {
    const png = noisyPng(80, 80);
    expect(png.toString('base64').length).toBeGreaterThan(3 * 4096);
    const output = encodeTerminalImage(png, 'kitty');

    const chunks = [...output.matchAll(/\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\/g)].map((m) => ({ keys: m[1]!.split(','), payload: m[2]! }));
    expect(chunks.map((c) => `\x1b_G${c.keys.join(',')};${c.payload}\x1b\\`).join('') + '\n').toBe(output);
    expect(chunks.length).toBe(Math.ceil(png.toString('base64').length / 4096));
    expect(Buffer.from(chunks.map((c) => c.payload).join(''), 'base64').equals(png)).toBe(true);

    const [first, ...rest] = chunks;
    expect(first!.keys.slice(0, 2)).toEqual(['a=T', 'f=100']);
    expect(first!.keys).toContain('m=1');
    for (const [n, chunk] of chunks.entries()) {
      expect(chunk.payload.length).toBeLessThanOrEqual(4096);
      if (n < chunks.length - 1) expect(chunk.payload.length % 4).toBe(0);
    }
    for (const chunk of rest) {
      expect(chunk.keys.every((key) => /^[mq]=/.test(key))).toBe(true);
    }
    expect(rest.slice(0, -1).every((c) => c.keys.includes('m=1'))).toBe(true);
    expect(rest.at(-1)!.keys).toContain('m=0');
  });

  it('sends a small PNG as one final chunk', () => {
    const png = buildPng(2, 2, () => [0, 0, 0, 255]);
    const output = encodeTerminalImage(png, 'kitty');
    expect(output).toMatch(/^\x1b_Ga=T,f=100,[^;]*m=0[^;]*;[A-Za-z0-9+/=]+\x1b\\\n$/);
    expect(Buffer.from(output.slice(output.indexOf(';') + 1, output.indexOf('\x1b\\')), 'base64').equals(png)).toBe(true);
  });
});

describe('iTerm2 inline images', () => {
  it('carries the PNG whole with its byte size', () => {
    const png = noisyPng(40, 40);
    const output = encodeTerminalImage(png, 'iterm');
    const match = /^\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]+)\x07\n$/.exec(output);
    expect(match).not.toBeNull();
    const args = new Map(match![1]!.split(';').map((pair) => pair.split('=') as [string, string]));
    expect(args.get('inline')).toBe('1');
    expect(args.get('size')).toBe(String(png.length));
    expect(args.get('preserveAspectRatio')).toBe('1');
    expect(Buffer.from(match![2]!, 'base64').equals(png)).toBe(true);
  });
});

describe('sixel', () => {
  it('draws a label pattern pixel for pixel, across band edges, in black and white', () => {
    // 3-px checkerboard, a 1-px rule on row 7 (inside the second band), 17 rows (last band partial).
    const width = 23;
    const height = 17;
    const isBlack = (x: number, y: number) => y === 7 || (Math.floor(x / 3) + Math.floor(y / 3)) % 2 === 0;
    const png = buildPng(width, height, (x, y) => {
      if (isBlack(x, y)) return x % 2 ? [0, 0, 0, 255] : [100, 20, 0, 255]; // dark red is still ink
      if (x === 0) return [0, 0, 0, 0]; // transparent is paper, even when its colour is black
      return y % 2 ? [255, 255, 255, 255] : [255, 230, 0, 255]; // yellow is paper
    });

    const output = encodeTerminalImage(png, 'sixel');
    expect(output.startsWith('\x1bPq"1;1;23;17#0;2;100;100;100#1;2;0;0;0')).toBe(true);
    const image = decodeSixel(output);
    expect([image.width, image.height]).toEqual([width, height]);
    expect(sixelRows(image)).toEqual(expectedRows(width, height, isBlack));
  });

  it('compresses runs, so a blank label costs a few bytes per band', () => {
    const png = buildPng(812, 12, (x, y) => (y === 0 && x >= 100 && x < 700 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const output = encodeTerminalImage(png, 'sixel', { maxWidthPx: 812 });
    expect(output).toContain('!600@');
    expect(output.length).toBeLessThan(120);
    expect(sixelRows(decodeSixel(output))).toEqual(expectedRows(812, 12, (x, y) => y === 0 && x >= 100 && x < 700));
  });

  it('shrinks a wide label by area-averaging, not by picking one pixel of each block', () => {
    // Each 2×2 block is mostly ink in dark stripes and mostly paper in light ones; its top-left pixel says the opposite.
    const dark = (x: number) => Math.floor(x / 100) % 2 === 0;
    const png = buildPng(1600, 24, (x, y) => {
      const topLeft = x % 2 === 0 && y % 2 === 0;
      return dark(x) !== topLeft ? [0, 0, 0, 255] : [255, 255, 255, 255];
    });
    const image = decodeSixel(encodeTerminalImage(png, 'sixel'));
    expect([image.width, image.height]).toEqual([800, 12]);
    expect(sixelRows(image)).toEqual(expectedRows(800, 12, (x) => dark(x * 2)));
  });

  it('keeps a label within maxWidthPx when the width is no multiple of it', () => {
    const png = buildPng(1000, 30, (x) => (Math.floor(x / 30) % 2 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const image = decodeSixel(encodeTerminalImage(png, 'sixel', { maxWidthPx: 400 }));
    expect(image.width).toBeLessThanOrEqual(400);
    expect([image.width, image.height]).toEqual([334, 10]);
    expect(sixelRows(image)).toEqual(expectedRows(334, 10, (x) => Math.floor(x / 10) % 2 === 1));
  });

  it('draws an 812×1218 thermal label at half size by default', () => {
    const png = buildPng(812, 1218, (x, y) => (x < 406 && y < 609 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const image = decodeSixel(encodeTerminalImage(png, 'sixel'));
    expect([image.width, image.height]).toEqual([406, 609]);
    expect(sixelRows(image)).toEqual(expectedRows(406, 609, (x, y) => x < 203 && y < 305));
  });
});
