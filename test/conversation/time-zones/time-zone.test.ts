import { describe, expect, it } from 'vitest';
import { isValidTimeZone, timeZoneOf } from '../../../shared/conversation/time-zones';

describe('timeZoneOf', () => {
  it.each([
    'America/New_York',
    'america/new_york',
    'UTC',
    'Etc/GMT+5',
    'EST5EDT',
    '+01:00',
    'Australia/Lord_Howe',
  ])('knows %s', (name) => {
    // Act
    const zone = timeZoneOf(name);

    // Assess
    expect(zone?.name).toBe(name);
    expect(isValidTimeZone(name)).toBe(true);
  });

  it.each(['', 'Fantasia/Castle', 'Sport~~blorp', 'UTC+3', 'local', 'America/New York'])(
    'refuses %j',
    (name) => {
      // Act
      const zone = timeZoneOf(name);

      // Assess
      expect(zone).toBeNull();
      expect(isValidTimeZone(name)).toBe(false);
    },
  );

  it('builds one formatter per zone and hands the same one back', () => {
    // Act
    const first = timeZoneOf('Europe/Berlin');
    const second = timeZoneOf('Europe/Berlin');

    // Assess
    expect(second).toBe(first);
    expect(first?.clockFormatter.resolvedOptions()).toMatchObject({
      locale: 'en-US',
      hourCycle: 'h23',
      timeZone: 'Europe/Berlin',
    });
  });

  it('still serves names once its cache is full, without keeping them', () => {
    // Prepare: more distinct spellings than the cache keeps (Intl takes any letter case).
    const letters = [...'americaargentinabuenosaires'];
    const spelling = (index: number): string =>
      letters.map((letter, at) => ((index >> at) & 1 ? letter.toUpperCase() : letter)).join('');
    const spellings = Array.from({ length: 1100 }, (_, index) => {
      const name = spelling(index);
      return `${name.slice(0, 7)}/${name.slice(7, 16)}/${name.slice(16, 22)}_${name.slice(22)}`;
    });

    // Act
    const zones = spellings.map((name) => timeZoneOf(name));

    // Assess: all valid; the last spelling is built anew each time (not cached).
    expect(zones.every((zone) => zone !== null)).toBe(true);
    const last = spellings[spellings.length - 1] ?? '';
    expect(timeZoneOf(last)).not.toBe(timeZoneOf(last));
  });
});
