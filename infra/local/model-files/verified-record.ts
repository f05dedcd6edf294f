import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { HubFile } from './hub-file';

/** What the cache knows of a verified file, beside it: a start trusts it without a request. */
export interface VerifiedRecord {
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly url: string;
}

async function readRecord(target: string): Promise<VerifiedRecord | null> {
  try {
    return JSON.parse(await readFile(`${target}.verified.json`, 'utf8')) as VerifiedRecord;
  } catch {
    return null;
  }
}

/** A cached file with its record, of the pinned digest and size when there are pins. */
export async function isVerified(target: string, file: HubFile): Promise<boolean> {
  const record = await readRecord(target);
  if (record === null) return false;
  const size = await stat(target).then(
    (stats) => stats.size,
    () => null,
  );
  return (
    size === record.sizeBytes &&
    (file.sha256 === undefined || file.sha256 === record.sha256) &&
    (file.sizeBytes === undefined || file.sizeBytes === record.sizeBytes)
  );
}

export async function writeRecord(target: string, record: VerifiedRecord): Promise<void> {
  await writeFile(`${target}.verified.json`, `${JSON.stringify(record, null, 2)}\n`);
}

export async function hashFile(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}
