import { describe, expect, it } from 'vitest';
import { shortZoneName } from '../../../shared/conversation/time-zones';
import { zoneNamed } from './zone-named';

describe('shortZoneName', () => {
  it.each([
    ['America/New_York', '2026-01-16T12:00:00Z', 'EST'],
    ['America/New_York', '2026-07-16T12:00:00Z', 'EDT'],
    ['America/Los_Angeles', '2026-07-16T12:00:00Z', 'PDT'],
    ['UTC', '2026-07-16T12:00:00Z', 'UTC'],
    // Where en-US has no abbreviation, the offset.
    ['Europe/Berlin', '2026-01-16T12:00:00Z', 'GMT+1'],
    ['Europe/Dublin', '2026-01-16T12:00:00Z', 'GMT'],
    ['Asia/Kolkata', '2026-01-16T12:00:00Z', 'GMT+5:30'],
    ['America/St_Johns', '2026-07-16T12:00:00Z', 'GMT-2:30'],
    ['Pacific/Chatham', '2026-01-16T12:00:00Z', 'GMT+13:45'],
  ])('in %s at %s is %s', (name, isoInstant, expected) => {
    // Act
    const shortName = shortZoneName(zoneNamed(name), Date.parse(isoInstant));

    // Assess
    expect(shortName).toBe(expected);
  });

  it('is null for an instant a Date cannot hold', () => {
    expect(shortZoneName(zoneNamed('UTC'), Number.NaN)).toBeNull();
  });
});
