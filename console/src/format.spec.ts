import { label, money, utcDay, utcWhen, when } from './format';

describe('console times', () => {
  const instant = '2026-11-28T14:48:03.512Z';

  it('shows a time in the viewer’s zone, named', () => {
    expect(when(instant, { timeZone: 'Europe/Paris' })).toBe('28 Nov 2026, 15:48 CET');
    expect(when(instant, { timeZone: 'America/New_York' })).toBe('28 Nov 2026, 09:48 GMT-5');
    expect(when(instant, { timeZone: 'Europe/Paris', seconds: true })).toBe('28 Nov 2026, 15:48:03 CET');
  });

  it('crosses the day where the viewer’s zone does', () => {
    expect(when('2026-11-28T23:30:00Z', { timeZone: 'Asia/Tokyo' })).toBe('29 Nov 2026, 08:30 GMT+9');
  });

  it('gives the UTC time with seconds for the hover title, and the UTC day', () => {
    expect(utcWhen(instant)).toBe('28 Nov 2026, 14:48:03 UTC');
    expect(utcDay('2026-11-28T23:59:59Z')).toBe('28 Nov 2026');
  });

  it('says none with a dash and shows what is not a time as it is', () => {
    expect(when(null)).toBe('—');
    expect(when(undefined)).toBe('—');
    expect(when('yesterday')).toBe('yesterday');
    expect(utcWhen('yesterday')).toBe('yesterday');
  });

  it('writes times and money the German way for the German console', () => {
    expect(when(instant, { timeZone: 'Europe/Berlin', locale: 'de' })).toBe('28. Nov. 2026, 15:48 MEZ');
    expect(utcWhen(instant, 'de')).toBe('28. Nov. 2026, 14:48:03 UTC');
    expect(utcDay('2026-11-28T23:59:59Z', 'de')).toBe('28. Nov. 2026');
    expect(money(123450, 'EUR', 'de').replace(/\u00a0/g, ' ')).toBe('1.234,50 €');
    expect(money(123450, 'EUR', 'en')).toBe('€1,234.50');
    expect(money(500, 'JPY', 'de').replace(/\u00a0/g, ' ')).toBe('500 ¥');
  });

  it('makes an API word readable', () => {
    expect(label('requested_by_customer')).toBe('Requested by customer');
  });
});
