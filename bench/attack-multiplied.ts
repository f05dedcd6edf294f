import { randomBytes } from 'node:crypto';
import { routePath } from '../functions/http/contract/api-routes';
import { multipliedRequestSample } from '../test/hardening/multiplied-requests';
import type { MeasuredRequest } from './request-cpu';
import type { ScriptedModelProcess } from './scripted-model-process';

/** The generated corpus of issue 18 item 8: the same fixed sample (seed 18) on every run. */
export const MULTIPLIED_SAMPLE_SIZE = 40;
const PLAIN = {
  available_commands: [
    { command_name: 'store_note', parameters: [{ name: 'text', type: 'string', required: true }] },
  ],
};

/** A scripted reply this big (as JSON) is over the model client's body limit. */
const BIG_REPLY_BYTES = 2 * 1024 * 1024;

export interface MultipliedWorst {
  readonly cpuMs: number;
  readonly name: string;
  /** Every CPU figure measured, for the median. */
  readonly samples: readonly number[];
  /** The CPU of the utterances whose script holds a reply over BIG_REPLY_BYTES. */
  readonly bigReplySamples: readonly number[];
}

type Post = (path: string, body: unknown) => Promise<number>;
/** Sends one request and measures what it cost the API. */
type Measure = (path: string, send: () => Promise<number>) => Promise<MeasuredRequest>;

/**
 * Sends each generated request: its registration (refused ones are measured too, then a plain
 * registration takes their place so that the replies still attack), then the utterance with the
 * generated replies scripted. Any status outside 2xx/4xx/502 stops the bench: it measured a bug.
 */
export async function attackWithMultipliedCorpus(
  post: Post,
  measure: Measure,
  model: ScriptedModelProcess,
  round: number,
): Promise<MultipliedWorst> {
  const worst = { cpuMs: 0, name: '' };
  const samples: number[] = [];
  const bigReplySamples: number[] = [];
  for (const hostile of multipliedRequestSample(MULTIPLIED_SAMPLE_SIZE)) {
    const conversationId = `multiplied-${round}-${randomBytes(6).toString('hex')}`;
    const start = routePath('conversation-start');
    const started = await measure(start, () =>
      post(start, { ...hostile.registration, conversation_id: conversationId }),
    );
    if (started.status !== 200) {
      expectAnswered(hostile.name, [400, 413, 422], started.status);
      expectAnswered(
        'plain',
        [200],
        await post(start, { ...PLAIN, conversation_id: conversationId }),
      );
    }
    await model.reset();
    await model.enqueue(...hostile.modelReplies);
    const request = hostile.request ?? { path: routePath('voice-command'), body: {} };
    const attack = await measure(request.path, () =>
      post(request.path, { conversation_id: conversationId, ...request.body }),
    );
    expectAnswered(hostile.name, [200, 502], attack.status);
    const big = hostile.modelReplies.some((step) => JSON.stringify(step).length > BIG_REPLY_BYTES);
    if (big) bigReplySamples.push(attack.cpuMs);
    for (const measured of [started, attack]) {
      samples.push(measured.cpuMs);
      if (measured.cpuMs > worst.cpuMs)
        Object.assign(worst, { cpuMs: measured.cpuMs, name: hostile.name });
    }
  }
  return { ...worst, samples, bigReplySamples };
}

function expectAnswered(name: string, expected: readonly number[], status: number): void {
  if (!expected.includes(status)) {
    throw new Error(`${name}: answered ${status}, not ${expected.join(' or ')}`);
  }
}
