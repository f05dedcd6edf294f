import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QwenCallPlanner } from '../../../shared/adapters/embedded-model/qwen-call-planner';
import type { ToolDefinition } from '../../../shared/chat/chat-message';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);

const tool = (name: string, parameters: Record<string, unknown>): ToolDefinition => ({
  type: 'function',
  function: { name, description: `${name}.`, parameters },
});

const TOOLS: readonly ToolDefinition[] = [
  tool('get_weather', {
    type: 'object',
    properties: {
      city: { type: 'string' },
      resolved_datetimes: { type: 'array', items: { type: 'string' } },
    },
    required: ['resolved_datetimes'],
  }),
  tool('get_current_time', { type: 'object', properties: {} }),
  tool('set_timer', {
    type: 'object',
    properties: { duration_seconds: { type: 'integer' }, label: { type: 'string' } },
    required: ['duration_seconds', 'label'],
  }),
  tool('timer', { type: 'object', properties: {}, additionalProperties: false }),
  tool('timer_cancel', {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
    additionalProperties: false,
  }),
];

const planner = new QwenCallPlanner(TOOLS);
const forced = (text: string) => planner.forcedAfter(text);

describe("QwenCallPlanner: the text determined in Qwen's call block", () => {
  it.each([
    // The format's own text, once the model opened a call.
    ['<tool_call>', '\n{"name": "'],
    ['<tool_call>\n', '{"name": "'],
    ['Sure.\n<tool_call>\n{', '"name": "'],
    ['<tool_call>\n{"na', 'me": "'],
    ['<tool_call>\n{"name":', ' "'],
    ['<tool_call>\n{"name": ', '"'],
    // A name is completed once what was written begins exactly one tool.
    ['<tool_call>\n{"name": "get', ''],
    ['<tool_call>\n{"name": "get_w', 'eather", "arguments": {"resolved_datetimes":'],
    ['<tool_call>\n{"name": "set_', 'timer", "arguments": {"duration_seconds":'],
    ['<tool_call>\n{"name": "timer', ''],
    ['<tool_call>\n{"name": "timer_', 'cancel", "arguments": {"id":'],
    // Closed by the model: what follows a declared name.
    ['<tool_call>\n{"name": "timer"', ', "arguments": {}}\n</tool_call>'],
    ['<tool_call>\n{"name": "get_current_time"', ', "arguments":'],
    // Required keys in declared order, each once the value before it ends.
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 6', ''],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 600', ''],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 600,', ' "label":'],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": 600, "', 'label":'],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": "6', ''],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": "600"', ', "label":'],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds":600,"label":"a"', ''],
    // Optional properties are the model's; the object and the call close when it closes them.
    ['<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": ["x"]', ''],
    [
      '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": ["x"]}',
      '}\n</tool_call>',
    ],
    [
      '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": ["x"]}}',
      '\n</tool_call>',
    ],
    [
      '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": ["}"], "city": "P',
      '',
    ],
    [
      '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": [], "city": "P"}}\n',
      '</tool_call>',
    ],
    ['<tool_call>\n{"name": "timer_cancel", "arguments": {"id": "a"', '}}\n</tool_call>'],
    // Keys the model wrote in its own order are read, then the missing required one is forced.
    ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "P"', ', "resolved_datetimes":'],
    ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "P",', ' "resolved_datetimes":'],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"label": "tea"', ', "duration_seconds":'],
    // Nothing the model did not start, nothing it left, nothing inside thinking.
    ['', ''],
    ['Sure, the weather is {"name": "', ''],
    [
      '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": []}}\n</tool_call>',
      '',
    ],
    ['<tool_call>\n{"name": "unknown"', ''],
    ['<tool_call>\n{"name": "x', ''],
    ['<tool_call>\n["', ''],
    ['<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds": nope', ''],
    ['<think>\nI could write <tool_call>', ''],
    ['<think>\nhm</think>\n\n<tool_call>', '\n{"name": "'],
  ])('after %j: %j', (text, expected) => {
    // Act and assess
    expect(forced(text)).toBe(expected);
  });

  it('a single tool is forced whole up to its first required value', () => {
    // Prepare
    const [weather] = TOOLS;
    const only = new QwenCallPlanner(weather === undefined ? [] : [weather]);

    // Act
    const text = only.forcedAfter('<tool_call>\n');

    // Assess
    expect(text).toBe('{"name": "get_weather", "arguments": {"resolved_datetimes":');
  });

  it('with no tools nothing is forced past the format', () => {
    // Act
    const text = new QwenCallPlanner([]).forcedAfter('<tool_call>\n{"name": "');

    // Assess
    expect(text).toBe('');
  });
});

/** A call as Qwen3 writes it (its template's JSON: `, ` and `: `), required keys first in order. */
const callText = (name: string, args: ReadonlyArray<readonly [string, unknown]>) =>
  `<tool_call>\n{"name": "${name}", "arguments": {${args
    .map(
      ([key, value]) =>
        `${JSON.stringify(key)}: ${JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ')}`,
    )
    .join(', ')}}}\n</tool_call>`;

const jsonValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }),
);

/** One of TOOLS with arguments: its required keys in order, then some of its optional ones. */
const schemaCall = fc
  .constantFrom(...TOOLS.map((definition) => definition.function))
  .chain((definition) => {
    const properties = Object.keys(definition.parameters.properties as object);
    const required = (definition.parameters.required as string[] | undefined) ?? [];
    const optional = properties.filter((key) => !required.includes(key));
    return fc
      .tuple(
        fc.array(jsonValue, { minLength: required.length, maxLength: required.length }),
        fc.subarray(optional),
        fc.array(jsonValue, { minLength: optional.length, maxLength: optional.length }),
      )
      .map(([requiredValues, chosen, optionalValues]) =>
        callText(definition.name, [
          ...required.map((key, index) => [key, requiredValues[index]] as const),
          ...chosen.map((key, index) => [key, optionalValues[index]] as const),
        ]),
      );
  });

describe('QwenCallPlanner: properties', () => {
  it('what it forces is always what the call goes on with', () => {
    fc.assert(
      fc.property(schemaCall, fc.nat(), (call, cut) => {
        // Prepare
        const text = call.slice(0, cut % (call.length + 1));

        // Act
        const next = forced(text);

        // Assess
        expect(call.slice(text.length).startsWith(next)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('a model writing one character at a time, jumping forward, writes the call', () => {
    fc.assert(
      fc.property(schemaCall, (call) => {
        // Act
        let text = '';
        let forcedCharacters = 0;
        while (text.length < call.length) {
          const next = forced(text);
          forcedCharacters += next.length;
          text += next === '' ? (call[text.length] ?? '') : next;
        }

        // Assess: the format's text around the name and keys was forced, never the values.
        expect(text).toBe(call);
        expect(forcedCharacters).toBeGreaterThanOrEqual(
          '\n{"name": "'.length + '}\n</tool_call>'.length,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('never forces text the model did not open a call for, nor trailing space or a brace', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        // Prepare
        fc.pre(!before.includes('<tool_call>'));

        // Act
        const outside = forced(before);
        const inside = forced(`${before}<tool_call>${after}`);

        // Assess
        expect(outside).toBe('');
        expect(inside).not.toMatch(/[\s{]$/);
      }),
      { numRuns: RUNS },
    );
  });
});
