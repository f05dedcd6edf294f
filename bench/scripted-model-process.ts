import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ScriptStep } from '../test/support/scripted-llm/script-types';

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
 * before the measured request starts: what `process.cpuUsage()` counts is the API's alone.
 */
export async function startScriptedModelProcess(): Promise<ScriptedModelProcess> {
  const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const waiting = new Map<number, () => void>();
  let nextId = 0;
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the scripted model exited (${code})`)));
    child.on('message', (message: { id?: number; baseURL?: string }) => {
      if (message.baseURL !== undefined) resolve(message.baseURL);
      if (message.id !== undefined) waiting.get(message.id)?.();
    });
  });
  const command = (kind: string, extra: object = {}) =>
    new Promise<void>((resolve) => {
      nextId += 1;
      const id = nextId;
      waiting.set(id, () => {
        waiting.delete(id);
        resolve();
      });
      child.send({ id, kind, ...extra });
    });
  return {
    baseURL,
    reset: () => command('reset'),
    enqueue: (...steps) => command('enqueue', { steps }),
    close: () => command('close'),
  };
}
