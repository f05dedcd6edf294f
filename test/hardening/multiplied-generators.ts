import fc from 'fast-check';
import { ARGUMENT_LIMITS } from '../../shared/params/limits/limits';

/**
 * Issue 18: every knob at (or near) its limit at once, nested: combinators of up to 16 branches
 * inside each other, patterns near the automaton limit, many patternProperties keys, uniqueItems,
 * formats, `$id` and `$ref`s, and arguments at the argument limits. What multiplies is what the
 * cost bound must catch.
 */
const widePattern = fc
  .tuple(fc.integer({ min: 1, max: 480 }), fc.constantFrom('[ab]', '[a-z]', '[^x]'))
  .map(([count, unit]) => `${unit}{0,${count}}c`);
const pattern = fc.oneof(widePattern, fc.constantFrom('^[a-z]+$', 'a', '^(?:x|y)*$'));
const names = fc.constantFrom('a', 'b', 'constructor', 'toString', 'text', 'list');

const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('string'), pattern }),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom('url', 'email', 'date-time') }),
  fc.record({ type: fc.constant('array'), uniqueItems: fc.constant(true) }),
  fc.record({ enum: fc.array(fc.integer(), { minLength: 1, maxLength: 256 }) }),
  fc.constant({ type: 'integer' }),
  // Rare: a $ref that may come back to itself (refused) or into the definition.
  fc
    .tuple(fc.nat(9), fc.constantFrom('#/definitions/d', '#'))
    .map(([draw, $ref]) => (draw === 0 ? { $ref } : { type: 'string' })),
);

/** A schema that multiplies knobs; `$id`s, recursion and over-limit pieces are in the mix. */
export const multipliedSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    leaf,
    fc.record({
      allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 16 }),
    }) as fc.Arbitrary<Record<string, unknown>>,
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 16 }) }) as fc.Arbitrary<
      Record<string, unknown>
    >,
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(names, tie('schema'), { maxKeys: 4 }),
        patternProperties: fc.dictionary(pattern, fc.oneof(fc.constant(true), tie('schema')), {
          maxKeys: 24,
        }),
        propertyNames: fc.record({ pattern }),
        $id: fc.constantFrom('https://example.com/x'),
      },
      { requiredKeys: ['type'] },
    ) as fc.Arbitrary<Record<string, unknown>>,
    fc.record(
      { type: fc.constant('array'), items: tie('schema'), uniqueItems: fc.boolean() },
      { requiredKeys: ['type', 'items'] },
    ) as fc.Arbitrary<Record<string, unknown>>,
  ),
})).schema;

/** The parameters schema of one tool: an object of multiplied properties, with a definition. */
export const multipliedParameters = fc
  .tuple(fc.dictionary(names, multipliedSchema, { minKeys: 1, maxKeys: 3 }), multipliedSchema)
  .map(([properties, definition]) => ({
    type: 'object',
    properties,
    definitions: { d: definition },
  }))
  // One schema in ten keeps an `$id` (refused); the others lose theirs, to reach the cost bound.
  .chain((schema) =>
    fc.nat(9).map((draw) => (draw === 0 ? schema : JSON.parse(withoutIds(schema)))),
  );

function withoutIds(schema: unknown): string {
  return JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value));
}

const longText = fc
  .tuple(fc.constantFrom('ab', 'a', 'http://::', 'x'), fc.integer({ min: 1, max: 16_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

/** Arguments at the limits: long strings and names, 256-item arrays, nesting to the depth limit. */
export const argumentsAtLimits: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: ARGUMENT_LIMITS.depth - 1 },
    longText,
    longText,
    fc.integer(),
    fc.array(tie('value'), { maxLength: ARGUMENT_LIMITS.arrayItems }),
    fc.dictionary(fc.oneof(names, longText), tie('value'), { maxKeys: 4 }),
  ),
  top: fc.dictionary(fc.oneof(names, longText), tie('value'), { minKeys: 1, maxKeys: 3 }),
})).top as fc.Arbitrary<Record<string, unknown>>;
