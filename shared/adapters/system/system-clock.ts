import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator, Randomness } from '../../ports/clock';

export const systemClock: Clock = { now: () => Date.now() };

/**
 * `call_` + 24 hex characters: unique, and short enough for every OpenAI-compatible server. Any
 * thread draws them alike (the isolation worker draws its own).
 */
export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}${randomUUID().replaceAll('-', '').slice(0, 24)}`,
  random: true,
};

/** The platform's randomness: enough for choosing among phrases, not for secrets. */
export const systemRandomness: Randomness = { next: () => Math.random() };
