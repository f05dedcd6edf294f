import { describe, expect, it } from 'vitest';
import {
  type AfterChecks,
  type CheckedReply,
  decideAfterChecks,
} from '../../../shared/conversation/turn/decide-after-checks';

/** One valid node call and nothing else: a reply the node gets as it is. */
const CLEAN: CheckedReply = {
  invalid: 0,
  kept: 1,
  serverCalls: 0,
  refused: 0,
  refusedForRoom: 0,
  dropped: 0,
  retriesLeft: true,
};

interface Inputs {
  readonly case: string;
  readonly checked: Partial<CheckedReply>;
}

/**
 * One row per action, with the checks that lead to it. The boundaries of each rule sit in the
 * row of the action on their other side (one invalid call with or without a retry left, one
 * refusal that is not for room, one call dropped, ...). The table's type makes a new action a
 * type error here until it has its row.
 */
const ROWS: Readonly<Record<AfterChecks['type'], readonly Inputs[]>> = {
  ask_user: [
    { case: 'one invalid call, no retry left', checked: { invalid: 1, retriesLeft: false } },
    {
      case: 'invalid calls beside server tools and refusals, no retry left',
      checked: { invalid: 2, serverCalls: 1, refused: 3, dropped: 4, retriesLeft: false },
    },
    {
      case: 'one invalid call and nothing valid, no retry left',
      checked: { invalid: 1, kept: 0, retriesLeft: false },
    },
  ],
  say_no_room: [
    {
      case: 'the only call refused for room, no retry left',
      checked: { kept: 0, refused: 1, refusedForRoom: 1, retriesLeft: false },
    },
    {
      case: 'one of several refusals for room, calls dropped, no retry left',
      checked: { kept: 0, refused: 3, refusedForRoom: 1, dropped: 2, retriesLeft: false },
    },
  ],
  give_up: [
    {
      case: 'the only call refused by another limit, no retry left',
      checked: { kept: 0, refused: 1, retriesLeft: false },
    },
    {
      case: 'every call refused, none for room, calls dropped, no retry left',
      checked: { kept: 0, refused: 32, dropped: 8, retriesLeft: false },
    },
  ],
  hand_over_what_fits: [
    {
      case: 'one call fits, one refused for room, a retry left',
      checked: { refused: 1, refusedForRoom: 1 },
    },
    {
      case: 'one call fits, one refused for room, no retry left',
      checked: { refused: 1, refusedForRoom: 1, retriesLeft: false },
    },
  ],
  hand_over: [
    { case: 'valid calls within every limit, a retry left', checked: { kept: 2 } },
    { case: 'valid calls within every limit, no retry left', checked: { retriesLeft: false } },
    {
      case: 'valid calls, one refused by another limit, no retry left',
      checked: { refused: 1, retriesLeft: false },
    },
    {
      case: 'valid calls, refused for room and calls dropped, no retry left',
      checked: { refused: 1, refusedForRoom: 1, dropped: 1, retriesLeft: false },
    },
    {
      case: 'valid calls, calls dropped, no retry left',
      checked: { dropped: 1, retriesLeft: false },
    },
  ],
  ask_model_again: [
    { case: 'one invalid call, a retry left', checked: { invalid: 1 } },
    { case: 'a server tool ran', checked: { kept: 0, serverCalls: 1 } },
    {
      case: 'a server tool ran beside valid calls, no retry left',
      checked: { serverCalls: 1, retriesLeft: false },
    },
    {
      case: 'the only call refused for room, a retry left',
      checked: { kept: 0, refused: 1, refusedForRoom: 1 },
    },
    {
      case: 'the only call refused by another limit, a retry left',
      checked: { kept: 0, refused: 1 },
    },
    {
      case: 'valid calls, one refused by another limit, a retry left',
      checked: { refused: 1 },
    },
    {
      case: 'valid calls, one refused for room and one by another limit, a retry left',
      checked: { refused: 2, refusedForRoom: 1 },
    },
    {
      case: 'valid calls, refused for room and calls dropped, a retry left',
      checked: { refused: 1, refusedForRoom: 1, dropped: 1 },
    },
    { case: 'valid calls, calls dropped, a retry left', checked: { dropped: 1 } },
    {
      case: 'nothing valid, nothing refused, calls dropped, no retry left',
      checked: { kept: 0, dropped: 1, retriesLeft: false },
    },
  ],
};

describe('decideAfterChecks: what the turn does once a reply is checked', () => {
  describe.each(Object.entries(ROWS))('%s', (action, inputs) => {
    it.each(inputs)('$case', ({ checked }) => {
      // Act
      const next = decideAfterChecks({ ...CLEAN, ...checked });

      // Assess
      expect(next).toEqual({ type: action });
    });
  });
});
