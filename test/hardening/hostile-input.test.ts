import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../functions/http/contract/api-routes';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { inThreadWork } from '../../shared/conversation/turn/in-thread-work';
import { startConversation } from '../../shared/conversation/use-cases/start-conversation';
import { type RunningDynalite, startDynalite } from '../support/dynalite';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../support/scripted-llm-server';
import { eventFor, type Invoke, realHandlers } from './handler-harness';
import { CONVERSATION_ID, request } from './hostile-input';

/** `npm test` runs a few thousand cases; `npm run fuzz` sets FUZZ_RUNS=100000. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);

let database: RunningDynalite;
let llm: ScriptedLlmServer;
let invoke: Invoke;
let store: DynamoDbConversationStore;

beforeAll(async () => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  [database, llm] = await Promise.all([startDynalite(), startScriptedLlmServer()]);
  invoke = await realHandlers(database, llm.baseURL);
  store = new DynamoDbConversationStore({
    client: database.client,
    tableName: database.tableName,
    clock: systemClock,
  });
  await startConversation(
    {
      store,
      clock: systemClock,
      settings: DEFAULT_ENGINE_SETTINGS,
      model: null,
      untrustedWork: inThreadWork,
    },
    {
      node: { nodeId: 'fuzz-node', timezone: null, room: null },
      conversationId: CONVERSATION_ID,
      requestTimezone: null,
      commands: {
        available_commands: [
          { command_name: 'set_timer', parameters: [{ name: 'duration_seconds', type: 'int' }] },
        ],
      },
    },
  );
});
afterAll(async () => {
  await Promise.all([database?.close(), llm?.close()]);
});

describe('hostile input through the real handlers', () => {
  it(`${RUNS} random requests: every answer is the route’s success or a 4xx with the JSON error body; rejected ones, and routes that never write, change nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ path, body, headers }) => {
        // The model answers every request that gets that far with a plain sentence.
        llm.reset();
        llm.enqueue({ reply: { content: 'Okay.' } });
        const before = await store.load('fuzz-node', CONVERSATION_ID);

        const response = await invoke(path, eventFor(path, body, headers));

        const status = response.statusCode;
        const route = apiRoutes.find((candidate) => candidate.path === path);
        // The stream routes answer their 202 JSON here (no speech is wired), and a speech route
        // that gets that far says it has no provider.
        const fallback = route !== undefined && 'fallback' in route ? route.fallback.status : null;
        const noSpeech = status === 503 && response.body.includes('"speech_not_configured"');
        const expected = status === route?.success.status || status === fallback || noSpeech;
        if (!(expected || (status >= 400 && status < 500))) {
          const violations = llm.protocolViolations.map((violation) => violation.message);
          throw new Error(
            `status ${status}: ${response.body} (model protocol violations: ${violations.join('; ')}; requests ${llm.requests.length}, unexpected ${llm.unexpectedRequests.length}, sizes ${llm.requests.map((r) => JSON.stringify(r.body).length).join(',')})`,
          );
        }
        expect(response.headers?.['Content-Type']).toBe('application/json');
        const parsed = JSON.parse(response.body) as {
          error?: { code: unknown; message: unknown; details: unknown };
        };
        if (response.statusCode >= 400) {
          expect(typeof parsed.error?.code).toBe('string');
          expect(typeof parsed.error?.message).toBe('string');
          expect(Array.isArray(parsed.error?.details)).toBe(true);
        }
        if (response.statusCode >= 400 || !route?.changesConversation) {
          expect(await store.load('fuzz-node', CONVERSATION_ID)).toEqual(before);
        }
      }),
      {
        numRuns: RUNS,
        endOnFailure: true,
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
  }, 600_000);
});
