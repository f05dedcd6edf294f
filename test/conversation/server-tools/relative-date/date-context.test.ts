import { describe, expect, it } from 'vitest';
import { buildDateContext } from '../../../../shared/conversation/server-tools/relative-date/date-context';
import { resolveRelativeDate } from '../../../../shared/conversation/server-tools/relative-date/resolve-relative-date';

const at = (iso: string): number => Date.parse(iso);

// Expected values computed independently (Python zoneinfo) for each zone and instant.
describe.each([
  {
    when: 'New York, the Sunday clocks spring forward',
    zone: 'America/New_York',
    now: '2026-03-08T16:00:00Z',
    today: ['2026-03-08', '2026-03-08T05:00:00Z'],
    tomorrow: ['2026-03-09', '2026-03-09T04:00:00Z'],
    yesterday: ['2026-03-07', '2026-03-07T05:00:00Z'],
    isDst: true,
    abbreviation: 'EDT',
    weekday: ['Sunday', 7],
  },
  {
    when: 'New York, the Sunday clocks fall back',
    zone: 'America/New_York',
    now: '2026-11-01T17:00:00Z',
    today: ['2026-11-01', '2026-11-01T04:00:00Z'],
    tomorrow: ['2026-11-02', '2026-11-02T05:00:00Z'],
    yesterday: ['2026-10-31', '2026-10-31T04:00:00Z'],
    isDst: false,
    abbreviation: 'EST',
    weekday: ['Sunday', 7],
  },
  {
    when: 'New York, the last second of the year (already January 1 in UTC)',
    zone: 'America/New_York',
    now: '2027-01-01T04:59:59Z',
    today: ['2026-12-31', '2026-12-31T05:00:00Z'],
    tomorrow: ['2027-01-01', '2027-01-01T05:00:00Z'],
    yesterday: ['2026-12-30', '2026-12-30T05:00:00Z'],
    isDst: false,
    abbreviation: 'EST',
    weekday: ['Thursday', 4],
  },
  {
    when: 'Berlin, the Sunday clocks spring forward',
    zone: 'Europe/Berlin',
    now: '2026-03-29T10:00:00Z',
    today: ['2026-03-29', '2026-03-28T23:00:00Z'],
    tomorrow: ['2026-03-30', '2026-03-29T22:00:00Z'],
    yesterday: ['2026-03-28', '2026-03-27T23:00:00Z'],
    isDst: true,
    abbreviation: 'GMT+2',
    weekday: ['Sunday', 7],
  },
  {
    when: 'Berlin, the Sunday clocks fall back',
    zone: 'Europe/Berlin',
    now: '2026-10-25T11:00:00Z',
    today: ['2026-10-25', '2026-10-24T22:00:00Z'],
    tomorrow: ['2026-10-26', '2026-10-25T23:00:00Z'],
    yesterday: ['2026-10-24', '2026-10-23T22:00:00Z'],
    isDst: false,
    abbreviation: 'GMT+1',
    weekday: ['Sunday', 7],
  },
  {
    when: 'Lord Howe, the half-hour change back to standard time',
    zone: 'Australia/Lord_Howe',
    now: '2026-04-05T01:30:00Z',
    today: ['2026-04-05', '2026-04-04T13:00:00Z'],
    tomorrow: ['2026-04-06', '2026-04-05T13:30:00Z'],
    yesterday: ['2026-04-04', '2026-04-03T13:00:00Z'],
    isDst: false,
    abbreviation: 'GMT+10:30',
    weekday: ['Sunday', 7],
  },
  {
    when: 'Lord Howe, the half-hour change to summer time',
    zone: 'Australia/Lord_Howe',
    now: '2026-10-04T01:00:00Z',
    today: ['2026-10-04', '2026-10-03T13:30:00Z'],
    tomorrow: ['2026-10-05', '2026-10-04T13:00:00Z'],
    yesterday: ['2026-10-03', '2026-10-02T13:30:00Z'],
    isDst: true,
    abbreviation: 'GMT+11',
    weekday: ['Sunday', 7],
  },
  {
    when: 'Kolkata, half an hour before the new year',
    zone: 'Asia/Kolkata',
    now: '2026-12-31T18:00:00Z',
    today: ['2026-12-31', '2026-12-30T18:30:00Z'],
    tomorrow: ['2027-01-01', '2026-12-31T18:30:00Z'],
    yesterday: ['2026-12-30', '2026-12-29T18:30:00Z'],
    isDst: false,
    abbreviation: 'GMT+5:30',
    weekday: ['Thursday', 4],
  },
])('the date context in $when', (row) => {
  const context = buildDateContext(row.zone, at(row.now));
  const info = ([date, utc]: string[]) => ({ date, utc_start_of_day: utc });

  it('names today, tomorrow and yesterday as local days starting at local midnight in UTC', () => {
    expect(context?.current).toMatchObject({
      ...info(row.today),
      weekday: row.weekday[0],
      weekday_number: row.weekday[1],
    });
    expect(context?.current.datetime).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/,
    );
    expect(Date.parse(context?.current.datetime ?? '')).toBe(at(row.now));
    expect(context?.relative_dates.tomorrow).toEqual(info(row.tomorrow));
    expect(context?.relative_dates.yesterday).toEqual(info(row.yesterday));
  });

  it('says whether DST is in force and names the zone', () => {
    expect(context?.timezone).toEqual({
      user_timezone: row.zone,
      current_timezone: row.abbreviation,
      is_dst: row.isDst,
    });
  });

  it('agrees with resolve_relative_date on every day term it shares with it', () => {
    const terms = {
      tomorrow: context?.relative_dates.tomorrow,
      day_after_tomorrow: context?.relative_dates.day_after_tomorrow,
      next_friday: context?.weekdays.next_friday,
      last_monday: context?.weekdays.last_monday,
    };
    for (const [term, expected] of Object.entries(terms)) {
      const resolved = resolveRelativeDate(term, { timezone: row.zone, now: at(row.now) });
      if (!resolved.resolved) throw new Error(`${term}: ${resolved.message}`);
      expect(resolved.values[0]?.slice(0, 10), term).toBe(expected?.date);
      expect(resolved.utcValues[0], term).toBe(expected?.utc_start_of_day);
    }
  });

  it('lists whole weeks, weekends, months and years of local days', () => {
    const year = Number(row.today[0]?.slice(0, 4));
    const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    expect(context?.weeks.this_week).toHaveLength(7);
    expect(context?.weeks.this_week.map((day) => day.day)[0]).toBe('Sunday');
    expect(context?.weeks.this_week.map((day) => day.date)).toContain(row.today[0]);
    expect(context?.weekend.next_weekend.map((day) => day.day)).toEqual(['Saturday', 'Sunday']);
    expect(context?.months.this_month.map((day) => day.date)).toContain(row.today[0]);
    expect(context?.months.this_month[0]?.date).toBe(`${row.today[0]?.slice(0, 7)}-01`);
    expect(context?.years.this_year).toHaveLength(leap(year) ? 366 : 365);
    expect(context?.years.next_year[0]?.date).toBe(`${year + 1}-01-01`);
    expect(context?.years.last_year.at(-1)?.date).toBe(`${year - 1}-12-31`);
  });
});

describe('the date context of a zone that does not exist', () => {
  it('is null, not a guess', () => {
    expect(buildDateContext('Mars/Olympus_Mons', Date.now())).toBeNull();
  });
});
