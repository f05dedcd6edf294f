import type { APIGatewayProxyResult } from 'aws-lambda';
import { expect } from 'vitest';
import { type ApiRoute, apiRoute } from '../../../functions/http/api-routes';
import { LIMITS } from '../../../functions/http/request-schemas';
import { callsReply, fixtureStartBody, textReply, toolCall } from '../../http/http-fixtures';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { LIMITED_NODE, NODE, type Send, until } from './metrics-harness';

/** The handlers of every function in each configuration a route's outcomes need. */
export interface Configurations {
  /** A scripted model, the default deadline and warm-up. */
  readonly model: Send;
  readonly llm: ScriptedLlmServer;
  /** A model that never answers, a short turn deadline and warm-up. */
  readonly slow: Send;
  readonly slowLlm: ScriptedLlmServer;
  /** No model configured. */
  readonly noModel: Send;
  /** One request per node and window, the window's one request spent. */
  readonly limited: Send;
  /** The registry's table does not exist: every key check fails as storage_unavailable. */
  readonly storeDown: Send;
  /** The registry's table has another key: every key check is a malformed request, a bug. */
  readonly storeBug: Send;
}

export const expectStatus = (response: APIGatewayProxyResult, status: number, what: string) =>
  expect(response.statusCode, `${what}: ${response.body}`).toBe(status);

const HANG = { hangMs: 120_000 } as const;
const VALID_CALL = toolCall('calculate', { num1: 2, num2: 3, operation: 'add' }, 'call_add');
const INVALID_CALL = callsReply(toolCall('calculate', { num1: 2, num2: 3, operation: 'power' }));

let sequence = 0;
const conversationId = (label: string) => {
  sequence += 1;
  return `metrics-${label}-${sequence}`;
};

/** A conversation of NODE (no warm-up), started through `send`. */
async function started(send: Send, label: string): Promise<string> {
  const id = conversationId(label);
  const body = { ...fixtureStartBody(id), skip_warmup_inference: true };
  expectStatus(await send(apiRoute('conversation-start'), { body }), 200, 'start');
  return id;
}

/** A conversation whose call `call_add` waits for the node's result. */
async function pending(c: Configurations, label: string): Promise<string> {
  const id = await started(c.model, label);
  c.llm.enqueue(callsReply(VALID_CALL));
  const body = { conversation_id: id, voice_command: 'add two and three' };
  expectStatus(await c.model(apiRoute('voice-command'), { body }), 200, 'pending call');
  return id;
}

/** Refusals every route can meet before it runs: a bad key, the rate limit, the registry failing. */
export async function edgeOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const body = route.requestBody === null ? undefined : {};
  expectStatus(await c.model(route, { body, key: `${NODE.nodeId}:wrong` }), 401, '401');
  const limitedKey = `${LIMITED_NODE.nodeId}:${LIMITED_NODE.key}`;
  expectStatus(await c.limited(route, { body, key: limitedKey }), 429, '429');
  expectStatus(await c.storeDown(route, { body }), 503, 'registry unavailable');
  expectStatus(await c.storeBug(route, { body }), 500, 'registry read is a bug');
  if (route.requestBody === null) return;
  expectStatus(await c.model(route, { body: {} }), 400, 'schema');
  expectStatus(await c.model(route, { body: 'hello', contentType: 'text/plain' }), 415, '415');
  const tooLarge = { padding: 'x'.repeat(LIMITS.bodyBytes) };
  expectStatus(await c.model(route, { body: tooLarge }), 413, '413');
}

/** A route's own outcomes beyond its edge, by route name; a route missing here fails the test. */
export const routeOutcomes: Readonly<Record<string, (c: Configurations) => Promise<void>>> = {
  'conversation-start': async (c) => {
    const route = apiRoute('conversation-start');
    const start = (label: string, skip = false) => ({
      body: { ...fixtureStartBody(conversationId(label)), skip_warmup_inference: skip },
    });
    expectStatus(await c.model(route, start('skipped', true)), 200, 'skipped warm-up');
    c.llm.enqueue(textReply('Hi.'));
    expectStatus(await c.model(route, start('warmed')), 200, 'warmed');
    c.llm.enqueue({ status: 400 });
    expectStatus(await c.model(route, start('warm-up-failed')), 200, 'warm-up failed');
    c.slowLlm.enqueue(HANG);
    expectStatus(await c.slow(route, start('warm-up-timed-out')), 200, 'warm-up timed out');
    expectStatus(await c.noModel(route, start('no-model')), 200, 'no model to warm up');
  },
  'voice-command': (c) => commandOutcomes(c, apiRoute('voice-command')),
  'voice-command-stream': (c) => commandOutcomes(c, apiRoute('voice-command-stream')),
  'voice-command-continue': (c) => continueOutcomes(c, apiRoute('voice-command-continue')),
  'voice-command-continue-stream': async (c) => {
    const route = apiRoute('voice-command-continue-stream');
    const body = { conversation_id: 'any', tool_results: [{ tool_call_id: 'x', output: 1 }] };
    expectStatus(await c.model(route, { body }), 202, 'use the blocking route');
  },
  'voice-acknowledge': async (c) => {
    const body = { voice_command: 'what is the weather' };
    expectStatus(await c.model(apiRoute('voice-acknowledge'), { body }), 200, 'acknowledged');
  },
  'wake-response': async (c) => {
    expectStatus(await c.model(apiRoute('wake-response')), 200, 'greeting');
  },
  chat: async (c) => {
    const route = apiRoute('chat');
    const body = { messages: [{ role: 'user', content: 'Summarise: sunny, 18 degrees.' }] };
    c.llm.enqueue(textReply('Sunny and mild.'));
    expectStatus(await c.model(route, { body }), 200, 'chat');
    c.llm.enqueue({ reply: { content: 'Sunny and', finish_reason: 'length' } });
    expectStatus(await c.model(route, { body }), 200, 'cut off');
    c.llm.enqueue({ status: 400 });
    expectStatus(await c.model(route, { body }), 502, 'model failed');
    expectStatus(await c.noModel(route, { body }), 503, 'no model');
    c.slowLlm.enqueue(HANG);
    expectStatus(await c.slow(route, { body }), 504, 'deadline');
  },
  'date-context': async (c) => {
    const route = apiRoute('date-context');
    expectStatus(await c.model(route, { query: { timezone: 'Europe/Berlin' } }), 200, 'dates');
    expectStatus(await c.model(route, { query: { timezone: 'Mars/Base' } }), 400, 'bad zone');
  },
};

