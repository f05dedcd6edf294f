import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 (hex) of a node key: the only form in which a key is ever stored. */
export const hashNodeKey = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('hex');

/** A new node key: 32 random bytes, URL-safe base64 (43 characters). */
export const generateNodeKey = (): string => randomBytes(32).toString('base64url');

/** Parses `node_id:node_key[,node_id:node_key...]`; entries without both halves are reported. */
export function parseNodeCredentials(text: string): { nodeId: string; key: string }[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const separator = entry.indexOf(':');
      const nodeId = entry.slice(0, Math.max(separator, 0)).trim();
      const key = entry.slice(separator + 1).trim();
      if (separator <= 0 || nodeId === '' || key === '') {
        throw new Error(`"${entry.slice(0, 40)}" is not node_id:node_key`);
      }
      return { nodeId, key };
    });
}
