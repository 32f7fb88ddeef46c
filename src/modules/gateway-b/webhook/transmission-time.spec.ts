import { parseTransmissionTime, transmissionDistanceMs } from './transmission-time.js';

describe('parseTransmissionTime', () => {
  it.each([
    ['2016-02-18T20:01:35Z', Date.UTC(2016, 1, 18, 20, 1, 35)],
    ['2016-02-18T20:01:35.5Z', Date.UTC(2016, 1, 18, 20, 1, 35, 500)],
    ['2016-02-18T20:01:35.123456789Z', Date.UTC(2016, 1, 18, 20, 1, 35, 123)],
    ['2016-02-18T22:01:35+02:00', Date.UTC(2016, 1, 18, 20, 1, 35)],
    ['2016-02-18T15:31:35-04:30', Date.UTC(2016, 1, 18, 20, 1, 35)],
    ['2016-02-29T00:00:00Z', Date.UTC(2016, 1, 29)],
    ['2026-12-31T23:59:59z', Date.UTC(2026, 11, 31, 23, 59, 59)],
  ])('reads %s', (value, expected) => {
    expect(parseTransmissionTime(value)).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '2016-02-18',
    '2016-02-18 20:01:35Z',
    '2016-02-18T20:01:35',
    '2016-02-30T20:01:35Z',
    '2015-02-29T20:01:35Z',
    '2016-13-18T20:01:35Z',
    '2016-00-18T20:01:35Z',
    '2016-02-00T20:01:35Z',
    '2016-02-18T24:00:00Z',
    '2016-02-18T20:60:35Z',
    '2016-02-18T20:01:60Z',
    '2016-02-18T20:01:35+24:00',
    '2016-02-18T20:01:35.1234567890Z',
    ' 2016-02-18T20:01:35Z',
  ])('refuses %p', (value) => {
    expect(parseTransmissionTime(value)).toBeNull();
  });
});

describe('transmissionDistanceMs', () => {
  const now = Date.UTC(2026, 10, 25, 10, 0, 0);
  it('measures both ways and refuses what it cannot read', () => {
    expect(transmissionDistanceMs('2026-11-25T09:55:00Z', now)).toBe(300_000);
    expect(transmissionDistanceMs('2026-11-25T10:05:01Z', now)).toBe(301_000);
    expect(transmissionDistanceMs('2026-11-31T10:00:00Z', now)).toBeNull();
  });
});
