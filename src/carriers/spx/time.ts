/**
 * SP Express writes times as `2020-06-09 17:21:55` without a zone (sp-express/php-sdk tracking answers); being a
 * Polish service, it is read as Warsaw time.
 */

const WARSAW = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Warsaw', hourCycle: 'h23',
  year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
});

function warsawParts(ms: number): Record<string, number> {
  return Object.fromEntries(WARSAW.formatToParts(ms).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

/** How far Warsaw's clock is ahead of UTC at this instant (1 h in winter, 2 h in summer). */
function warsawOffsetMs(ms: number): number {
  const p = warsawParts(ms);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
}

/** `2020-06-09 17:21:55` (Warsaw) → Unix ms, or undefined when the text is not such a time. */
export function parseWarsawTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const guess = asUtc - warsawOffsetMs(asUtc);
  return asUtc - warsawOffsetMs(guess);
}

/** Unix ms → `2020-06-09 17:21:55` in Warsaw time. */
export function formatWarsawTime(ms: number): string {
  const p = warsawParts(ms);
  const two = (n: number | undefined) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}
