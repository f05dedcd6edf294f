import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import {
  homeBytes,
  MAX_REGISTRATION_BYTES,
} from '../../shared/conversation/history/conversation-budget';
import { eventFor, useRealHandlers } from './handler-harness';

const handlers = useRealHandlers();
const START = '/api/v0/conversation/start';
const COMMAND = '/api/v0/voice/command';
const CONTINUE = '/api/v0/voice/command/continue';

const send = async (path: string, body: unknown) => {
  const response = await handlers().invoke(path, eventFor(path, JSON.stringify(body)));
  return { status: response.statusCode, json: JSON.parse(response.body) };
};
const store = () =>
  new DynamoDbConversationStore({
    client: handlers().database.client,
    tableName: handlers().database.tableName,
    clock: systemClock,
  });
const load = (conversationId: string) => store().load('fuzz-node', conversationId);
/** Incompressible text, so compression cannot hide a missing bound. */
const noise = (bytes: number) => randomBytes(bytes).toString('base64').slice(0, bytes);

/** A registration of `commands` timers, each described by `descriptionCharacters` of text. */
function registration(conversationId: string, commands: number, description: () => string) {
  return {
    conversation_id: conversationId,
    available_commands: Array.from({ length: commands }, (_, index) => ({
      command_name: `set_timer_${index}`,
      description: description(),
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
    })),
  };
}
const timerCalls = (count: number, round: number) => ({
  reply: {
    tool_calls: Array.from({ length: count }, (_, index) => ({
      id: `call_${round}_${index}`,
      name: 'set_timer_0',
      arguments: JSON.stringify({ duration_seconds: round * 100 + index + 1 }),
    })),
  },
});

