import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_ROUTES } from '../../bench/http-turn-bench';
import {
  type Posted,
  startTurnStack,
  TURN_NODE,
  type TurnStack,
} from '../../bench/http-turn-stack';
import { fixtureStartBody } from './http-fixtures';

/**
 * Each DynamoDB request is a network round trip in AWS (3–10 ms): how many a request makes, per
 * route and outcome, is guarded here (docs/benchmarks.md prints the same table). Each request as
 * `operation item`, the item named by its sort key's kind (NODE, RATE, CONVERSATION). The rate
 * window is written by the first request of a block (a twentieth of the limit: the stack's limit
 * is 100,000, so only the first request here writes it).
 */
const made = (posted: Posted): string[] =>
  posted.requests.map(({ operation, key }) => {
    const sortKey = key.split(' ')[1] ?? '';
    return `${operation} ${sortKey.split('#')[0] ?? ''}`;
  });

describe('DynamoDB requests per route and outcome (counted at the client)', () => {
  let stack: TurnStack;
  const conversationId = `per-route-${randomUUID()}`;
  const ask = (turn: number, requestId?: string) => ({
    conversation_id: conversationId,
    voice_command: `set a timer [turn ${turn}]`,
    ...(requestId === undefined ? {} : { request_id: requestId }),
  });
  const results = (asked: Posted, output: unknown, requestId?: string) => ({
    conversation_id: conversationId,
    tool_results: [
      { tool_call_id: (asked.body as { tool_calls: { id: string }[] }).tool_calls[0]?.id, output },
    ],
    ...(requestId === undefined ? {} : { request_id: requestId }),
  });

  beforeAll(async () => {
    stack = await startTurnStack();
  });
  afterAll(() => stack.close());

  it('start: the registry read (then cached), the rate window (a block), the conversation written', async () => {
    const started = await stack.post(TURN_ROUTES.start, fixtureStartBody(conversationId));

    expect(started.status).toBe(200);
    expect(made(started)).toEqual(['GetItem NODE', 'UpdateItem RATE', 'UpdateItem CONVERSATION']);
  });

  it('a turn without request ids: command reads and saves, continue claims and saves', async () => {
    const asked = await stack.post(TURN_ROUTES.command, ask(1));
    const answered = await stack.post(TURN_ROUTES.continue, results(asked, { success: true }));

    expect([asked.status, answered.status]).toEqual([200, 200]);
    expect(made(asked)).toEqual(['GetItem CONVERSATION', 'PutItem CONVERSATION']);
    expect(made(answered)).toEqual(['UpdateItem CONVERSATION', 'PutItem CONVERSATION']);
  });

  it('a turn with request ids: each request claims and saves; a replay claims and releases', async () => {
    const asked = await stack.post(TURN_ROUTES.command, ask(2, 'turn-2-command'));
    const body = results(asked, { success: true }, 'turn-2-continue');
    const answered = await stack.post(TURN_ROUTES.continue, body);
    const replayed = await stack.post(TURN_ROUTES.continue, body);

    expect([asked.status, answered.status, replayed.status]).toEqual([200, 200, 200]);
    expect(replayed.replayed).toBe(true);
    const claimAndSave = ['UpdateItem CONVERSATION', 'PutItem CONVERSATION'];
    expect(made(asked)).toEqual(claimAndSave);
    expect(made(answered)).toEqual(claimAndSave);
    expect(made(replayed)).toEqual(['UpdateItem CONVERSATION', 'UpdateItem CONVERSATION']);
  });

  it('a replayed voice/command with calls finds its refinement in the item it claimed', async () => {
    const asked = await stack.post(TURN_ROUTES.command, ask(9, 'turn-9-command'));
    const replayed = await stack.post(TURN_ROUTES.command, ask(9, 'turn-9-command'));

    expect([asked.status, replayed.status]).toEqual([200, 200]);
    expect(replayed.replayed).toBe(true);
    expect(made(replayed)).toEqual(['UpdateItem CONVERSATION', 'UpdateItem CONVERSATION']);
  });

  it('refusals after the claim release it; a held or missing conversation is read once', async () => {
    const asked = await stack.post(TURN_ROUTES.command, ask(3, 'turn-3-command'));
    await stack.post(TURN_ROUTES.continue, results(asked, { success: true }, 'turn-3-continue'));
    const late = await stack.post(
      TURN_ROUTES.continue,
      results(asked, { success: false }, 'turn-3-late'),
    );
    const held = await stack.store.claim(TURN_NODE.nodeId, conversationId, {
      requestId: 'another-request',
      fingerprint: 'another-body',
      heldUntil: Date.now() + 60_000,
    });
    const conflict = await stack.post(TURN_ROUTES.command, ask(4, 'turn-4-command'));
    if (held.claimed) await stack.store.release(TURN_NODE.nodeId, conversationId, held.token);
    const unknown = await stack.post(TURN_ROUTES.command, {
      ...ask(5),
      conversation_id: 'never-started',
    });

    expect([late.status, conflict.status, unknown.status]).toEqual([409, 409, 404]);
    expect(made(late)).toEqual(['UpdateItem CONVERSATION', 'UpdateItem CONVERSATION']);
    expect(made(conflict)).toEqual(['UpdateItem CONVERSATION', 'GetItem CONVERSATION']);
    expect(made(unknown)).toEqual(['GetItem CONVERSATION']);
  });
});
