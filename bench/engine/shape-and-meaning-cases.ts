import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { StopReason } from '../../shared/conversation/turn/turn-outcome';
import type { FailureModeCase } from './failure-mode-case';
import { fixedWeatherCall, reply, toolCall, WEATHER_ARGUMENTS } from './scripted-replies';

const SHAPE = 'argument shape';
const MEANING = 'meaning';

/**
 * A `probe` call: repaired in place into `repaired` (1 call), or retried once and then sent
 * valid (2 calls).
 */
function shapeCase(
  row: string,
  args: Record<string, unknown>,
  repaired: Record<string, unknown> | 'retry',
): FailureModeCase {
  const first = reply(null, [toolCall('probe', args)]);
  const fixedArguments = { count: 1 };
  const fixed = reply(null, [toolCall('probe', fixedArguments, 'call_fixed')]);
  return {
    section: SHAPE,
    row,
    commands: 'probe',
    replies: repaired === 'retry' ? [first, fixed] : [first],
    minimumCalls: repaired === 'retry' ? 2 : 1,
    expectedStop: StopReason.toolCalls,
    handedOver: repaired === 'retry' ? fixedArguments : repaired,
  };
}

/** A `get_weather`-shaped mistake the model must fix itself: one retry, then the valid call. */
function meaningCase(row: string, bad: ReturnType<typeof toolCall>): FailureModeCase {
  return {
    section: MEANING,
    row,
    commands: 'fixture',
    replies: [reply(null, [bad]), fixedWeatherCall()],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
    handedOver: WEATHER_ARGUMENTS,
  };
}

/** llm-failure-modes.md, "Argument shape" (policy `lossless`, the default). */
export const ARGUMENT_SHAPE_CASES: readonly FailureModeCase[] = [
  shapeCase(
    'JSON-encoded list for array<datetime>',
    { when: '["2026-01-18T05:00:00Z"]' },
    { when: ['2026-01-18T05:00:00Z'] },
  ),
  shapeCase('JSON-encoded object for dict', { where: '{"lat": 1}' }, { where: { lat: 1 } }),
  shapeCase('"5" for int', { count: '5' }, { count: 5 }),
  shapeCase('"5.0" for int', { count: '5.0' }, { count: 5 }),
  shapeCase('"5.5" for int', { count: '5.5' }, 'retry'),
  shapeCase('"2.5" for float', { ratio: '2.5' }, { ratio: 2.5 }),
  shapeCase('"true" for bool', { enabled: 'true' }, { enabled: true }),
  shapeCase('"False" for bool', { enabled: 'False' }, { enabled: false }),
  shapeCase(
    'one value for array<datetime>',
    { when: '2026-01-18T05:00:00Z' },
    { when: ['2026-01-18T05:00:00Z'] },
  ),
  ...['null', 'None', 'none', 'default', ''].map((placeholder) =>
    shapeCase(`"${placeholder}" for an optional parameter`, { count: placeholder }, {}),
  ),
  // The same placeholders for an optional string parameter are dropped too.
  ...['null', 'None', ''].map((placeholder) =>
    shapeCase(`"${placeholder}" for an optional string parameter`, { label: placeholder }, {}),
  ),
  shapeCase('null for an optional parameter', { count: null }, {}),
  {
    section: SHAPE,
    row: '"None" for a required parameter',
    commands: 'probe',
    replies: [
      reply(null, [toolCall('needs', { amount: 'None' })]),
      reply(null, [toolCall('needs', { amount: 3 }, 'call_fixed')]),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
    handedOver: { amount: 3 },
  },
  {
    section: SHAPE,
    row: '"SUBTRACT" where the enum is add/subtract',
    commands: 'probe',
    replies: [reply(null, [toolCall('needs', { amount: 2, operation: 'SUBTRACT' })])],
    minimumCalls: 1,
    expectedStop: StopReason.toolCalls,
    handedOver: { amount: 2, operation: 'subtract' },
  },
  shapeCase('"yes" for bool', { enabled: 'yes' }, 'retry'),
  shapeCase('1 for bool', { enabled: 1 }, 'retry'),
];

const invalidEnum = () => toolCall('needs', { amount: 2, operation: 'multiply' });

/** llm-failure-modes.md, "Meaning": never repaired, so one retry is the minimum. */
export const MEANING_CASES: readonly FailureModeCase[] = [
  meaningCase(
    '["tomorrow"] for array<datetime>',
    toolCall('get_weather', { resolved_datetimes: ['tomorrow'] }),
  ),
  meaningCase(
    '"next week" for array<datetime>',
    toolCall('get_weather', { resolved_datetimes: 'next week' }),
  ),
  meaningCase(
    'datetime without a zone',
    toolCall('get_weather', { resolved_datetimes: ['2026-01-18T05:00:00'] }),
  ),
  {
    section: MEANING,
    row: '"2026-02-30" for date',
    commands: 'probe',
    replies: [
      reply(null, [toolCall('probe', { day: '2026-02-30' })]),
      reply(null, [toolCall('probe', { day: '2026-02-28' }, 'call_fixed')]),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: MEANING,
    row: '"multiply" where the enum is add/subtract',
    commands: 'probe',
    replies: [
      reply(null, [invalidEnum()]),
      reply(null, [toolCall('needs', { amount: 2, operation: 'add' })]),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  meaningCase(
    '`question` where the parameter is `query`',
    toolCall('answer_question', { question: 'why?' }),
  ),
  meaningCase('a tool that does not exist (get_location)', toolCall('get_location', {})),
  meaningCase('a required parameter left out', toolCall('get_weather', { city: 'Paris' })),
  {
    section: MEANING,
    row: 'duration_seconds: 900 for "1 hour 30 minutes"',
    commands: 'fixture',
    replies: [reply(null, [toolCall('set_timer', { duration_seconds: 900 })])],
    minimumCalls: 1,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: MEANING,
    row: 'the same invalid call again after each retry',
    commands: 'probe',
    replies: [reply(null, [invalidEnum()])],
    // The first call and the 2 retries of the budget, then the user is asked.
    minimumCalls: 1 + DEFAULT_ENGINE_SETTINGS.maxValidationRetries,
    expectedStop: StopReason.validationRequired,
  },
];
