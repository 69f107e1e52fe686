import fc from 'fast-check';

/** JSON text put into a body as it is: nesting too deep to build as a value, numbers no double can hold. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold RawJson fragments; lone surrogates come out escaped (`\ud800`). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${Array.from(value, (item) => (item === undefined ? 'null' : toJsonText(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Percent-encodes every UTF-8 byte but the unreserved characters; a lone surrogate goes as U+FFFD like any client sends it. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const nested = (open: string, close: string, depth: number, inner = '1') => new RawJson(open.repeat(depth) + inner + close.repeat(depth));

export const HOSTILE_URLS = [
  'https://[::ffff:169.254.169.254]/', 'http://169.254.169.254/latest/meta-data/', 'http://2852039166/', 'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/', 'http://169.254.169.254.nip.io/', 'tcp://0xa9fea9fe:9100', 'tcp://169.254.169.254:9100',
  'ipp://[fe80::1]/', 'ipp://[fe80::1%25eth0]:631/printers/x', 'http://[::ffff:a9fe:a9fe]/', 'http://metadata.google.internal/',
  'http://[fd00:ec2::254]/', 'file:///proc/self/x', 'file:///etc/', 'file:///dev/null', 'file:///', 'file://host/share',
  'javascript:alert(1)', 'data:text/plain,x', 'gopher://127.0.0.1:25/', 'http://user:pass@127.0.0.1:0/', 'http://',
  'https://例え.テスト/', `https://e.com/${'a'.repeat(3000)}`,
  // file URIs whose path Node cannot decode, or that name a place by a detour
  'file:///tmp/a%2fb', 'file:///tmp/a%2Fb', 'file:///tmp/%', 'file:///tmp/%zz', 'file:///tmp/%ff', 'file:///tmp/a%00b', 'file:///tmp/%0a',
  'file:///tmp/%2e%2e/etc', 'file:///tmp/x?dir=/etc', 'file:///tmp/x#/etc', 'file:/etc', 'file://localhost/etc', 'FILE:///ETC', 'file:////etc',
  'file://127.0.0.1/tmp', 'file:///proc/self/fd/1', 'file:///dev/shm', 'file:///tmp/%E2%80%AE', 'file:///tmp/%ED%A0%80',
];

/** Places a folder or file must never be: pseudo file systems (which never end), system places, other spellings. */
export const HOSTILE_PATHS = [
  '/proc/self', '/proc/self/fd', '/proc/self/root', '/proc/self/cwd', '/proc/1', '/proc', '/sys/kernel', '/sys', '/dev', '/dev/zero',
  '/dev/shm', '/etc', '/', '.', '..', '~', '~root', '../../etc/passwd', '/tmp/../etc', '\\\\server\\share', 'C:\\Windows',
  '/nonexistent/folder', `/${'d/'.repeat(1000)}`,
];

const TRAVERSALS = ['../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..\\..\\windows\\win.ini', '....//....//etc'];

/** Strings a careless or hostile client sends where text is expected. */
export const HOSTILE_STRINGS = [
  '', ' ', '   ', 'a'.repeat(100_000), 'x'.repeat(256), 'ş'.repeat(4096), '\u202Eevil.csv', 'שלום עולם', 'مرحبا', '👩‍👩‍👧‍👦🚚📦',
  '\ud800', '\udfff', 'a\ud800b', '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\r\n', '\t', '\u2028\u2029', '\ufeff', '\uffff',
  ...TRAVERSALS, ...HOSTILE_URLS, ...HOSTILE_PATHS,
  "' OR 1=1 --", '%', '_', '%%', '\\', '"', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', 'null', 'true', 'undefined',
  '__proto__', 'constructor', 'NaN', 'Infinity', '-Infinity', '-0', '1e308', '9007199254740993', '12345678901234567890', '1.005',
  '2026-02-30T25:61:61Z', '0000-00-00', '+420', '@', 'a@b', 'pdk_live_' + 'A'.repeat(32),
];

