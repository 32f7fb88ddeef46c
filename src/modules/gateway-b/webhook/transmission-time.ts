/** RFC 3339 date-time as PayPal's `transmission_time` allows it (seconds, optional fraction, Z or an offset). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * The instant of a `PAYPAL-TRANSMISSION-TIME` in milliseconds, or null when it is not a real
 * date-time (a format error, or a calendar error such as February 30th, which `Date.parse` would
 * quietly move into March). A leap second (`:60`) is refused: it cannot be told from an error here,
 * and PayPal delivers again.
 */
export function parseTransmissionTime(value: string): number | null {
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3) || 0);
  const [sign, offsetHours, offsetMinutes] = [match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const date = new Date(local);
  if (month < 1 || month > 12 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '-' ? -1 : 1);
  return local - offsetMs;
}

/**
 * How far (milliseconds, positive either way) the transmission time lies from `nowMs`, or null
 * when it cannot be read.
 */
export function transmissionDistanceMs(value: string, nowMs: number): number | null {
  const sentAt = parseTransmissionTime(value);
  return sentAt === null ? null : Math.abs(nowMs - sentAt);
}
