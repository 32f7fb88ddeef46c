import { formatMoney, toDecimalString, toMinorUnits } from '../../src/common/money/index';

/**
 * Money and times as the console shows them. Money uses the service's own currency rules
 * (`src/common/money`, shared, not copied), so an amount reads exactly as the API means it.
 */
export function money(minor: number, currency: string): string {
  try {
    return formatMoney(minor, currency);
  } catch {
    return `${minor} ${currency} (minor units)`;
  }
}

/** Minor units → the decimal text an amount input shows (1999 USD → "19.99"). */
export function toAmountInput(minor: number, currency: string): string {
  try {
    return toDecimalString(minor, currency);
  } catch {
    return String(minor);
  }
}

/** The decimal text of an amount input → minor units, or the reason it is not an amount in that currency. */
export function fromAmountInput(text: string, currency: string): { minor: number } | { error: string } {
  try {
    return { minor: toMinorUnits(text.trim(), currency) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'not an amount' };
  }
}

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** An ISO 8601 time of the API as a short UTC date and time ("26 Nov 2026, 15:48 UTC"). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${dateTime.format(date)} UTC`;
}

/** `gateway_a` → "Gateway A"; method ids as the API names them, made readable. */
export function label(id: string): string {
  return id.replace(/[_-]+/g, ' ').replace(/^\w/, (first) => first.toUpperCase());
}

const localDateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** An ISO 8601 time of the API in the viewer's own time zone, named ("28 Nov 2026, 12:48:03 CET"). */
export function localWhen(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : localDateTime.format(date);
}

/** The viewer's time zone as the browser names it ("Europe/Paris"), for a field that takes a local time. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
}
