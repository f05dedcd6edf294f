import { describe, expect, it } from 'vitest';
import { isDaylightSavingTime } from '../../../shared/conversation/time-zones';
import { zoneNamed } from './zone-named';

describe('isDaylightSavingTime', () => {
  it.each([
    ['America/New_York', '2026-01-16T12:00:00Z', false],
    ['America/New_York', '2026-07-16T12:00:00Z', true],
    // Southern hemisphere: January is the summer.
    ['Australia/Sydney', '2026-01-16T12:00:00Z', true],
    ['Australia/Sydney', '2026-07-16T12:00:00Z', false],
    // Half an hour of DST.
    ['Australia/Lord_Howe', '2026-01-16T12:00:00Z', true],
    ['Australia/Lord_Howe', '2026-07-16T12:00:00Z', false],
    ['Pacific/Chatham', '2026-01-16T12:00:00Z', true],
    ['America/St_Johns', '2026-07-16T12:00:00Z', true],
    // IANA calls Irish winter time the negative DST; Intl and people call summer time DST.
    ['Europe/Dublin', '2026-01-16T12:00:00Z', false],
    ['Europe/Dublin', '2026-07-16T12:00:00Z', true],
    // Casablanca keeps +01:00 all year and drops an hour for Ramadan: never DST.
    ['Africa/Casablanca', '2026-02-25T12:00:00Z', false],
    ['Africa/Casablanca', '2026-07-16T12:00:00Z', false],
    // No DST at all.
    ['Asia/Kolkata', '2026-07-16T12:00:00Z', false],
    ['UTC', '2026-07-16T12:00:00Z', false],
    // Either side of New York's spring-forward.
    ['America/New_York', '2026-03-08T06:59:59Z', false],
    ['America/New_York', '2026-03-08T07:00:00Z', true],
  ])('in %s at %s is %s', (name, isoInstant, expected) => {
    // Act
    const inDst = isDaylightSavingTime(zoneNamed(name), Date.parse(isoInstant));

    // Assess
    expect(inDst).toBe(expected);
  });

  it('is false when the clock cannot be read', () => {
    expect(isDaylightSavingTime(zoneNamed('America/New_York'), Number.NaN)).toBe(false);
  });
});
