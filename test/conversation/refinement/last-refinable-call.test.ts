import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCall } from '../../../shared/chat/chat-message';
import { lastRefinableCall } from '../../../shared/conversation/refinement/last-refinable-call';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';

const commandSet = compile(fixtureRegistration());

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify(args),
});
const user = (content: string): ChatMessage => ({ role: 'user', content });
const asks = (...calls: ToolCall[]): ChatMessage => ({
  role: 'assistant',
  content: null,
  toolCalls: calls,
});
const result = (toolCallId: string, content = '{"ok":true}'): ChatMessage => ({
  role: 'tool',
  toolCallId,
  content,
});
const says = (content: string): ChatMessage => ({ role: 'assistant', content, toolCalls: [] });
const retryNote: ChatMessage = { role: 'system', content: 'Fix the arguments.' };

const playJazz = call('call_play', 'music', { action: 'play', query: 'jazz' });
const playNext = call('call_next', 'music', {
  action: 'play',
  query: 'jazz',
  queue_option: 'next',
});
const timer = call('call_timer', 'set_timer', { duration_seconds: 60 });

describe('lastRefinableCall', () => {
  it.each<[string, ChatMessage[], string | null]>([
    ['no call yet', [user('hi'), says('Hello.')], null],
    [
      'a call the node ran and the model answered',
      [user('jazz'), asks(playJazz), result('call_play'), says('Playing.')],
      'call_play',
    ],
    ['a call still pending on the node', [user('jazz'), asks(playJazz)], null],
    [
      'a call closed unexecuted because the user moved on',
      [
        user('jazz'),
        asks(playJazz),
        result('call_play', '{"status":"not_executed"}'),
        user('stop'),
      ],
      null,
    ],
    [
      'a call the server answered as invalid within its turn',
      [
        user('jazz'),
        asks(playJazz),
        result('call_play', '{"error":"invalid"}'),
        retryNote,
        says('Sorry.'),
      ],
      null,
    ],
    [
      'a later call of a command without refinable parameters leaves it named',
      [
        user('jazz'),
        asks(playJazz),
        result('call_play'),
        says('Playing.'),
        user('timer'),
        asks(timer),
        result('call_timer'),
        says('Set.'),
      ],
      'call_play',
    ],
    [
      'the later of two refinable calls',
      [
        user('jazz'),
        asks(playJazz),
        result('call_play'),
        says('Playing.'),
        user('next'),
        asks(playNext),
        result('call_next'),
        says('Queued.'),
      ],
      'call_next',
    ],
    [
      'the refinable one of calls made together',
      [
        user('jazz and a timer'),
        asks(playJazz, timer),
        result('call_play'),
        result('call_timer'),
        says('Done.'),
      ],
      'call_play',
    ],
    [
      'a command the registration does not know',
      [user('x'), asks(call('call_x', 'unknown_tool', {})), result('call_x'), says('Done.')],
      null,
    ],
  ])('%s', (_label, messages, expectedId) => {
    // Act
    const found = lastRefinableCall(messages, commandSet);

    // Assess
    expect(found?.id ?? null).toBe(expectedId);
  });

  it('gives the arguments as the node got them and the refinable parameters in declared order', () => {
    const messages = [user('jazz'), asks(playNext), result('call_next'), says('Queued.')];

    expect(lastRefinableCall(messages, commandSet)).toEqual({
      id: 'call_next',
      name: 'music',
      arguments: { action: 'play', query: 'jazz', queue_option: 'next' },
      refinableParameters: ['queue_option', 'volume_level'],
    });
  });
});
