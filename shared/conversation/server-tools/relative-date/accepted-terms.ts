import { DAY_TERMS } from './day-terms';
import { INSTANT_TERMS } from './instant-terms';
import { PART_OF_DAY_TERMS } from './period-terms';
import { SPAN_TERMS } from './span-terms';
import { WEEKDAY_TERMS } from './weekday-names';

// Monday first, as people list the week, even though weeks start on Sunday for this_week.
const WEEKDAYS_FROM_MONDAY = [...WEEKDAY_TERMS.slice(1), ...WEEKDAY_TERMS.slice(0, 1)];

/** Every named term the tool understands, as the model is shown them (N: a whole number). */
export const ACCEPTED_TERMS: readonly string[] = [
  ...DAY_TERMS,
  ...SPAN_TERMS,
  ...WEEKDAYS_FROM_MONDAY.map((weekday) => `next_${weekday}`),
  ...WEEKDAYS_FROM_MONDAY.map((weekday) => `last_${weekday}`),
  ...PART_OF_DAY_TERMS,
  ...INSTANT_TERMS,
];
