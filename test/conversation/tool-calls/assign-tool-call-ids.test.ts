import { describe, expect, it } from 'vitest';
import { assignToolCallIds } from '../../../shared/conversation/tool-calls/assign-tool-call-ids';
import type { IdGenerator } from '../../../shared/ports/clock';
import { sequentialIds } from './sequential-ids';

const noArguments = { ok: true, value: {}, repaired: [] } as const;
const candidates = (...ids: (string | null)[]) =>
  ids.map((id) => ({ id, name: 'get_weather', arguments: noArguments }));

describe('assignToolCallIds', () => {
  it.each([
    ['ids given are kept', ['a', 'b'], ['a', 'b']],
    ['a missing id is assigned', [null, 'b'], ['call_1', 'b']],
    ['a later duplicate gets a fresh id', ['a', 'a', 'a'], ['a', 'call_1', 'call_2']],
    ['a fresh id never takes an id the model gave later', [null, 'call_1'], ['call_2', 'call_1']],
  ])('%s', (_case, given, expected) => {
    // Prepare
    const ids = sequentialIds();

    // Act
    const calls = assignToolCallIds(candidates(...given), 'native', ids);

    // Assess
    expect(calls.map((call) => call.id)).toEqual(expected);
  });

  it('stays unique even when the generator repeats itself', () => {
    // Prepare
    const stuck: IdGenerator = { next: (prefix) => `${prefix}same` };

    // Act
    const calls = assignToolCallIds(candidates(null, null, 'call_same'), 'text', stuck);

    // Assess
    expect(calls.map((call) => call.id)).toEqual(['call_same_2', 'call_same_3', 'call_same']);
    expect(calls.every((call) => call.source === 'text')).toBe(true);
  });
});
