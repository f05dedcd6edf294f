import { describe, expect, it } from 'vitest';
import {
  RequestAnswerNotKeptError,
  RequestIdReusedError,
} from '../../../shared/conversation/errors';
import {
  liveResponses,
  RECENT_RESPONSES_KEPT,
  RECENT_RESPONSES_MAX_BYTES,
  recordedOutcome,
  withRecordedResponse,
} from '../../../shared/conversation/idempotency/recent-responses';
import {
  handoffIdentity,
  requestIdentity,
} from '../../../shared/conversation/idempotency/request-identity';
import type { RecordedResponse } from '../../../shared/ports/conversation-store';
import { completeOutcome } from '../../support/complete-outcome';

const identity = (requestId: string, utterance = 'hello') => {
  const made = requestIdentity(requestId, 'voice_command', utterance);
  if (made === null) throw new Error('an id was given');
  return made;
};

/** Recorded at `now` by the save that made the conversation's version `now + 1`. */
const at = (now: number) => ({ now, conversationVersion: now + 1 });

/** `count` answered requests `r0`, `r1`, ..., oldest first. */
function answered(count: number, message = 'ok'): readonly RecordedResponse[] {
  let recent: readonly RecordedResponse[] = [];
  for (let index = 0; index < count; index += 1) {
    recent = withRecordedResponse(
      recent,
      identity(`r${index}`),
      completeOutcome(message),
      at(index),
    );
  }
  return recent;
}

describe('requestIdentity', () => {
  it('is null without a request id: nothing is recorded', () => {
    expect(requestIdentity(null, 'voice_command', 'hello')).toBeNull();
  });

  it('gives the same fingerprint to the same content in any key order', () => {
    const first = requestIdentity('r', 'continue', [{ toolCallId: 'a', output: { x: 1, y: 2 } }]);
    const second = requestIdentity('r', 'continue', [{ output: { y: 2, x: 1 }, toolCallId: 'a' }]);

    expect(first?.fingerprint).toBe(second?.fingerprint);
  });

  it.each([
    { name: 'another utterance', other: requestIdentity('r', 'voice_command', 'goodbye') },
    { name: 'the other route', other: requestIdentity('r', 'continue', 'hello') },
  ])('gives $name another fingerprint', ({ other }) => {
    expect(other?.fingerprint).not.toBe(
      requestIdentity('r', 'voice_command', 'hello')?.fingerprint,
    );
  });
});

describe('recordedOutcome', () => {
  it('is null for an id never answered', () => {
    expect(recordedOutcome(answered(2), identity('r9'), 2)).toBeNull();
  });

  it('returns the recorded outcome for the same id and body', () => {
    const recent = withRecordedResponse([], identity('r1'), completeOutcome('Done.'), at(0));

    expect(recordedOutcome(recent, identity('r1'), 1)).toEqual(completeOutcome('Done.'));
  });

  it('refuses the same id with another body instead of replaying the wrong answer', () => {
    const recent = withRecordedResponse(
      [],
      identity('r1', 'lights on'),
      completeOutcome('Done.'),
      at(0),
    );

    expect(() => recordedOutcome(recent, identity('r1', 'lights off'), 1)).toThrow(
      RequestIdReusedError,
    );
  });

  it("replays a node's request id whatever happened in the conversation since", () => {
    const recent = withRecordedResponse([], identity('r1'), completeOutcome('Done.'), at(0));

    expect(recordedOutcome(recent, identity('r1'), 7)).toEqual(completeOutcome('Done.'));
  });

  it('replays a stream handoff only at the version its save produced', () => {
    const handoff = handoffIdentity(['{"output":84,"toolCallId":"call_1"}']);
    const recent = withRecordedResponse([], handoff, completeOutcome('Done.'), at(4));

    expect(recordedOutcome(recent, handoff, 5)).toEqual(completeOutcome('Done.'));
    expect(recordedOutcome(recent, handoff, 6)).toBeNull();
  });

  it('never replays a stream handoff recorded before records carried their version', () => {
    const handoff = handoffIdentity(['{"output":84,"toolCallId":"call_1"}']);
    const { conversationVersion: _, ...legacy } = withRecordedResponse(
      [],
      handoff,
      completeOutcome('Done.'),
      at(4),
    )[0] as RecordedResponse;

    expect(recordedOutcome([legacy], handoff, 5)).toBeNull();
  });
});

describe('withRecordedResponse', () => {
  it(`keeps the latest ${RECENT_RESPONSES_KEPT}, oldest first`, () => {
    const recent = answered(RECENT_RESPONSES_KEPT + 3);

    expect(recent.map((entry) => entry.requestId)).toEqual(
      Array.from({ length: RECENT_RESPONSES_KEPT }, (_, index) => `r${index + 3}`),
    );
  });

  it('keeps the ids of the oldest without their answers when the answers grow past the budget', () => {
    const long = 'x'.repeat(RECENT_RESPONSES_MAX_BYTES / 3);

    const recent = answered(4, long);

    const characters = recent.reduce((sum, entry) => sum + entry.outcome.length, 0);
    expect(characters).toBeLessThanOrEqual(RECENT_RESPONSES_MAX_BYTES);
    expect(recent.map((entry) => entry.requestId)).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(recent[0]?.outcome).toBe('');
    expect(() => recordedOutcome(recent, identity('r0'), 9)).toThrow(RequestAnswerNotKeptError);
    expect(() => recordedOutcome(recent, identity('r3'), 9)).not.toThrow();
  });

  it('keeps the newest answer even when it alone is over the budget, the others as ids', () => {
    const huge = 'x'.repeat(RECENT_RESPONSES_MAX_BYTES * 2);

    const recent = withRecordedResponse(answered(2), identity('big'), completeOutcome(huge), at(9));

    expect(recent.map((entry) => entry.requestId)).toEqual(['r0', 'r1', 'big']);
    expect(recent.map((entry) => entry.outcome === '')).toEqual([true, true, false]);
  });

  it("drops every earlier stream handoff and keeps the node's request ids", () => {
    const first = handoffIdentity(['{"output":84,"toolCallId":"call_1"}']);
    const second = handoffIdentity(['{"output":85,"toolCallId":"call_2"}']);
    const handedOff = withRecordedResponse(answered(2), first, completeOutcome('Done.'), at(5));

    const recent = withRecordedResponse(handedOff, second, completeOutcome('Again.'), at(6));

    expect(recent.map((entry) => entry.requestId)).toEqual(['r0', 'r1', second.requestId]);
    expect(liveResponses(recent).map((entry) => entry.requestId)).toEqual(['r0', 'r1']);
  });

  it('keeps the stream handoff when asked to (a replay recorded without a save)', () => {
    const handoff = handoffIdentity(['{"output":84,"toolCallId":"call_1"}']);
    const handedOff = withRecordedResponse(answered(1), handoff, completeOutcome('Done.'), at(5));
    const when = { now: 7, conversationVersion: 6, keepHandoffs: true };

    const recent = withRecordedResponse(
      handedOff,
      identity('node-id'),
      completeOutcome('Done.'),
      when,
    );

    expect(recent.map((entry) => entry.requestId)).toEqual(['r0', handoff.requestId, 'node-id']);
    expect(recordedOutcome(recent, handoff, 6)?.assistantMessage).toBe('Done.');
  });
});
