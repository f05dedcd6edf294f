import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { StopReason } from '../../shared/conversation/turn/turn-outcome';
import type { ModelReply } from '../../shared/ports/language-model';
import type { FailureModeCase } from './failure-mode-case';
import {
  fixedWeatherCall,
  reply,
  toolCall,
  WEATHER_ARGUMENTS,
  WEATHER_JSON,
} from './scripted-replies';

const WHERE = 'where the tool call is';
const LOOP = 'the loop';

/** A reply that holds a valid get_weather call somewhere: the server should need nothing more. */
function foundInOneCall(row: string, first: ModelReply): FailureModeCase {
  return {
    section: WHERE,
    row,
    commands: 'fixture',
    replies: [first],
    minimumCalls: 1,
    expectedStop: StopReason.toolCalls,
    handedOver: WEATHER_ARGUMENTS,
  };
}

const weatherWith = (args: unknown, id: string | null = 'call_a'): ModelReply =>
  reply(null, [{ id, name: 'get_weather', arguments: args }]);

/** llm-failure-modes.md, "Where the tool call is". */
export const WHERE_CASES: readonly FailureModeCase[] = [
  foundInOneCall('native tool_calls, arguments a JSON string', weatherWith(WEATHER_JSON)),
  foundInOneCall('arguments already an object', weatherWith(WEATHER_ARGUMENTS)),
  {
    section: WHERE,
    row: 'arguments "" (means {})',
    commands: 'fixture',
    replies: [reply(null, [{ id: 'call_a', name: 'check_timers', arguments: '' }])],
    minimumCalls: 1,
    expectedStop: StopReason.toolCalls,
  },
  foundInOneCall('arguments truncated JSON', weatherWith(WEATHER_JSON.slice(0, -1))),
  foundInOneCall('arguments with a trailing comma', weatherWith(`${WEATHER_JSON.slice(0, -1)},}`)),
  foundInOneCall('arguments in single quotes', weatherWith(WEATHER_JSON.replaceAll('"', "'"))),
  foundInOneCall(
    '<tool_call>{...}</tool_call> in the text',
    reply(`<tool_call>{"name": "get_weather", "arguments": ${WEATHER_JSON}}</tool_call>`),
  ),
  foundInOneCall(
    '<function=get_weather>{...}</function>',
    reply(`<function=get_weather>${WEATHER_JSON}</function>`),
  ),
  foundInOneCall(
    'a ```json fenced {"name", "arguments"}',
    reply(`Sure.\n\`\`\`json\n{"name": "get_weather", "arguments": ${WEATHER_JSON}}\n\`\`\``),
  ),
  foundInOneCall(
    '<tool>{server_name, tool_name, arguments}</tool>',
    reply(
      `<tool>{"server_name": "jcc", "tool_name": "get_weather", "arguments": ${WEATHER_JSON}}</tool>`,
    ),
  ),
  {
    section: WHERE,
    row: 'text JSON or markup naming a tool that is not declared',
    commands: 'fixture',
    replies: [
      reply('<tool_call>{"name": "launch_rocket", "arguments": {}}</tool_call>'),
      reply('I cannot do that.'),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.complete,
  },
  {
    section: WHERE,
    row: '<think>...</think> before the answer',
    commands: 'fixture',
    replies: [reply('<think>the user wants a fact</think>Paris.')],
    minimumCalls: 1,
    expectedStop: StopReason.complete,
  },
  foundInOneCall('a tool call with an empty id', weatherWith(WEATHER_JSON, '')),
  foundInOneCall('a tool call with no id', weatherWith(WEATHER_JSON, null)),
  foundInOneCall(
    'an id with a space, non-ASCII or over 64 characters',
    weatherWith(WEATHER_JSON, 'call é 1'),
  ),
  {
    section: WHERE,
    row: 'a retry reusing an earlier tool-call id',
    commands: 'fixture',
    replies: [
      reply(null, [
        toolCall('set_timer', { duration_seconds: 300 }, 'call_0'),
        toolCall('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_1'),
      ]),
      reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, 'call_0')]),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'more tool calls in one reply than a node can answer',
    commands: 'fixture',
    replies: [
      reply(
        null,
        Array.from({ length: 40 }, (_, index) =>
          toolCall('set_timer', { duration_seconds: index + 1 }, `call_${index}`),
        ),
      ),
      reply('That is all of them.'),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'several calls, one invalid',
    commands: 'fixture',
    replies: [
      reply(null, [
        toolCall('set_timer', { duration_seconds: 300 }, 'call_timer'),
        toolCall('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_weather'),
      ]),
      fixedWeatherCall(),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'finish_reason "length" (the reply was cut off)',
    commands: 'fixture',
    replies: [
      { ...reply('The forecast for Los Angeles tomorrow is'), finishReason: 'length' },
      fixedWeatherCall(),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  foundInOneCall(
    "Llama 3.x's <|python_tag|> followed by JSON",
    reply(`<|python_tag|>{"name": "get_weather", "parameters": ${WEATHER_JSON}}<|eom_id|>`),
  ),
  {
    section: WHERE,
    row: 'a reply whose text runs to megabytes (markup repeated)',
    commands: 'fixture',
    replies: [reply('<function=get_weather>{'.repeat(100_000)), fixedWeatherCall()],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'a number JSON cannot carry exactly (1e400)',
    commands: 'fixture',
    replies: [
      reply(null, [{ id: 'call_n', name: 'set_timer', arguments: '{"duration_seconds": 1e400}' }]),
      reply(null, [toolCall('set_timer', { duration_seconds: 300 }, 'call_t')]),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'calls whose arguments leave no room for their results',
    commands: 'fixture',
    // Earlier rounds of this exchange already hold 75 KB: three more calls cannot all come back.
    // Together the calls stay within TURN_LIMITS.argumentBytes, so the room is the limit that acts.
    history: [
      { role: 'user', content: 'What is the weather in these cities?' },
      { role: 'assistant', content: 'Checking. '.repeat(7_500), toolCalls: [] },
    ],
    replies: [
      reply(
        null,
        Array.from({ length: 3 }, (_, index) =>
          toolCall(
            'get_weather',
            { ...WEATHER_ARGUMENTS, city: `${'Los Angeles '.repeat(200)}${index}` },
            `call_big_${index}`,
          ),
        ),
      ),
    ],
    minimumCalls: 1,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: WHERE,
    row: 'arguments beyond repair ("city: LA, when: tomorrow")',
    commands: 'fixture',
    replies: [weatherWith('city: LA, when: tomorrow'), fixedWeatherCall()],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
];

/** llm-failure-modes.md, "The loop" (the LLM server's own failures are the adapter's, not step's). */
export const LOOP_CASES: readonly FailureModeCase[] = [
  {
    section: LOOP,
    row: 'server tool first (resolve_relative_date), then the call',
    commands: 'fixture',
    replies: [
      reply(null, [toolCall('resolve_relative_date', { relative_term: 'tomorrow' }, 'call_date')]),
      fixedWeatherCall(),
    ],
    minimumCalls: 2,
    expectedStop: StopReason.toolCalls,
  },
  {
    section: LOOP,
    row: 'the model keeps calling server tools',
    commands: 'fixture',
    replies: [
      reply(null, [toolCall('resolve_relative_date', { relative_term: 'today' }, 'call_date')]),
    ],
    // Stopping is the point: at the bound, with an answer, never later.
    minimumCalls: DEFAULT_ENGINE_SETTINGS.maxModelCalls,
    expectedStop: StopReason.complete,
  },
  {
    section: LOOP,
    row: 'direct answer where every tool must be called',
    commands: 'must_call',
    // docs/parameters.md, "Direct answers": every retry asks again, and the user never hears the
    // model's text (stricter than the row's "one must-call retry, then accept").
    replies: [reply('Sure, timer set!'), reply('Timer set!')],
    minimumCalls: 1 + DEFAULT_ENGINE_SETTINGS.maxValidationRetries,
    expectedStop: StopReason.complete,
  },
  {
    section: LOOP,
    row: "direct answer after the node's tool results",
    commands: 'must_call',
    replies: [reply('The timer is running.')],
    toolResultsArrived: true,
    minimumCalls: 1,
    expectedStop: StopReason.complete,
  },
  {
    section: LOOP,
    row: 'the model calls request_validation',
    commands: 'fixture',
    replies: [
      reply(null, [
        toolCall(
          'request_validation',
          { question: 'Which city?', parameter_name: 'city' },
          'call_ask',
        ),
      ]),
    ],
    minimumCalls: 1,
    expectedStop: StopReason.validationRequired,
  },
];
