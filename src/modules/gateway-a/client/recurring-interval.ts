/** A form frequency (`m_3`) as the gateway's recurring interval; null for `one-time`. */
export interface RecurringInterval {
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
}

const UNITS = { d: 'day', w: 'week', m: 'month', y: 'year' } as const;

export function recurringInterval(frequency: string): RecurringInterval | null {
  const match = /^([dwmy])_(\d+)$/.exec(frequency);
  if (!match) return null;
  return { interval: UNITS[match[1] as keyof typeof UNITS], interval_count: Number(match[2]) };
}

export function isRecurring(frequency: string): boolean {
  return recurringInterval(frequency) !== null;
}
