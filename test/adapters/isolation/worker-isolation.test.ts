import { afterAll, describe, expect, it } from 'vitest';
import { type ArmDeadline, WorkerIsolation } from '../../../shared/adapters/isolation';
import { actionOf, portableAction } from '../../../shared/adapters/isolation/isolation-protocol';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { UntrustedWorkOverrunError } from '../../../shared/conversation/errors';
import { inThreadWork } from '../../../shared/conversation/turn/in-thread-work';
import { startTurn } from '../../../shared/conversation/turn/turn-state';
import {
  call,
  compile,
  fixtureRegistration,
  reply,
  turnContext,
} from '../../support/engine-fixtures';

const registration = fixtureRegistration();
const source = {
  available_commands: registration.available_commands ?? [],
  client_tools: registration.client_tools ?? [],
};
const commandSource = JSON.stringify(source);
/** No deadline: these tests are not about time, and a loaded machine must not fail them. */
const noDeadline: ArmDeadline = () => () => {};
const isolation = new WorkerIsolation({ armDeadline: noDeadline });
afterAll(() => isolation.close());

describe('WorkerIsolation: the same work as in-thread, on a worker', () => {
  it('a step decides as in-thread, with the ids of the caller’s generator in the same order', async () => {
    // Prepare: calls without ids, one invalid, so ids are drawn and a retry is written.
    const commandSet = compile(source);
    const modelReply = reply('On it.', [
      call('get_weather', { city: 'Paris' }, null),
      call('set_timer', { duration: 'soon' }, null),
      call('get_weather', { city: 'Rome' }, null),
    ]);
    const state = startTurn([{ role: 'user', content: 'weather and a timer' }], false);

    // Act
    const isolated = await isolation.step(
      state,
      modelReply,
      turnContext(commandSet),
      commandSource,
    );
    const inThread = await inThreadWork.step(
      state,
      modelReply,
      turnContext(commandSet),
      commandSource,
    );

    // Assess
    expect(isolated).toEqual(inThread);
    expect(JSON.stringify(isolated)).toContain('call_1');
  });

  it('only what a step added crosses back: the history it kept is the caller’s own messages', async () => {
    const commandSet = compile(source);
    const history: ChatMessage[] = Array.from({ length: 40 }, (_, index) => ({
      role: 'user',
      content: `earlier utterance ${index}`,
    }));
    const state = startTurn([...history, { role: 'user', content: 'weather in Paris' }], false);
    const modelReply = reply('On it.', [call('get_weather', { city: 'Paris' }, null)]);

    const isolated = await isolation.step(
      state,
      modelReply,
      turnContext(commandSet),
      commandSource,
    );
    const inThread = await inThreadWork.step(
      state,
      modelReply,
      turnContext(commandSet),
      commandSource,
    );

    expect(isolated).toEqual(inThread);
    // The same objects, not clones of them: they never crossed back.
    expect(isolated.state.messages.slice(0, state.messages.length)).toHaveLength(41);
    isolated.state.messages.slice(0, state.messages.length).forEach((message, index) => {
      expect(message).toBe(state.messages[index]);
    });
  });

  it('a step that did not keep the history as sent returns it whole', () => {
    const second: ChatMessage = { role: 'user', content: 'second' };
    const added: ChatMessage = { role: 'user', content: 'first, rewritten' };
    const sent: ChatMessage[] = [{ role: 'user', content: 'first' }, second];
    const rewritten: ChatMessage[] = [added, second];
    const state = { ...startTurn(rewritten, false), modelCalls: 1 };
    const action = { type: 'call_model', state, toolChoice: 'auto' } as const;

    const portable = portableAction(action, sent);

    expect(portable.state.messages).toEqual({ messages: rewritten });
    expect(actionOf(portable, sent)).toEqual(action);
    const appended = { ...action, state: { ...state, messages: [...sent, added] } };
    expect(portableAction(appended, sent).state.messages).toEqual({ kept: 2, added: [added] });
    expect(actionOf(portableAction(appended, sent), sent)).toEqual(appended);
  });

  it('a compile reports the same hash, and the same issues for a broken registration', async () => {
    const broken = { client_tools: [{ type: 'function', function: { name: 'x y' } }] };

    const [good, bad] = [await isolation.compile(source), await isolation.compile(broken as never)];

    expect(good).toEqual(await inThreadWork.compile(source));
    expect(bad).toEqual(await inThreadWork.compile(broken as never));
    expect(bad.ok).toBe(false);
  });
});

describe('WorkerIsolation: a miss costs one job', () => {
  it('a worker out of memory rejects the job with the memory limit; the process goes on', async () => {
    // Prepare: a heap that boots the worker but cannot hold the 64 MB history sent to it.
    const starved = new WorkerIsolation({
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
      armDeadline: noDeadline,
    });
    const commandSet = compile(source);
    const big = 'x'.repeat(1_000_000);
    const messages = Array.from({ length: 64 }, (_, index) => ({
      role: 'user' as const,
      content: `${index}${big}`,
    }));

    // Act
    const outcome = await starved
      .step(startTurn(messages, false), reply('ok'), turnContext(commandSet), commandSource)
      .catch((error: unknown) => error);
    await starved.close();

    // Assess
    expect(outcome).toBeInstanceOf(UntrustedWorkOverrunError);
    expect(outcome).toMatchObject({ work: 'turn' });
    expect((outcome as UntrustedWorkOverrunError).limit).toBe('memory');
  });

  it('after an overrun the next job runs on a fresh worker, booted before the error answers', async () => {
    let fire = true;
    let fired = 0;
    const once = new WorkerIsolation({
      armDeadline: (onOverrun, ms) => {
        if (!fire) return noDeadline(onOverrun, ms);
        fire = false;
        fired += 1;
        onOverrun();
        return () => {};
      },
    });

    const coldBefore = once.warm;
    const missed = await once.compile(source).catch((error: unknown) => error);
    // The request that overran paid for the boot: in Lambda, work after a response is frozen.
    const warmAfterMiss = once.warm;
    const next = await once.compile(source);
    await once.close();

    expect([coldBefore, warmAfterMiss, once.warm]).toEqual([false, true, false]);
    expect(fired).toBe(1);
    expect(missed).toMatchObject({ work: 'start', limit: 'time', limitMs: 2_000 });
    expect(next.ok).toBe(true);
  });
});
