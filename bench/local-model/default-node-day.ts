import type { LocalModelClient, TimedCall } from './api-calls';
import type { LocalModelStack } from './local-model-stack';
import { exchange, expectStarted, freshModel, nextConversationId, totalMs } from './scenario-steps';

/** One utterance of the default node: its start, then the exchange. */
export interface NodeUtterance {
  readonly start: TimedCall;
  readonly exchange: readonly TimedCall[];
}

/**
 * The real node with its default settings (jarvis-node-setup): `skip_warmup_inference: true` and a
 * conversation/start before every utterance, six utterances in a row (each scripted exchange
 * once after the first, set_timer's again last) on a model server just started, with a command set the API's container has not warmed (a node's first utterance of the
 * day). The first start warms even though the node asked to skip; the following ones find it warm.
 */
export async function defaultNodeDay(
  stack: LocalModelStack,
  client: LocalModelClient,
  commandSet: string,
): Promise<readonly NodeUtterance[]> {
  await freshModel(stack);
  const utterances: NodeUtterance[] = [];
  for (let index = 0; index < 6; index += 1) {
    const id = nextConversationId();
    const start = expectStarted(
      await client.start(id, false, commandSet),
      index === 0 ? 'warmed' : 'recently_warmed',
    );
    utterances.push({ start, exchange: await exchange(client, id, index) });
  }
  return utterances;
}

/** The whole wait of an utterance: its start, its command and its continue. */
export const utteranceMs = (utterance: NodeUtterance): number =>
  utterance.start.modeledMs + totalMs(utterance.exchange);