/** Every way a turn on voice/command (or its stream twin) ends, as ops must see them. */
async function commandOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const success = route.success.status;
  const id = await started(c.model, route.name);
  const utter = (voice_command: string, request_id?: string) => ({
    body: { conversation_id: id, voice_command, ...(request_id ? { request_id } : {}) },
  });
  c.llm.enqueue(callsReply(VALID_CALL));
  expectStatus(await c.model(route, utter('add two and three')), success, 'tool calls');
  c.llm.enqueue(textReply('Five.'));
  expectStatus(await c.model(route, utter('what was that', 'once')), success, 'complete');
  expectStatus(await c.model(route, utter('what was that', 'once')), success, 'replayed');
  expectStatus(await c.model(route, utter('something else', 'once')), 422, 'id reused');
  c.llm.enqueue(INVALID_CALL, INVALID_CALL, INVALID_CALL);
  expectStatus(await c.model(route, utter('two to the three')), success, 'asks the user');
  c.llm.enqueue({ status: 400 });
  expectStatus(await c.model(route, utter('the model refuses')), 502, 'model failed');
  expectStatus(await c.noModel(route, utter('no model')), 503, 'no model');
  const unknown = { body: { conversation_id: 'metrics-unknown', voice_command: 'hello' } };
  expectStatus(await c.model(route, unknown), 404, 'unknown conversation');
  await timeoutWhileInProgress(c, route, utter('slow', `slow-${route.name}`));
}

/** Every way a continue ends: answered, asked, replayed, refused, failed, timed out. */
async function continueOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const results = (id: string, request_id?: string) => ({
    body: {
      conversation_id: id,
      tool_results: [{ tool_call_id: 'call_add', output: { result: 5 } }],
      ...(request_id ? { request_id } : {}),
    },
  });
  const answered = await pending(c, 'continue-complete');
  c.llm.enqueue(textReply('Five.'));
  expectStatus(await c.model(route, results(answered, 'once')), 200, 'complete');
  expectStatus(await c.model(route, results(answered, 'once')), 200, 'replayed');
  const other = { body: { ...results(answered, 'once').body, tool_results: [] } };
  expectStatus(await c.model(route, other), 400, 'no results');
  expectStatus(await c.model(route, results(answered)), 409, 'nothing pending');
  const again = await pending(c, 'continue-calls');
  c.llm.enqueue(callsReply(toolCall('get_current_time', {})));
  expectStatus(await c.model(route, results(again)), 200, 'tool calls');
  const asked = await pending(c, 'continue-asks');
  c.llm.enqueue(INVALID_CALL, INVALID_CALL, INVALID_CALL);
  expectStatus(await c.model(route, results(asked)), 200, 'asks the user');
  const failing = await pending(c, 'continue-fails');
  c.llm.enqueue({ status: 400 });
  expectStatus(await c.model(route, results(failing)), 502, 'model failed');
  expectStatus(await c.noModel(route, results(failing)), 503, 'no model');
  expectStatus(await c.model(route, results('metrics-unknown')), 404, 'unknown conversation');
  const reused = { body: { ...results(failing, 'once-more').body } };
  c.llm.enqueue(textReply('Five.'));
  expectStatus(await c.model(route, reused), 200, 'complete with an id');
  const changed = { body: { ...reused.body, tool_results: [{ tool_call_id: 'call_add' }] } };
  expectStatus(await c.model(route, changed), 422, 'id reused');
  const slow = await pending(c, 'continue-slow');
  await timeoutWhileInProgress(c, route, results(slow, `slow-${route.name}`));
}

/**
 * A turn whose model never answers ends in 504 at the short deadline; the same request id sent
 * while it runs is a 409 request_in_progress.
 */
async function timeoutWhileInProgress(
  c: Configurations,
  route: ApiRoute,
  request: { readonly body: unknown },
): Promise<void> {
  c.slowLlm.enqueue(HANG);
  const calls = c.slowLlm.requests.length;
  const first = c.slow(route, request);
  await until(() => c.slowLlm.requests.length, calls + 1);
  expectStatus(await c.slow(route, request), 409, 'in progress');
  expectStatus(await first, 504, 'turn timed out');
}
