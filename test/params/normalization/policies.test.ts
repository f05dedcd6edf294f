import { describe, expect, it } from 'vitest';
import { probeSet } from '../support/command-sets';

const set = probeSet([
  { name: 'label', type: 'string' },
  { name: 'place', type: 'dict' },
  { name: 'volume', type: 'int', default: 30 },
  { name: 'mode', type: 'string', enum_values: ['eco', 'fast'], default_value: 'eco' },
  { name: 'note', type: 'string', default: 'none' },
]);

describe('the lenient policy', () => {
  it.each([
    [
      { label: 42 },
      { label: '42', volume: 30, mode: 'eco' },
      ['fill_default', 'fill_default', 'stringify_scalar'],
    ],
    [
      { label: false },
      { label: 'false', volume: 30, mode: 'eco' },
      ['fill_default', 'fill_default', 'stringify_scalar'],
    ],
    [{ volume: 70, mode: 'fast' }, { volume: 70, mode: 'fast' }, []],
    [{ mode: null }, { volume: 30, mode: 'eco' }, ['fill_default', 'drop_null', 'fill_default']],
  ])('repairs %j to %j', (sent, expected, rules) => {
    // Act
    const check = set.check({ name: 'probe', arguments: sent }, 'lenient');

    // Assess
    expect(check).toMatchObject({ ok: true, arguments: expected });
    expect(check.repairs.map((repair) => repair.rule)).toEqual(rules);
  });

  // Issue 29: a plain dict declares no keys, so "color: red" is never given invented ones.
  it('leaves "Kitchen: the room with the oven" for a plain dict to the model', () => {
    // Act
    const check = set.check(
      { name: 'probe', arguments: { place: 'Kitchen: the room with the oven' } },
      'lenient',
    );

    // Assess
    expect(check.ok).toBe(false);
    expect(check.repairs.map((repair) => repair.rule)).not.toContain('split_label_description');
  });

  it('fills no default under lossless or strict', () => {
    // Act
    const checks = (['lossless', 'strict'] as const).map((policy) =>
      set.check({ name: 'probe', arguments: {} }, policy),
    );

    // Assess
    expect(checks).toEqual([
      { ok: true, arguments: {}, repairs: [] },
      { ok: true, arguments: {}, repairs: [] },
    ]);
  });
});

describe('a placeholder is no value for a string parameter', () => {
  it.each(['none', 'default', '', 'null', ' None '])('drops the string %j', (text) => {
    // Act
    const check = set.check({ name: 'probe', arguments: { label: text } }, 'lossless');

    // Assess
    expect(check).toEqual({
      ok: true,
      arguments: {},
      repairs: [
        {
          command: 'probe',
          parameter: 'label',
          rule: 'drop_placeholder',
          before: text,
          after: undefined,
        },
      ],
    });
  });

  it('drops a placeholder that misses an enum', () => {
    // Act
    const check = set.check({ name: 'probe', arguments: { mode: 'None' } }, 'lossless');

    // Assess
    expect(check).toMatchObject({ ok: true, arguments: {} });
  });

  it('keeps a string that only contains a placeholder word', () => {
    // Act
    const check = set.check({ name: 'probe', arguments: { label: 'none left' } }, 'lossless');

    // Assess
    expect(check).toEqual({ ok: true, arguments: { label: 'none left' }, repairs: [] });
  });
});

describe('the strict policy', () => {
  it('leaves repairable values for the retry and only drops a null optional parameter', () => {
    // Act
    const check = set.check(
      { name: 'probe', arguments: { label: 5, volume: '5', mode: null } },
      'strict',
    );

    // Assess
    expect(check).toMatchObject({
      ok: false,
      issues: [
        { code: 'wrong_type', parameter: 'label' },
        { code: 'wrong_type', parameter: 'volume' },
      ],
      repairs: [{ parameter: 'mode', rule: 'drop_null', before: null, after: undefined }],
    });
  });
});