/** Numbers at the edges of what a field, a double, SQLite or a money column can hold. */
export const BOUNDARY_NUMBERS: unknown[] = [
  0, -0, -1, 1, 0.001, 1.005, 0.1, 99.999, 1e308, -1e308, 1e-308, 5e-324, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 63, -(2 ** 63),
  new RawJson('9007199254740993'), new RawJson('12345678901234567890'), new RawJson('1e400'), new RawJson('-0.0'),
  new RawJson('1E+2'), new RawJson('0.' + '1'.repeat(400)),
];

/** Values of every other shape: the wrong type, empty, huge and deep. */
export const HOSTILE_SHAPES: unknown[] = [
  null, true, false, [], {}, [null], [[]], { '': null }, new RawJson('{"__proto__":{"admin":true}}'),
  new RawJson('{"constructor":{"prototype":{"admin":true}}}'), Array.from({ length: 10_000 }, (_, i) => i),
  Array.from({ length: 10_000 }, () => 'x'), Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
  nested('{"a":', '}', 20_000), nested('[', ']', 20_000), nested('{"a":', '}', 100), nested('[', ']', 64),
  new RawJson('{"a":1,"a":2}'),
];

/** The hostile values that matter most for a field of this name: places for paths, addresses for URLs. */
export function hostileFor(field: string): readonly string[] {
  if (/path|folder|dir/i.test(field)) return HOSTILE_PATHS;
  if (/url|uri/i.test(field)) return HOSTILE_URLS;
  return [];
}

/** A value of any hostile kind, for one field. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SHAPES) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Whole bodies as raw text: not an object, not JSON, cut short, deep, or with a BOM. */
export const HOSTILE_BODIES = [
  'null', '[]', '"x"', '123', 'true', '', ' ', '{', '{"a":', '}', '{"a":1}}', "{'a':1}", 'undefined', 'NaN', '\ufeff{}',
  '{"a":1,}', '[' + '1,'.repeat(10_000) + '1]', nested('{"a":', '}', 20_000).text, nested('[', ']', 20_000).text,
  `"${'a'.repeat(100_000)}"`, '{"\\ud800":"\\udfff"}', '\u0000', '{"a":"\u0000"}', '{"a":1e999}',
];

export const CONTENT_TYPES = [
  'text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/jsonx',
  'application/json, text/plain', '*/*', '', 'application/octet-stream',
];

/** A path parameter no resource has: junk of 10 to 1,000 characters, traversals, ids of the wrong shape. */
export function junkId(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ minLength: 10, maxLength: 1_000, unit: 'grapheme' }),
    fc.string({ minLength: 10, maxLength: 40, unit: 'grapheme-ascii' }),
    fc.constantFrom(...TRAVERSALS, ...HOSTILE_STRINGS.filter((s) => s.length > 0 && s.length < 5_000)),
    fc.constantFrom('sh_', 'ch_' + '0'.repeat(20), 'sh_' + 'A'.repeat(1_000), 'null', '0', '-1', '1e308', '%00', '%2F', '%ED%A0%80', '%FF'),
  );
}

/** File names a careless or hostile client uploads: at and past the 255-byte name limit, directories, NUL, odd dots. */
export const HOSTILE_FILE_NAMES = [
  '.', '..', '/', 'a/b.csv', '../orders.csv', '/etc/passwd', 'orders/..', 'a\\b.csv', 'a\u0000b.csv', 'a\nb.csv', '.orders.csv', 'orders.csv.',
  ' orders.csv', 'orders.csv ', 'CON', 'nul.csv', '%2e%2e%2fetc%2fpasswd', '\u202Evsc.exe', 'a'.repeat(251), `${'a'.repeat(247)}.csv`,
  `${'a'.repeat(255)}`, `${'ř'.repeat(124)}.csv`, `${'ř'.repeat(126)}.csv`, `${'ř'.repeat(200)}.csv`, `${'📦'.repeat(62)}.csv`,
];

