import { type ApiRoute, apiRoute } from '../../../functions/http/api-routes';
import { LIMITS } from '../../../functions/http/request-schemas';
import { fixtureStartBody, textReply } from '../../http/http-fixtures';
import { LIMITED_NODE, multipartUpload, NODE } from './metrics-harness';
import { type Configurations, conversationId, expectStatus, HANG } from './scenario-support';
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
