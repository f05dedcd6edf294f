import { randomBytes } from 'node:crypto';
import {
  LOCAL_MODEL_TURN_DEADLINE_MS,
  LOCAL_MODEL_WARMUP_TIMEOUT_MS,
} from '../../infra/local/local-model-timing';
import { startLocalStack } from '../../infra/local/local-stack';
import type { LatencyProfile } from '../../test/support/scripted-llm/latency-profile';
import {
  type LocalModelSimulator,
  type RecordedRequest,
  type ScriptStep,
  startScriptedLlmServer,
} from '../../test/support/scripted-llm-server';
import { STACK_VARIABLES } from '../../test/support/stack-variables';
import { silenceOutput } from '../load/load-stack';
import { localModelReply } from './local-model-replies';

/**
 * Modeled milliseconds per real one: the scripted server sleeps 1/20 of the modeled time, and
 * every setting that bounds a wait on the model (the turn deadline, the warm-up's timeout) is
 * divided by 20, so the API gives up at the same modeled moment. 20 keeps the scaled deadline
 * (2,250 ms) above the configuration's 1,000 ms floor.
 */
export const TIME_SCALE = 20;

/** The deadline a turn is measured against: what npm start gives a model on a local address. */
export const MODELED_DEADLINE_MS = LOCAL_MODEL_TURN_DEADLINE_MS;

/** And the warm-up's timeout. */
export const MODELED_WARMUP_TIMEOUT_MS = LOCAL_MODEL_WARMUP_TIMEOUT_MS;

export interface LocalModelStack {
  readonly url: string;
  readonly apiKey: string;
  readonly model: LocalModelSimulator;
  /** The requests the model server received, for the prompt of the first one. */
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * The local API of `npm start` in this process (dynalite in memory, the real handler exports)
 * against the scripted server with the latency model of `profile` on the scaled clock. The
 * handlers wire themselves once per process from process.env: run one per process.
 */
export async function startLocalModelStack(profile: LatencyProfile): Promise<LocalModelStack> {
  const server = await startScriptedLlmServer({ latency: { profile, timeScale: TIME_SCALE } });
  const model = server.latency;
  if (model === null) throw new Error('the scripted server started without its latency model');
  const step: ScriptStep = (request) => {
    // One step per request, however many the run makes.
    server.enqueue(step);
    return localModelReply(request);
  };
  server.enqueue(step);
  const key = `local-model-node:${randomBytes(18).toString('base64url')}`;
  for (const name of STACK_VARIABLES) delete process.env[name];
  Object.assign(process.env, {
    PORT: '0',
    DYNAMODB_PORT: '0',
    DATA_DIR: 'memory',
    LOCAL_NODE_API_KEY: key,
    LOCAL_NODE_TIMEZONE: 'America/New_York',
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'sk-local-model-scripted',
    LLM_MODEL: 'qwen3-0.6b-scripted',
    // Speech in is not what this bench measures: no embedded recognizer (nor its download).
    STT_MODEL: 'none',
    NODE_RATE_LIMIT: '0',
    TURN_DEADLINE_MS: String(Math.round(MODELED_DEADLINE_MS / TIME_SCALE)),
    WARMUP_TIMEOUT_MS: String(Math.round(MODELED_WARMUP_TIMEOUT_MS / TIME_SCALE)),
  });
  const silenced = silenceOutput();
  try {
    const stack = await startLocalStack(process.env);
    return {
      url: stack.url,
      apiKey: key,
      model,
      requests: server.requests,
      close: async () => {
        await stack.close();
        await server.close();
        silenced.restore();
      },
    };
  } catch (error) {
    silenced.restore();
    await server.close();
    throw error;
  }
}
