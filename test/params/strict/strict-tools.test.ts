import { describe, expect, it } from 'vitest';
import { omitStrictNulls, strictTools } from '../../../shared/params';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';

/** OpenAI's documented strict subset, checked independently of the converter. */
const ALLOWED = new Set([
  'type',
  'properties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'required',
  'additionalProperties',
]);
const MAX_DEPTH = 10;

function strictSubsetProblems(schema: unknown, path = '$', depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null) return [`${path}: not a schema`];
  const node = schema as Record<string, unknown>;
  const problems = Object.keys(node)
    .filter((keyword) => !ALLOWED.has(keyword))
    .map((keyword) => `${path}: ${keyword} is not in the strict subset`);
  if (depth > MAX_DEPTH) problems.push(`${path}: nested deeper than ${MAX_DEPTH}`);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object')) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    if (node.additionalProperties !== false)
      problems.push(`${path}: additionalProperties is not false`);
    if (
      JSON.stringify([...((node.required as string[]) ?? [])].sort()) !==
      JSON.stringify(Object.keys(properties).sort())
    ) {
      problems.push(`${path}: not every property is required`);
    }
    for (const [name, property] of Object.entries(properties)) {
      problems.push(...strictSubsetProblems(property, `${path}.${name}`, depth + 1));
    }
  }
  if (node.items !== undefined)
    problems.push(...strictSubsetProblems(node.items, `${path}[]`, depth + 1));
  for (const branch of (node.anyOf as unknown[] | undefined) ?? []) {
    problems.push(...strictSubsetProblems(branch, `${path}|`, depth + 1));
  }
  return problems;
}

describe('strict tool schemas for the real node’s registration', () => {
  const converted = strictTools(compile(fixtureRegistration()).tools);

  it('sends every tool strict, each schema inside the documented strict subset', () => {
    for (const { tool, strict } of converted) {
      expect(strict, tool.function.name).toBe(true);
      expect(tool.function.strict).toBe(true);
      expect(tool.function.parameters.type).toBe('object');
      expect(strictSubsetProblems(tool.function.parameters), tool.function.name).toEqual([]);
    }
  });

  it('turns an optional parameter into a required one that may be null, enums included', () => {
    const music = converted.find(({ tool }) => tool.function.name === 'music')?.tool;
    expect(music?.function.parameters).toMatchObject({
      required: ['action', 'query', 'queue_option', 'volume_level'],
      properties: {
        action: { type: 'string', enum: ['play', 'pause', 'resume', 'next', 'previous', 'volume'] },
        queue_option: { type: ['string', 'null'], enum: ['play', 'next', 'add', null] },
        volume_level: { type: ['integer', 'null'] },
      },
    });
    expect(JSON.stringify(music)).not.toContain('_refinable');
  });
});

describe('a schema the strict subset cannot express stays as it was, with the reason', () => {
  const tool = (parameters: Record<string, unknown>) => ({
    type: 'function' as const,
    function: { name: 'probe', description: '', parameters },
  });

  it.each([
    [
      'a free-form object',
      { type: 'object', properties: { where: { type: 'object' } } },
      /free-form object/,
    ],
    [
      'a list without items',
      { type: 'object', properties: { any: { type: 'array' } } },
      /free-form list/,
    ],
    [
      'oneOf',
      { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
      /oneOf/,
    ],
  ])('%s', (_case, parameters, reason) => {
    const [result] = strictTools([tool(parameters)]);
    expect(result?.strict).toBe(false);
    expect(result?.tool.function.parameters).toEqual(parameters);
    expect(result && !result.strict ? result.reason : '').toMatch(reason);
  });
});

describe('omitStrictNulls: a strict call read back as the node declared it', () => {
  const schema = {
    type: 'object',
    properties: {
      duration_seconds: { type: 'integer' },
      label: { type: 'string' },
      place: {
        type: 'object',
        properties: { city: { type: 'string' }, zip: { type: 'string' } },
        required: ['city'],
      },
      maybe: { type: ['string', 'null'] },
    },
    required: ['duration_seconds'],
  };

  it.each([
    ['an omitted optional value', { duration_seconds: 60, label: null }, { duration_seconds: 60 }],
    [
      'at every depth',
      { duration_seconds: 60, place: { city: 'LA', zip: null } },
      { duration_seconds: 60, place: { city: 'LA' } },
    ],
    [
      'a required one is left for the validator',
      { duration_seconds: null },
      { duration_seconds: null },
    ],
    [
      'a null the schema allows is kept',
      { duration_seconds: 1, maybe: null },
      { duration_seconds: 1, maybe: null },
    ],
  ])('%s', (_case, value, expected) => {
    expect(omitStrictNulls(value, schema)).toEqual(expected);
  });

  it('keeps a "__proto__" key of the model\'s JSON as data, never as the prototype', () => {
    const value = JSON.parse('{"label":"tea","__proto__":{"duration_seconds":5}}');

    const read = omitStrictNulls(value, schema) as Record<string, unknown>;

    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(read.duration_seconds).toBeUndefined();
    expect(JSON.stringify(read)).toBe('{"label":"tea","__proto__":{"duration_seconds":5}}');
  });
});
