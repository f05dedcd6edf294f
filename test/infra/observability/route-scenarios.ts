import { expect } from 'vitest';
import { type ApiRoute, apiRoute } from '../../../functions/http/contract/api-routes';
import { LIMITS } from '../../../functions/http/contract/request-schemas';
import { fixtureStartBody, textReply } from '../../http/http-fixtures';
import { LIMITED_NODE, multipartUpload, NODE, type Send } from './metrics-harness';
import {
  type Configurations,
  conversationId,
  expectStatus,
  HANG,
  modelFailureOutcomes,
} from './scenario-support';
import { recording, speechOutcomes } from './speech-scenarios';
import { commandOutcomes, continueOutcomes } from './turn-scenarios';

/** Refusals every route can meet before it runs: a bad key, the rate limit, the registry failing. */
export async function edgeOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const takesBody = route.requestBody !== null || route.upload !== undefined;
  const body = takesBody ? {} : undefined;
  expectStatus(await c.model(route, { body, key: `${NODE.nodeId}:wrong` }), 401, '401');
  const limitedKey = `${LIMITED_NODE.nodeId}:${LIMITED_NODE.key}`;
  expectStatus(await c.limited(route, { body, key: limitedKey }), 429, '429');
  expectStatus(await c.storeDown(route, { body }), 503, 'registry unavailable');
  expectStatus(await c.storeBug(route, { body }), 500, 'registry read is a bug');
  if (route.upload !== undefined) {
    const noFile = await multipartUpload(recording(), 'not-file');
    const upload = { body: noFile.body, contentType: noFile.contentType };
    expectStatus(await c.speaking(route, upload), 400, 'no file part');
    expectStatus(await c.speaking(route, { body: {} }), 415, 'JSON instead of multipart');
    const large = await multipartUpload(new Uint8Array(route.upload.limitBytes + 1));
    const tooLarge = { body: large.body, contentType: large.contentType };
    expectStatus(await c.speaking(route, tooLarge), 413, 'over the upload limit');
    return;
  }
  if (!takesBody) return;
  expectStatus(await c.model(route, { body: {} }), 400, 'schema');
  expectStatus(await c.model(route, { body: 'hello', contentType: 'text/plain' }), 415, '415');
  const tooLarge = { padding: 'x'.repeat(LIMITS.bodyBytes) };
  expectStatus(await c.model(route, { body: tooLarge }), 413, '413');
}

/** A route's own outcomes beyond its edge, by route name; a route missing here fails the test. */
export const routeOutcomes: Readonly<Record<string, (c: Configurations) => Promise<void>>> = {
  'conversation-start': async (c) => {
    const route = apiRoute('conversation-start');
    const start = async (send: Send, label: string, warmUp: string, commands?: unknown[]) => {
      const registration = fixtureStartBody(conversationId(label));
      const body = {
        ...registration,
        ...(commands === undefined ? {} : { available_commands: commands }),
        skip_warmup_inference: false,
      };
      const response = await send(route, { body });
      expectStatus(response, 200, label);
      expect(JSON.parse(response.body).warmup, label).toBe(warmUp);
    };
    // WARMUP_TIMEOUT_MS=0: no warm-up at all.
    await start(c.model, 'skipped', 'skipped');
    c.llm.enqueue(textReply('Hi.'));
    await start(c.warming, 'warmed', 'warmed');
    // The same commands a moment later: this container's warm-up still holds.
    await start(c.warming, 'recently-warmed', 'recently_warmed');
    // Other commands: another prompt to warm, and the model refuses it.
    const fewer = (fixtureStartBody('any').available_commands as unknown[]).slice(1);
    c.llm.enqueue({ status: 400 });
    await start(c.warming, 'warm-up-failed', 'failed', fewer);
    c.slowLlm.enqueue(HANG);
    await start(c.slow, 'warm-up-timed-out', 'timed_out');
    await start(c.noModel, 'no-model', 'no_model');
  },
  'voice-command': (c) => commandOutcomes(c, apiRoute('voice-command'), 200),
  'voice-command-continue': (c) => continueOutcomes(c, apiRoute('voice-command-continue')),
  ...speechOutcomes,
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
    await modelFailureOutcomes(c, c.bedrock, route, { body });
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
