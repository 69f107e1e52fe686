/**
 * Carrier times written as wall-clock text without a zone (`2020-06-09 17:21:55`, `2019-05-04T13:33:18.382`), read
 * and written in the carrier's own time zone (e.g. Europe/Warsaw for Polish services), summer time included.
 */
export interface LocalTime {
  /** `YYYY-MM-DD[ T]hh:mm:ss[.fff]` in the zone → Unix ms, or undefined when the text is not such a time. */
  parse(text: string): number | undefined;
  /** Unix ms → `YYYY-MM-DDThh:mm:ss` in the zone (`separator` between date and time, `T` unless given). */
  format(ms: number, separator?: string): string;
}

export function localTime(timeZone: string): LocalTime {
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  const parts = (ms: number): Record<string, number> =>
    Object.fromEntries(clock.formatToParts(ms).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
  /** How far the zone's clock is ahead of UTC at this instant. */
  const offsetMs = (ms: number): number => {
    const p = parts(ms);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
  };
  return {
    parse(text) {
      const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(text.trim());
      if (!m) return undefined;
      const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
      const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
      return asUtc - offsetMs(asUtc - offsetMs(asUtc)) + (m[7] ? Number(m[7].padEnd(3, '0')) : 0);
    },
    format(ms, separator = 'T') {
      const p = parts(ms);
      const two = (n: number | undefined) => String(n).padStart(2, '0');
      return `${p.year}-${two(p.month)}-${two(p.day)}${separator}${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
    },
  };
}

/** Polish carriers' services (SP Express, DPD Poland, DHL Parcel Poland, GLS Poland) speak Warsaw time. */
export const warsawTime = localTime('Europe/Warsaw');

/** Poste Italiane writes Italian time (mlocati/MLPosteDeliveryExpress `DateTimeYMDhms.cs` reads it as Europe/Rome). */
export const romeTime = localTime('Europe/Rome');
