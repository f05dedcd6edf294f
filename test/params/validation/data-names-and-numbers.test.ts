import { describe, expect, it } from 'vitest';
import { parseJsonLenient } from '../../../shared/conversation/tool-calls';
import { compileCommandSet } from '../../../shared/params';
import { clientTool, compileOrThrow, typedCommand } from '../support/command-sets';

const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

const parsed = (text: string): unknown => {
  const result = parseJsonLenient(text);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
};

describe.each(PROTOTYPE_NAMES)('row 7: a parameter named %s is data', (name) => {
  const set = compileOrThrow({
    client_tools: [
      clientTool('probe', {
        type: 'object',
        properties: {
          [name]: { type: 'string' },
          inner: {
            type: 'object',
            properties: { [name]: { type: 'integer' } },
            required: [name],
          },
        },
        required: [name],
      }),
    ],
  });

  it('a call that gives it is valid, at the top and nested', () => {
    // Act
    const check = set.check(
      { name: 'probe', arguments: parsed(`{"${name}": "v", "inner": {"${name}": 3}}`) },
      'lossless',
    );

    // Assess
    expect(check.ok && JSON.stringify(check.arguments)).toBe(
      `{"${name}":"v","inner":{"${name}":3}}`,
    );
  });

  it('a call that leaves the required one out is refused, not handed over as valid', () => {
    // Act
    const top = set.check({ name: 'probe', arguments: parsed('{"inner": {}}') }, 'lossless');
    const optional = set.check(
      { name: 'probe', arguments: parsed(`{"${name}": "v"}`) },
      'lossless',
    );

    // Assess
    expect(top.ok).toBe(false);
    const messages = top.ok ? [] : top.issues.map((issue) => [issue.parameter, issue.message]);
    expect(messages).toEqual([
      [name, expect.stringContaining('required parameter is missing')],
      ['inner', expect.stringContaining(name)],
    ]);
    expect(optional.ok).toBe(true);
  });

  it('works as a typed parameter too', () => {
    // Arrange
    const typed = compileOrThrow({
      available_commands: [typedCommand('typed', [{ name, type: 'int', required: true }])],
    });

    // Act
    const given = typed.check({ name: 'typed', arguments: parsed(`{"${name}": "5"}`) }, 'lossless');
    const missing = typed.check({ name: 'typed', arguments: {} }, 'lossless');

    // Assess
    expect(given.ok && given.arguments[name]).toBe(5);
    expect(missing.ok).toBe(false);
  });
});

describe('row 7: __proto__ as a name in a schema', () => {
  it.each([
    [
      'a client property',
      '{"client_tools": [{"type": "function", "function": {"name": "p", "parameters": {"type": "object", "properties": {"__proto__": {"type": "string"}}}}}]}',
    ],
    [
      'a nested required name',
      '{"client_tools": [{"type": "function", "function": {"name": "p", "parameters": {"type": "object", "properties": {"a": {"type": "object", "required": ["__proto__"]}}}}}]}',
    ],
    [
      'a typed parameter',
      '{"available_commands": [{"command_name": "p", "parameters": [{"name": "__proto__", "type": "int"}]}]}',
    ],
  ])('is refused at start by name (%s): ajv could never check it', (_case, body) => {
    // Act: JSON.parse makes `__proto__` an own key, as the edge's parser does.
    const compiled = compileCommandSet(JSON.parse(body));

    // Assess
    expect(compiled.ok).toBe(false);
    const messages = compiled.ok ? [] : compiled.issues.map((issue) => issue.message);
    expect(messages.join(' ')).toMatch(/noProtoName|__proto__/);
  });

  it('a __proto__ key in the arguments is an unknown parameter and pollutes nothing', () => {
    // Arrange
    const set = compileOrThrow({
      client_tools: [
        clientTool('probe', {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: false,
        }),
      ],
    });

    // Act
    const check = set.check(
      { name: 'probe', arguments: parsed('{"__proto__": {"admin": true}}') },
      'lenient',
    );

    // Assess
    expect(check.ok ? [] : check.issues.map((issue) => issue.code)).toEqual(['unknown_parameter']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('row 8: numbers JSON cannot carry exactly are never changed silently', () => {
  const set = compileOrThrow({
    available_commands: [
      typedCommand('probe', [
        { name: 'n', type: 'float', required: true },
        { name: 'i', type: 'int' },
        { name: 'list', type: 'array<int>' },
      ]),
    ],
  });

  it.each([
    ['1e400 (Infinity as a double)', '{"n": 1e400}', 'n', '1e400'],
    ['-1e400', '{"n": -1e400}', 'n', '-1e400'],
    ['1e-400 (0 as a double)', '{"n": 1e-400}', 'n', '1e-400'],
    ['2^53 + 1', '{"n": 1, "i": 9007199254740993}', 'i', '9007199254740993'],
    [
      'an integer of 30 digits',
      '{"n": 1, "i": 123456789012345678901234567890}',
      'i',
      '123456789012345678901234567890',
    ],
    [
      'inside an array',
      '{"n": 1, "list": [1, 18446744073709551617]}',
      'list[1]',
      '18446744073709551617',
    ],
    ['in lenient JSON (single quotes)', "{'n': 1e400,}", 'n', '1e400'],
  ])('%s: a retry naming the parameter, the text kept', (_case, text, parameter, digits) => {
    // Act
    const check = set.check({ name: 'probe', arguments: parsed(text) }, 'lenient');

    // Assess
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues.map((issue) => [issue.code, issue.parameter])).toEqual([
      ['number_not_exact', parameter],
    ]);
    expect(check.issues[0]?.message).toContain(digits);
    expect(JSON.stringify(parsed(text))).toContain(digits);
  });

  it.each([
    ['2^53 exactly', '{"n": 1, "i": 9007199254740992}', 9007199254740992],
    ['-(2^53 - 1)', '{"n": 1, "i": -9007199254740991}', -9007199254740991],
    [
      '1e20 written with digits (a double holds it exactly)',
      '{"n": 1, "i": 100000000000000000000}',
      1e20,
    ],
  ])('%s is a number as usual', (_case, text, expected) => {
    // Act
    const check = set.check({ name: 'probe', arguments: parsed(text) }, 'lossless');

    // Assess
    expect(check.ok && check.arguments.i).toBe(expected);
  });
});
