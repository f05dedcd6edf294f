import { describe, expect, it } from 'vitest';
import {
  ANY_TIME_GREETINGS,
  PART_OF_DAY_GREETINGS,
  partOfDay,
  wakeGreeting,
  wakeGreetingsAt,
} from '../../../shared/conversation/acknowledgement/wake-greeting';

const RANDOM_VALUES = Array.from({ length: 20 }, (_, index) => index / 20);

describe('partOfDay', () => {
  it.each([
    [0, 'night'],
    [4, 'night'],
    [5, 'morning'],
    [11, 'morning'],
    [12, 'afternoon'],
    [16, 'afternoon'],
    [17, 'evening'],
    [21, 'evening'],
    [22, 'night'],
    [23, 'night'],
  ])('hour %i is %s', (hour, part) => {
    expect(partOfDay(hour)).toBe(part);
  });
});

describe('wakeGreeting', () => {
  it('varies with the random number: every phrase of the hour comes up, and only those', () => {
    // Act
    const said = new Set(RANDOM_VALUES.map((random) => wakeGreeting(8, random)));

    // Assess
    expect([...said].sort()).toEqual(
      [...PART_OF_DAY_GREETINGS.morning, ...ANY_TIME_GREETINGS].sort(),
    );
  });

  it.each([
    [8, 'morning'],
    [14, 'afternoon'],
    [19, 'evening'],
    [2, 'night'],
  ] as const)('at %i never greets for another part of the day than %s', (hour, part) => {
    // Prepare
    const others = Object.entries(PART_OF_DAY_GREETINGS)
      .filter(([name]) => name !== part)
      .flatMap(([, phrases]) => phrases);

    // Act
    const said = RANDOM_VALUES.map((random) => wakeGreeting(hour, random));

    // Assess
    expect(said.filter((text) => others.includes(text))).toEqual([]);
    expect(said.some((text) => PART_OF_DAY_GREETINGS[part].includes(text))).toBe(true);
  });

  it('greets for no part of the day when the hour is unknown or impossible', () => {
    for (const hour of [null, -1, 24, 7.5, Number.NaN]) {
      expect(wakeGreetingsAt(hour)).toEqual(ANY_TIME_GREETINGS);
    }
  });

  it('still answers a short phrase for a random number outside [0, 1)', () => {
    for (const random of [1, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const text = wakeGreeting(8, random);
      expect(wakeGreetingsAt(8)).toContain(text);
    }
  });

  it('keeps every phrase short enough to say at once', () => {
    const all = [...ANY_TIME_GREETINGS, ...Object.values(PART_OF_DAY_GREETINGS).flat()];
    for (const text of all) expect(text.length).toBeLessThanOrEqual(40);
  });
});
