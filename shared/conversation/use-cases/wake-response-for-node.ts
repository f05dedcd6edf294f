/**
 * wake-response:
 * 1. read the node's clock in its registered zone (UTC when it has none), at `now`;
 * 2. choose a greeting for that hour with the caller's random number. No model, no store.
 */
import { wakeGreeting } from '../acknowledgement/wake-greeting';
import { readClock, timeZoneOf } from '../time-zones';
import type { CallingNode } from './conversation-dependencies';
import { effectiveTimezone } from './effective-timezone';

/** The greeting `node` speaks on its wake word at `now` (epoch ms); `random` is in [0, 1). */
export function wakeResponseForNode(node: CallingNode, now: number, random: number): string {
  const zone = timeZoneOf(effectiveTimezone(node.timezone, null));
  const reading = zone === null ? null : readClock(zone, now);
  return wakeGreeting(reading?.hour ?? null, random);
}
