import { randomBytes } from 'node:crypto';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack';
import { STACK_VARIABLES } from '../../test/support/stack-variables';
import type { LoadNode } from './exchange-requests';
import { type InstantModel, startInstantModel } from './instant-model';

export interface LoadStack {
  readonly stack: LocalStack;
  readonly model: InstantModel;
  /** The registered nodes with their freshly generated keys (never printed). */
  readonly nodes: readonly LoadNode[];
  close(): Promise<void>;
}

/**
 * The local API in this process as `npm start` runs it (embedded dynalite in memory, the real
 * handler exports, free ports) against the instant scripted model, with `nodeCount` nodes whose
 * keys are random for this run.
 */
export async function startLoadStack(nodeCount: number): Promise<LoadStack> {
  const model = await startInstantModel();
  const credentials = Array.from(
    { length: nodeCount },
    (_, index) => `load-node-${index + 1}:${randomBytes(18).toString('base64url')}`,
  );
  // A developer's shell (a PORT, an OPENAI_API_KEY, a TURN_DEADLINE_MS) must not change the run.
  for (const name of STACK_VARIABLES) delete process.env[name];
  Object.assign(process.env, {
    PORT: '0',
    DYNAMODB_PORT: '0',
    DATA_DIR: 'memory',
    LOCAL_NODE_API_KEY: credentials.join(','),
    LOCAL_NODE_TIMEZONE: 'America/New_York',
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'sk-load-scripted',
    LLM_MODEL: 'scripted',
    // Speech in is not what this bench measures: no embedded recognizer (nor its download).
    STT_MODEL: 'none',
    // Far above what one node sends in this run: the per-node counter runs (and costs its write
    // per request, as deployed) but never refuses.
    NODE_RATE_LIMIT: '100000',
  });
  try {
    // The handlers wire themselves from process.env, so the stack gets process.env itself.
    const stack = await startLocalStack(process.env);
    const nodes = stack.nodes.map((node) => ({
      nodeId: node.nodeId,
      apiKey: `${node.nodeId}:${node.key}`,
    }));
    return {
      stack,
      model,
      nodes,
      close: async () => {
        await stack.close();
        await model.close();
      },
    };
  } catch (error) {
    await model.close();
    throw error;
  }
}

export interface SilencedOutput {
  /** Lines the service wrote at level WARN or above, the first few, for the report. */
  readonly warnings: readonly string[];
  readonly discardedWrites: number;
  restore(): void;
}

const KEPT_WARNINGS = 3;
const WARNING = /"level":"(WARN|ERROR|CRITICAL)"/;

/**
 * Discards what the service writes to stdout and stderr while the load runs (a Powertools log
 * line and metrics per request, as in Lambda, are still formatted) so a terminal's speed does
 * not become the figure. Powertools looks `write` up on every call, so replacing it suffices.
 */
export function silenceOutput(): SilencedOutput {
  const streams = [process.stdout, process.stderr] as const;
  const writes = streams.map((stream) => stream.write);
  const warnings: string[] = [];
  let discardedWrites = 0;
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      discardedWrites += 1;
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (warnings.length < KEPT_WARNINGS && WARNING.test(text)) warnings.push(text.trim());
      const callback = rest.at(-1);
      if (typeof callback === 'function') callback();
      return true;
    }) as typeof stream.write;
  }
  return {
    warnings,
    get discardedWrites() {
      return discardedWrites;
    },
    restore: () => {
      streams.forEach((stream, index) => {
        const original = writes[index];
        if (original !== undefined) stream.write = original;
      });
    },
  };
}