describe('a conversation can never become unusable for its size (hostile row 5)', () => {
  it('rounds of 30 outputs of 8 KB: outputs are cut to their share; the turn hands out only calls whose results fit, so no continue is ever a 413, and the next utterance works', async () => {
    const id = `size-rounds-${Date.now()}`;
    expect(
      (
        await send(
          START,
          registration(id, 1, () => 'a timer'),
        )
      ).status,
    ).toBe(200);
    handlers().llm.reset();
    handlers().llm.enqueue(...Array.from({ length: 8 }, (_, round) => timerCalls(30, round + 1)), {
      reply: { content: 'All timers are set.' },
    });
    let answer = await send(COMMAND, { conversation_id: id, voice_command: 'thirty timers' });
    const handed: number[] = [];
    while (answer.status === 200 && answer.json.stop_reason === 'tool_calls') {
      handed.push(answer.json.tool_calls.length);
      const results = answer.json.tool_calls.map((call: { id: string }) => ({
        tool_call_id: call.id,
        output: noise(8_000),
      }));
      answer = await send(CONTINUE, { conversation_id: id, tool_results: results });
    }
    // Every continue answered; once the exchange had no room for more results, the turn said so
    // instead of handing out calls whose results could not come back.
    expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(200);
    expect(handed.slice(0, 2)).toEqual([30, 30]);
    expect(answer.json.stop_reason).toBe('complete');
    expect(answer.json.assistant_message).toContain('no room left');
    handlers().llm.reset();
    handlers().llm.enqueue({ reply: { content: 'Fine.' } });
    const next = await send(COMMAND, { conversation_id: id, voice_command: 'never mind' });
    expect(next.status).toBe(200);
    expect(next.json.assistant_message).toBe('Fine.');
  }, 60_000);

  it('row 5: 32 valid calls of 5-8 KiB arguments: the node gets only calls whose results fit, and its continue within the announced share answers', async () => {
    const id = `size-row5-${Date.now()}`;
    const started = await send(START, {
      conversation_id: id,
      available_commands: [
        {
          command_name: 'store_note',
          description: 'store a note',
          parameters: [{ name: 'text', type: 'string', required: true }],
        },
      ],
    });
    expect(started.status).toBe(200);
    handlers().llm.reset();
    const bigCalls = (round: number) => ({
      reply: {
        tool_calls: Array.from({ length: 32 }, (_, index) => ({
          id: `call_${round}_${index}`,
          name: 'store_note',
          arguments: JSON.stringify({ text: noise(5_000 + index * 96) }),
        })),
      },
    });
    handlers().llm.enqueue(bigCalls(1), bigCalls(2), bigCalls(3), { reply: { content: 'Done.' } });

    const answer = await send(COMMAND, { conversation_id: id, voice_command: 'store notes' });
    expect(answer.status).toBe(200);
    const calls: { id: string }[] = answer.json.tool_calls ?? [];
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThan(32);

    // Each result at the full share README announces (8,000 bytes, 32,000 together).
    const share = Math.min(8_000, Math.floor(32_000 / calls.length));
    const results = calls.map((call) => ({ tool_call_id: call.id, output: noise(share) }));
    const continued = await send(CONTINUE, { conversation_id: id, tool_results: results });
    expect(continued.status, JSON.stringify(continued.json).slice(0, 300)).toBe(200);
  }, 60_000);

  it('many multi-byte turns after a 129 KB registration: every turn answers 200 and the item stays under the cap', async () => {
    const id = `size-multibyte-${Date.now()}`;
    const started = await send(
      START,
      registration(id, 40, () => noise(3_300)),
    );
    expect(started.status).toBe(200);
    handlers().llm.reset();
    const words = '€😀ü'.repeat(500);
    for (let turn = 0; turn < 40; turn += 1) {
      handlers().llm.enqueue({ reply: { content: `${words} ${turn}` } });
      const answer = await send(COMMAND, {
        conversation_id: id,
        voice_command: `${words} ${turn}`,
      });
      expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(200);
    }
    const stored = await load(id);
    expect(stored?.messages.at(-1)).toMatchObject({ role: 'assistant', content: `${words} 39` });
  }, 120_000);

  it('a registration too large to store beside a history is a 413 at start, naming the limit', async () => {
    const id = `size-registration-${Date.now()}`;
    const commands = Math.ceil(MAX_REGISTRATION_BYTES / 3_900) + 1;
    const answer = await send(
      START,
      registration(id, commands, () => noise(3_900)),
    );

    expect(answer.status).toBe(413);
    expect(answer.json.error).toMatchObject({
      code: 'conversation_too_large',
      details: [{ part: 'registration', limit_bytes: MAX_REGISTRATION_BYTES }],
    });
    expect(await load(id)).toBeNull();
  });

  it('a home beside a registration near its limit: the start answers 200, the home takes only what is left, and turns keep working', async () => {
    // Prepare: a registration exactly 8,000 bytes under its limit, and 100 devices
    const id = `size-home-${Date.now()}`;
    const body = registration(id, 0, () => '');
    const sourceBytes = () =>
      Buffer.byteLength(
        JSON.stringify({ available_commands: body.available_commands, client_tools: [] }),
      );
    const target = MAX_REGISTRATION_BYTES - 8_000;
    const timer = (index: number, description: string) => ({
      command_name: `set_timer_${index}`,
      description,
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
    });
    while (sourceBytes() < target - 4_500) {
      body.available_commands.push(timer(body.available_commands.length, noise(3_900)));
    }
    const last = timer(body.available_commands.length, '');
    body.available_commands.push(last);
    last.description = noise(target - sourceBytes());
    const devices = Array.from({ length: 100 }, (_, index) => ({
      entity_id: `light.lamp_number_${index}`,
      name: `Lamp number ${index}`,
      area: `Room ${index % 7}`,
      state: 'off',
    }));
    const agents = { home_assistant: { device_controls: { light: devices } } };

    // Act
    const started = await send(START, { ...body, node_context: { agents } });

    // Assess
    expect(started.status, JSON.stringify(started.json).slice(0, 300)).toBe(200);
    expect(sourceBytes()).toBe(MAX_REGISTRATION_BYTES - 8_000);
    const stored = await load(id);
    expect(stored?.home?.prompt).toContain('light.lamp_number_0 "Lamp number 0"');
    expect(homeBytes(stored?.home)).toBeLessThanOrEqual(8_000);
    handlers().llm.reset();
    const words = '€😀ü'.repeat(500);
    for (let turn = 0; turn < 20; turn += 1) {
      handlers().llm.enqueue({ reply: { content: `${words} ${turn}` } });
      const answer = await send(COMMAND, {
        conversation_id: id,
        voice_command: `${words} ${turn}`,
      });
      expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(200);
    }
    // 20 turns of 9 KB are past the history's room: it was bounded, the home kept.
    const after = await load(id);
    expect(after?.messages.length).toBeLessThan(40);
    expect(after?.home).toEqual(stored?.home);
  }, 120_000);
});
