import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../../ports/clock';

export const systemClock: Clock = { now: () => Date.now() };

/** `call_` + 24 hex characters: unique, and short enough for every OpenAI-compatible server. */
export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}${randomUUID().replaceAll('-', '').slice(0, 24)}`,
};
