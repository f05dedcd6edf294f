import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../shared/chat/chat-message';
import type { RefinableCall } from '../../../shared/conversation/refinement/refinable-call';
import { refinementOf } from '../../../shared/conversation/refinement/refinement-of';

const previous: RefinableCall = {
  id: 'call_play',
  name: 'music',
  arguments: { action: 'play', query: 'jazz' },
  refinableParameters: ['queue_option', 'volume_level'],
};
const music = (args: Record<string, unknown>, id = 'call_new'): ToolCall => ({
  id,
  name: 'music',
  arguments: JSON.stringify(args),
});
const timer: ToolCall = {
  id: 'call_timer',
  name: 'set_timer',
  arguments: '{"duration_seconds":5}',
};

describe('refinementOf', () => {
  it.each<[string, RefinableCall | null, ToolCall[], string[] | null]>([
    [
      'a refined value added',
      previous,
      [music({ action: 'play', query: 'jazz', queue_option: 'next' })],
      ['queue_option'],
    ],
    [
      'a value changed and one left out',
      previous,
      [music({ action: 'pause', volume_level: 20 })],
      ['action', 'volume_level', 'query'],
    ],
    ['the same call again', previous, [music({ query: 'jazz', action: 'play' })], []],
    ['another command', previous, [timer], null],
    ['no refinable call before', null, [music({ action: 'play' })], null],
    ['no call at all', previous, [], null],
    [
      'the same command among others',
      previous,
      [timer, music({ action: 'play', query: 'jazz', volume_level: 80 })],
      ['volume_level'],
    ],
  ])('%s', (_label, before, calls, changed) => {
    // Act
    const refinement = refinementOf(before, calls);

    // Assess
    expect(refinement?.changed ?? null).toEqual(changed);
  });

  it('names the new call and the call it refines', () => {
    const refinement = refinementOf(previous, [music({ action: 'play', query: 'jazz' }, 'call_7')]);

    expect(refinement).toEqual({
      command: 'music',
      toolCallId: 'call_7',
      refinesToolCallId: 'call_play',
      changed: [],
    });
  });

  it('compares values, not spellings: key order inside an object does not count', () => {
    const before = { ...previous, arguments: { action: 'play', filter: { a: 1, b: 2 } } };

    const refinement = refinementOf(before, [music({ filter: { b: 2, a: 1 }, action: 'play' })]);

    expect(refinement?.changed).toEqual([]);
  });
});