/** Mapping presets and mappings named like what every object has: a lookup in a plain object finds them. */
export const HOSTILE_MAPPINGS: unknown[] = [
  'constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf', 'default\u0000', 'DEFAULT',
  'a'.repeat(1_000), { columns: { constructor: 'reference_number' } }, { columns: { toString: 'reference_number', hasOwnProperty: 'x' } },
  { columns: { ref: 'constructor' } }, { columns: { ref: '__proto__' } }, { columns: { ref: 'hasOwnProperty' } }, { columns: { ref: 'toString' } },
  { defaults: { constructor: 'x' } }, { defaults: { toString: 1, valueOf: {} } }, { constructor: { columns: {} } }, { columns: 'toString' },
  { columns: null }, { columns: [] }, { columns: { '': '' } }, { defaults: { reference_number: { __nested: [] } } },
  new RawJson('{"columns":{"__proto__":"reference_number"}}'), new RawJson('{"__proto__":{"columns":{"ref":"reference_number"}}}'),
  new RawJson('{"defaults":{"__proto__":{"polluted":true}}}'), new RawJson('{"columns":{"ref":"reference_number"},"columns":{"__proto__":1}}'),
];

const MiB = 1024 * 1024;

/** CSV contents of every odd shape, as bytes: built on first use and kept (a few MiB at most, so a run stays fast). */
let hostileCsvCache: Buffer[] | undefined;

export function hostileCsvContents(validRow: (reference: string) => string, header: string): Buffer[] {
  hostileCsvCache ??= [
    Buffer.from(`reference_number,${'x'.repeat(3 * MiB)}`), // one line, no end
    Buffer.from(`${header}\r\n"${'y'.repeat(MiB)}"\r\n`), // one cell of a MiB
    Buffer.from(`${Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(',')}\n${',v'.repeat(20_000)}\n`), // 20,000 columns
    Buffer.from(`reference_number\n${Array.from({ length: 50_000 }, (_, i) => `R${i}`).join('\n')}\n`), // 50,000 tiny rows
    Buffer.from('\n'.repeat(200_000)), Buffer.from(`reference_number\n${'"a\n'.repeat(50_000)}`), // blank lines; a quote never closed
    Buffer.from(`${header}\n${validRow('NUL\u0000IN-REF').replace('Jana', 'Ja\u0000na')}\n\u0000\u0000\u0000\n`),
    Buffer.concat([Buffer.from(`${header}\n`), Buffer.from([0xc3, 0x28, 0x2c, 0xff, 0xfe, 0xfd, 0x2c, 0xed, 0xa0, 0x80, 0x2c, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x0a])]),
    Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xfe, 0xff]), Buffer.from('\u0000'.repeat(MiB)),
    // formula prefixes a spreadsheet would run when the result file is opened
    Buffer.from([header, ...['=1+2', '+SUM(A1)', '-2+3', '@SUM(1)', '\t=1', '=cmd|\' /C calc\'!A0'].map(validRow)].join('\r\n')),
    Buffer.from([header.replace(/,/g, '\t'), validRow('TAB\tREF').replace(/,/g, '\t')].join('\n')),
    Buffer.from(`${header}\r${validRow('CR-ONLY')}\r`), Buffer.from(`${header};${'x;'.repeat(1_000)}\n`),
  ];
  return hostileCsvCache;
}

/** Text as the bytes of its UTF-8 form, one character per byte: how a header value carries it on the wire. */
export const utf8Bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/** Header values Node's HTTP client sends as they are; any other byte goes over a socket of its own. */
export const CLIENT_SENDABLE_HEADER = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The headers whose odd bytes a handler may trip over: compared, hashed, stored, or parsed as a host. */
export const ODD_HEADER_NAMES = ['x-csrf-token', 'idempotency-key', 'authorization', 'host', 'origin', 'cookie'] as const;
export type OddHeaderName = typeof ODD_HEADER_NAMES[number];

/** Header values as bytes (one character each): latin1 and UTF-8 bytes, control bytes, values up to past 16 KiB. */
export const HOSTILE_HEADER_VALUES = [
  '', ' ', '\xe9', '\xff\xfe', 'caf\xe9', utf8Bytes('Řepy—€'), utf8Bytes('👩‍👩‍👧‍👦'), '\x80'.repeat(64), '\x00', 'a\x00b', '\x01\x1f\x7f', 'a\rb', 'a\nb',
  'a\r\nX-Injected: 1', '\t', 'x'.repeat(8_000), '\xe9'.repeat(8_000), 'y'.repeat(17_000), 'null', '__proto__', '*', '%00', '%ff',
];
