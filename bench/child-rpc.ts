import { type ChildProcess, fork } from 'node:child_process';

/** A bench helper process (under tsx unless plain), asked by message, each answered by its id. */
export interface ChildRpc<Ready> {
  /** What the child sent once it was ready (its first message without an id). */
  readonly ready: Ready;
  /** Sends `{id, kind, ...extra}`; resolves with the child's `{id, ...answer}`. */
  call<Answer = unknown>(kind: string, extra?: object): Promise<Answer>;
  readonly process: ChildProcess;
}

/**
 * Forks `path` (under tsx unless `plain`) and waits for its ready message. A child that exits
 * before it is ready rejects; one that exits later leaves pending calls unanswered (the bench
 * then stops on its own checks).
 */
export async function forkChildRpc<Ready>(
  path: string,
  options: {
    readonly args?: readonly string[];
    readonly env?: NodeJS.ProcessEnv;
    /** Its standard output goes to /dev/null (a service's logs), its errors still show. */
    readonly quiet?: boolean;
    /** Plain JavaScript, run by Node alone (not under tsx), with these flags. */
    readonly plain?: { readonly nodeFlags: readonly string[] };
  } = {},
): Promise<ChildRpc<Ready>> {
  const child = fork(path, [...(options.args ?? [])], {
    execArgv: options.plain !== undefined ? [...options.plain.nodeFlags] : ['--import', 'tsx'],
    stdio: options.quiet === true ? ['ignore', 'ignore', 'inherit', 'ipc'] : 'inherit',
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const waiting = new Map<number, (answer: unknown) => void>();
  let nextId = 0;
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${path} exited (${code})`)));
    child.on('message', (message: { id?: number }) => {
      if (message.id === undefined) resolve(message as Ready);
      else waiting.get(message.id)?.(message);
    });
  });
  return {
    ready,
    process: child,
    call: <Answer>(kind: string, extra: object = {}) =>
      new Promise<Answer>((resolve) => {
        nextId += 1;
        const id = nextId;
        waiting.set(id, (answer) => {
          waiting.delete(id);
          resolve(answer as Answer);
        });
        child.send({ id, kind, ...extra });
      }),
  };
}
