import { describe, expect, it } from 'vitest';
import { offsetMinutesAt, readClock } from '../../../shared/conversation/time-zones';
import { zoneNamed } from './zone-named';

const MAX_EPOCH_MS = 8.64e15;

describe('readClock', () => {
  it.each([
    ['America/New_York', '2026-01-16T15:30:00.250Z', [2026, 1, 16, 10, 30, 0, 250], -300],
    ['America/New_York', '2026-07-16T15:30:00Z', [2026, 7, 16, 11, 30, 0, 0], -240],
    ['Asia/Kolkata', '2026-01-16T18:30:00Z', [2026, 1, 17, 0, 0, 0, 0], 330],
    ['America/St_Johns', '2026-01-16T12:00:00Z', [2026, 1, 16, 8, 30, 0, 0], -210],
    ['Pacific/Chatham', '2026-01-16T12:00:00Z', [2026, 1, 17, 1, 45, 0, 0], 825],
    ['Australia/Lord_Howe', '2026-07-16T12:00:00Z', [2026, 7, 16, 22, 30, 0, 0], 630],
    ['Europe/Dublin', '2026-07-16T12:00:00Z', [2026, 7, 16, 13, 0, 0, 0], 60],
    // Midnight reads 00, not 24 (hourCycle h23).
    ['Europe/Berlin', '2026-01-15T23:00:00Z', [2026, 1, 16, 0, 0, 0, 0], 60],
    // Local mean time: New York was 4:56:02 behind Greenwich until 1883.
    [
      'America/New_York',
      '1850-01-01T12:00:00Z',
      [1850, 1, 1, 7, 3, 58, 0],
      -(4 * 60 + 56 + 2 / 60),
    ],
    // Years before 1: Intl says 1 BC, ISO 8601 says 0000.
    ['UTC', '0000-06-01T12:00:00Z', [0, 6, 1, 12, 0, 0, 0], 0],
    ['UTC', '-000044-03-15T12:00:00Z', [-44, 3, 15, 12, 0, 0, 0], 0],
  ])('in %s, %s reads %j at offset %d', (name, isoInstant, fields, offsetMinutes) => {
    // Act
    const reading = readClock(zoneNamed(name), Date.parse(isoInstant));

    // Assess
    const [year, month, day, hour, minute, second, millisecond] = fields;
    expect(reading).toEqual({ year, month, day, hour, minute, second, millisecond, offsetMinutes });
  });

  it('reads the first and last instants a Date can hold', () => {
    // Act
    const first = readClock(zoneNamed('UTC'), -MAX_EPOCH_MS);
    const last = readClock(zoneNamed('UTC'), MAX_EPOCH_MS);

    // Assess
    expect(first).toMatchObject({ year: -271821, month: 4, day: 20, offsetMinutes: 0 });
    expect(last).toMatchObject({ year: 275760, month: 9, day: 13, offsetMinutes: 0 });
  });

  it.each([
    ['NaN', 'UTC', Number.NaN],
    ['infinity', 'UTC', Number.POSITIVE_INFINITY],
    ['past the last Date', 'UTC', MAX_EPOCH_MS + 1],
    // The instant exists, but its local reading is past the last Date.
    ['a reading past the last Date', 'Pacific/Kiritimati', MAX_EPOCH_MS],
  ])('is null for %s', (_, name, instant) => {
    // Act
    const reading = readClock(zoneNamed(name), instant);

    // Assess
    expect(reading).toBeNull();
    expect(offsetMinutesAt(zoneNamed(name), instant)).toBeNaN();
  });
});

describe('offsetMinutesAt', () => {
  it.each([
    // Either side of New York's spring-forward, 2026-03-08 07:00Z.
    ['America/New_York', '2026-03-08T06:59:59.999Z', -300],
    ['America/New_York', '2026-03-08T07:00:00Z', -240],
    // Lord Howe moves by half an hour, 2026-10-04 02:00 local (15:30Z the day before).
    ['Australia/Lord_Howe', '2026-10-03T15:29:59Z', 630],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00Z', 660],
    // Casablanca drops an hour for Ramadan: 2026-02-15 03:00 local (02:00Z).
    ['Africa/Casablanca', '2026-02-15T01:59:59Z', 60],
    ['Africa/Casablanca', '2026-02-15T02:00:00Z', 0],
  ])('in %s at %s is %d', (name, isoInstant, expected) => {
    // Act
    const offset = offsetMinutesAt(zoneNamed(name), Date.parse(isoInstant));

    // Assess
    expect(offset).toBe(expected);
  });
});
