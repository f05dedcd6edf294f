import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimDataDir,
  DataDirInUseError,
  findRunningStack,
  runningStackFile,
} from '../../../infra/local/running-stack';

const directories: string[] = [];
const dataDir = async () => {
  const directory = await mkdtemp(join(tmpdir(), 'jcc-running-stack-'));
  directories.push(directory);
  return directory;
};
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true });
});

/** The pid of a process that has exited: what a killed npm start leaves in its claim. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
};

/** Another live process: the parent of this test's process. */
const otherLivePid = process.ppid;

describe('claimDataDir', () => {
  it('refuses a DATA_DIR another live npm start holds, in one line naming DATA_DIR', async () => {
    // Prepare
    const directory = await dataDir();
    await claimDataDir(directory, otherLivePid);

    // Act
    const claiming = claimDataDir(directory);

    // Assess
    await expect(claiming).rejects.toThrow(DataDirInUseError);
    await expect(claiming).rejects.toThrow(
      `DATA_DIR (${directory}) is in use by another npm start (process ${otherLivePid}): stop it, ` +
        'or set DATA_DIR to another directory (DATA_DIR=memory keeps nothing); if no npm start ' +
        `runs, delete ${join(directory, 'npm-start.json')}`,
    );
  });

  it('takes over the claim of an npm start that died without releasing it', async () => {
    // Prepare
    const directory = await dataDir();
    await claimDataDir(directory, await deadPid());

    // Act
    await claimDataDir(directory);

    // Assess
    expect(await findRunningStack(directory)).toMatchObject({ pid: process.pid });
  });

  it('takes over a claim cut short while being written', async () => {
    // Prepare
    const directory = await dataDir();
    await writeFile(runningStackFile(directory), '{"pid": 12');

    // Act / Assess
    await expect(claimDataDir(directory)).resolves.toBeDefined();
  });

  it('tells the tools where the database of the running npm start listens, until released', async () => {
    // Prepare
    const directory = await dataDir();
    const claim = await claimDataDir(directory);

    // Act
    await claim.describe({ dynamoDbEndpoint: 'http://127.0.0.1:8123', tableName: 'jcc-local' });
    const running = await findRunningStack(directory);
    await claim.release();

    // Assess
    expect(running).toEqual({
      pid: process.pid,
      dynamoDbEndpoint: 'http://127.0.0.1:8123',
      tableName: 'jcc-local',
    });
    expect(await findRunningStack(directory)).toBeNull();
  });

  it('never releases a claim another process took over', async () => {
    // Prepare
    const directory = await dataDir();
    const claim = await claimDataDir(directory);
    await writeFile(runningStackFile(directory), JSON.stringify({ pid: otherLivePid }));

    // Act
    await claim.release();

    // Assess
    expect(JSON.parse(await readFile(runningStackFile(directory), 'utf8'))).toEqual({
      pid: otherLivePid,
    });
  });
});

describe('findRunningStack', () => {
  it('finds none on a DATA_DIR nobody claimed, or whose claimant died', async () => {
    // Prepare
    const unclaimed = await dataDir();
    const abandoned = await dataDir();
    await claimDataDir(abandoned, await deadPid());

    // Act / Assess
    expect(await findRunningStack(unclaimed)).toBeNull();
    expect(await findRunningStack(abandoned)).toBeNull();
  });
});
