import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a running `npm start` keeps in its DATA_DIR: which process holds it and where its
 * database listens. It claims DATA_DIR (dynalite's LevelDB files take one process: a second one
 * died later with `Database is closed`), and it tells `npm run node:add` where to write.
 */
export interface RunningStack {
  readonly pid: number;
  readonly dynamoDbEndpoint: string | null;
  readonly tableName: string | null;
}

export const runningStackFile = (dataDir: string): string => join(dataDir, 'npm-start.json');

/** Another `npm start` runs on this DATA_DIR; the message says what to change. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR (${dataDir}) is in use by another npm start (process ${pid}): stop it, or set ` +
        'DATA_DIR to another directory (DATA_DIR=memory keeps nothing); if no npm start runs, ' +
        `delete ${runningStackFile(dataDir)}`,
    );
  }
}

export interface DataDirClaim {
  /** Writes where the database listens, for the tools. */
  describe(details: Omit<RunningStack, 'pid'>): Promise<void>;
  /** Gives DATA_DIR up (only if this process still holds it). */
  release(): Promise<void>;
}

/**
 * Claims DATA_DIR for this process; throws DataDirInUseError while another live process holds
 * it. A claim left by a process that died (SIGKILL, a crash) is taken over.
 */
export async function claimDataDir(dataDir: string, pid = process.pid): Promise<DataDirClaim> {
  const file = runningStackFile(dataDir);
  const write = (stack: RunningStack) => writeFile(file, `${JSON.stringify(stack)}\n`);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify({ pid, dynamoDbEndpoint: null, tableName: null }));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = await readRunningStack(file);
      if (holder !== null && holder.pid !== pid && isAlive(holder.pid)) {
        throw new DataDirInUseError(dataDir, holder.pid);
      }
      await rm(file, { force: true });
    }
  }
  return {
    describe: (details) => write({ pid, ...details }),
    release: async () => {
      if ((await readRunningStack(file))?.pid === pid) await rm(file, { force: true });
    },
  };
}

/** The `npm start` running on DATA_DIR, or null when none is (or its claim is stale). */
export async function findRunningStack(dataDir: string): Promise<RunningStack | null> {
  const stack = await readRunningStack(runningStackFile(dataDir));
  return stack !== null && isAlive(stack.pid) ? stack : null;
}

async function readRunningStack(file: string): Promise<RunningStack | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('pid' in parsed)) return null;
    const { pid, dynamoDbEndpoint, tableName } = parsed as Record<string, unknown>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
    return {
      pid,
      dynamoDbEndpoint: typeof dynamoDbEndpoint === 'string' ? dynamoDbEndpoint : null,
      tableName: typeof tableName === 'string' ? tableName : null,
    };
  } catch {
    // Missing, or cut short by a crash while writing: nobody holds DATA_DIR.
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
