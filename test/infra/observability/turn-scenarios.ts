import type { ApiRoute } from '../../../functions/http/contract/api-routes';
import { callsReply, textReply, toolCall } from '../../http/http-fixtures';
import { until } from './metrics-harness';
import {
  type Configurations,
  expectStatus,
  HANG,
  INVALID_CALL,
  modelFailureOutcomes,
  pending,
  results,
  started,
  VALID_CALL,
} from './scenario-support';

/** Every way a turn on voice/command (or its stream twin) ends, as ops must see them. */
export async function commandOutcomes(
  c: Configurations,
  route: ApiRoute,
  success: number,
): Promise<void> {
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
  await modelFailureOutcomes(c, c.bedrock, route, utter('Bedrock refuses'));
  expectStatus(await c.noModel(route, utter('no model')), 503, 'no model');
  const unknown = { body: { conversation_id: 'metrics-unknown', voice_command: 'hello' } };
  expectStatus(await c.model(route, unknown), 404, 'unknown conversation');
  await timeoutWhileInProgress(c, route, utter('slow', `slow-${route.name}`));
}

/** Every way a continue ends: answered, asked, replayed, refused, failed, timed out. */
export async function continueOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const answered = await pending(c, 'continue-complete');
  c.llm.enqueue(textReply('Five.'));
  expectStatus(await c.model(route, results(answered, 'once')), 200, 'complete');
  expectStatus(await c.model(route, results(answered, 'once')), 200, 'replayed');
  const other = { body: { ...results(answered, 'once').body, tool_results: [] } };
  expectStatus(await c.model(route, other), 400, 'no results');
  // Other results once the exchange is answered (the same ones would be a copy: replayed).
  const late = {
    body: { ...results(answered).body, tool_results: [{ tool_call_id: 'call_add', output: 6 }] },
  };
  expectStatus(await c.model(route, late), 409, 'nothing pending');
  const again = await pending(c, 'continue-calls');
  c.llm.enqueue(callsReply(toolCall('get_current_time', {})));
  expectStatus(await c.model(route, results(again)), 200, 'tool calls');
  const asked = await pending(c, 'continue-asks');
  c.llm.enqueue(INVALID_CALL, INVALID_CALL, INVALID_CALL);
  expectStatus(await c.model(route, results(asked)), 200, 'asks the user');
  const failing = await pending(c, 'continue-fails');
  c.llm.enqueue({ status: 400 });
  expectStatus(await c.model(route, results(failing)), 502, 'model failed');
  await modelFailureOutcomes(c, c.bedrock, route, results(failing));
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
export async function timeoutWhileInProgress(
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
