import { fileURLToPath } from 'node:url';
import type { ScriptStep } from '../test/support/scripted-llm/script-types';
import { forkChildRpc } from './child-rpc';

/** The scripted model in a child process; every command resolves once the child has done it. */
export interface ScriptedModelProcess {
  readonly baseURL: string;
  reset(): Promise<void>;
  enqueue(...steps: ScriptStep[]): Promise<void>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./scripted-model-child.ts', import.meta.url));

/**
 * Starts `scripted-model-child.ts` under tsx. Steps cross as JSON (the corpora hold data only),
 * before the measured request starts: what the API's CPU meter counts is the API's alone.
 */
export async function startScriptedModelProcess(): Promise<ScriptedModelProcess> {
  const child = await forkChildRpc<{ baseURL: string }>(CHILD);
  return {
    baseURL: child.ready.baseURL,
    reset: () => child.call('reset').then(() => undefined),
    enqueue: (...steps) => child.call('enqueue', { steps }).then(() => undefined),
    close: () => child.call('close').then(() => undefined),
  };
}
