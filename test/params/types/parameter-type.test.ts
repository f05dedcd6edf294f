import { describe, expect, it } from 'vitest';
import {
  formatParameterType,
  type ParameterType,
  parseParameterType,
  type ScalarType,
  typeSchema,
} from '../../../shared/params';

const SCALAR_SPELLINGS: readonly [string, ScalarType, Record<string, unknown>][] = [
  ['string', 'string', { type: 'string' }],
  ['str', 'string', { type: 'string' }],
  ['int', 'int', { type: 'integer' }],
  ['integer', 'int', { type: 'integer' }],
  ['float', 'float', { type: 'number' }],
  ['bool', 'bool', { type: 'boolean' }],
  ['boolean', 'bool', { type: 'boolean' }],
  ['date', 'date', { type: 'string', format: 'date' }],
  ['datetime', 'datetime', { type: 'string', format: 'date-time' }],
  ['time', 'time', { type: 'string', format: 'time' }],
  ['timedelta', 'timedelta', { type: 'string', format: 'duration' }],
];

const ARRAY_SPELLINGS = [
  (item: string) => `array<${item}>`,
  (item: string) => `array[${item}]`,
  (item: string) => `${item}[]`,
];

describe('parseParameterType', () => {
  describe.each(SCALAR_SPELLINGS)('the scalar %s', (spelling, scalar, schema) => {
    it('parses to its descriptor and renders its JSON Schema', () => {
      // Act
      const parsed = parseParameterType(spelling);

      // Assess
      expect(parsed).toEqual({ ok: true, value: { kind: 'scalar', scalar } });
      expect(parsed.ok && typeSchema(parsed.value)).toEqual(schema);
    });

    it.each(ARRAY_SPELLINGS.map((spell) => [spell(spelling)]))(
      'in the array spelling %s',
      (text) => {
        // Act
        const parsed = parseParameterType(text);

        // Assess
        expect(parsed).toEqual({ ok: true, value: { kind: 'array', items: scalar } });
        expect(parsed.ok && typeSchema(parsed.value)).toEqual({ type: 'array', items: schema });
      },
    );
  });

  it.each([
    ['array', { kind: 'array', items: null }, { type: 'array' }],
    ['list', { kind: 'array', items: null }, { type: 'array' }],
    ['dict', { kind: 'dict' }, { type: 'object' }],
  ])('parses the container %s', (text, descriptor, schema) => {
    // Act
    const parsed = parseParameterType(text);

    // Assess
    expect(parsed).toEqual({ ok: true, value: descriptor });
    expect(parsed.ok && typeSchema(parsed.value)).toEqual(schema);
  });

  it.each([
    ['  INT  ', { kind: 'scalar', scalar: 'int' }],
    ['DateTime', { kind: 'scalar', scalar: 'datetime' }],
    ['Array<DateTime>', { kind: 'array', items: 'datetime' }],
    [' ARRAY[ Str ] ', { kind: 'array', items: 'string' }],
    ['Boolean []', { kind: 'array', items: 'bool' }],
    ['list<int>', { kind: 'array', items: 'int' }],
    ['LIST[float]', { kind: 'array', items: 'float' }],
    ['Dict', { kind: 'dict' }],
  ])('is case-insensitive and trimmed: %j', (text, descriptor) => {
    // Act
    const parsed = parseParameterType(text);

    // Assess
    expect(parsed).toEqual({ ok: true, value: descriptor });
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['number', /unknown parameter type "number"/],
    ['object', /unknown parameter type "object"/],
    ['strings', /unknown parameter type "strings"/],
    ['array<array<int>>', /nested.*"array<array<int>>"/],
    ['int[][]', /nested.*"int\[\]\[\]"/],
    ['array[list]', /nested.*"array\[list\]"/],
    ['array<dict>', /nested.*"array<dict>"/],
    ['list[]', /nested.*"list\[\]"/],
    ['array<number>', /unknown array item type "number" in "array<number>"/],
    ['array<>', /unknown array item type "" in "array<>"/],
    ['[]', /unknown array item type "" in "\[\]"/],
    ['array<int', /unknown parameter type "array<int"/],
  ])('rejects %j, quoting it', (text, message) => {
    // Act
    const parsed = parseParameterType(text);

    // Assess
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.issues).toEqual([expect.stringMatching(message)]);
  });
});

describe('formatParameterType', () => {
  it.each<[ParameterType, string]>([
    [{ kind: 'scalar', scalar: 'timedelta' }, 'timedelta'],
    [{ kind: 'array', items: 'datetime' }, 'array<datetime>'],
    [{ kind: 'array', items: null }, 'array'],
    [{ kind: 'dict' }, 'dict'],
  ])('spells %j as %s, which parses back to it', (type, text) => {
    // Act
    const spelled = formatParameterType(type);

    // Assess
    expect(spelled).toBe(text);
    expect(parseParameterType(spelled)).toEqual({ ok: true, value: type });
  });
});
