import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ArmDeadline, WorkerIsolation } from '../../../shared/adapters/isolation';
import {
  actionOf,
  crossed,
  crossing,
  crossingAction,
  type WorkRequest,
} from '../../../shared/adapters/isolation/isolation-protocol';
import { randomIds } from '../../../shared/adapters/system/system-clock';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { UntrustedWorkOverrunError } from '../../../shared/conversation/errors';
import { inThreadWork } from '../../../shared/conversation/turn/in-thread-work';
import { startTurn } from '../../../shared/conversation/turn/turn-state';
import type { CompiledCommandSet } from '../../../shared/params';
import type { IdGenerator } from '../../../shared/ports/clock';
import type { ModelReply } from '../../../shared/ports/language-model';
import {
  call,
  compile,
  fixtureRegistration,
  reply,
  turnContext,
} from '../../support/engine-fixtures';

const registration = fixtureRegistration();
type Registration = { readonly commandSet: CompiledCommandSet; readonly commandSource: string };
const source = {
  available_commands: registration.available_commands ?? [],
  client_tools: registration.client_tools ?? [],
};
const commandSource = JSON.stringify(source);
/** The fixture with its first command described anew: another registration, another hash. */
const variant = (description: string) => ({
  ...source,
  available_commands: source.available_commands.map((command, index) =>
    index === 0 ? { ...(command as object), description } : command,
  ),
});
/** No deadline: these tests are not about time, and a loaded machine must not fail them. */
const noDeadline: ArmDeadline = () => () => {};
const isolation = new WorkerIsolation({ armDeadline: noDeadline });
afterAll(() => isolation.close());

/** What `act` returns, and every request posted to a worker (as the pool built it) meanwhile. */
async function postedDuring<T>(act: () => Promise<T>): Promise<[T, WorkRequest[]]> {
  const posted: WorkRequest[] = [];
  const postMessage = Worker.prototype.postMessage;
  const spy = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
    this: Worker,
    request: WorkRequest,
  ) {
    posted.push(request);
    return postMessage.call(this, request);
  });
  try {
    return [await act(), posted];
  } finally {
    spy.mockRestore();
  }
}

/** The same step on a worker and in this thread, each with a context of its own. */
async function stepBothWays(
  state: ReturnType<typeof startTurn>,
  modelReply: ModelReply,
  commandSet: CompiledCommandSet,
) {
  return {
    isolated: await isolation.step(state, modelReply, turnContext(commandSet), commandSource),
    inThread: await inThreadWork.step(state, modelReply, turnContext(commandSet), commandSource),
  };
}

/** A deadline that fires at once for the job armed after `fireNext()`, and never otherwise. */
function firedOnDemand(): { readonly armDeadline: ArmDeadline; fireNext(): void } {
  let fire = false;
  return {
    armDeadline: (onOverrun) => {
      if (fire) onOverrun();
      fire = false;
      return () => {};
    },
    fireNext: () => {
      fire = true;
    },
  };
}

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
    const { isolated, inThread } = await stepBothWays(state, modelReply, commandSet);

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

    const { isolated, inThread } = await stepBothWays(state, modelReply, commandSet);

    expect(isolated).toEqual(inThread);
    // The same objects, not clones of them: they never crossed back.
    expect(isolated.state.messages.slice(0, state.messages.length)).toHaveLength(41);
    isolated.state.messages.slice(0, state.messages.length).forEach((message, index) => {
      expect(message).toBe(state.messages[index]);
    });
  });

  it('a history crosses as the run of the held one it starts with, then the rest', () => {
    const [a, b, c, d]: ChatMessage[] = ['a', 'b', 'c', 'd'].map((content) => ({
      role: 'user',
      content,
    }));
    const held = [a, b, c] as ChatMessage[];
    // The oldest exchange dropped by the save, a new message added.
    const next = [b, c, d] as ChatMessage[];
    const rewritten = [{ role: 'user', content: 'a, rewritten' }, b] as ChatMessage[];

    expect(crossing(next, held)).toEqual({ from: 1, kept: 2, added: [d] });
    expect(crossed(crossing(next, held), held)).toEqual(next);
    expect(crossing(rewritten, held)).toEqual({ messages: rewritten });
    expect(crossing(next, null)).toEqual({ messages: next });
    expect(() => crossed({ from: 0, kept: 1, added: [] }, null)).toThrow();
    const state = { ...startTurn(next, false), modelCalls: 1 };
    const action = { type: 'call_model', state, toolChoice: 'auto' } as const;
    expect(actionOf(crossingAction(action, held), held)).toEqual(action);
  });

  it('the next step sends only what the worker does not hold; after a failed job, all of it', async () => {
    const commandSet = compile(source);
    const deadline = firedOnDemand();
    const steps = new WorkerIsolation({ armDeadline: deadline.armDeadline });
    const history: ChatMessage[] = Array.from({ length: 30 }, (_, index) => ({
      role: 'user',
      content: `earlier ${index}`,
    }));
    const ask = (messages: readonly ChatMessage[]) =>
      steps.step(
        startTurn(messages, false),
        reply('On it.', [call('get_weather', { city: 'Paris' }, null)]),
        turnContext(commandSet),
        commandSource,
      );

    const [{ first, next, second, third }, sent] = await postedDuring(async () => {
      const first = await ask(history);
      // What the next request sends: the history the step returned, its oldest message dropped.
      const next: ChatMessage[] = [
        ...first.state.messages.slice(1),
        { role: 'user', content: 'and Rome' },
      ];
      const second = await ask(next);
      // A job the worker fails (a registration that does not compile) leaves it no history.
      const failed = await steps
        .step(
          startTurn(second.state.messages, false),
          reply('ok'),
          turnContext({ ...commandSet, hash: 'never-compiled' }),
          '{',
        )
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(Error);
      expect((await ask(second.state.messages)).state.messages.length).toBeGreaterThan(0);
      deadline.fireNext();
      await ask(second.state.messages).catch(() => undefined);
      const third = await ask([...second.state.messages]);
      return { first, next, second, third };
    }).finally(() => steps.close());

    const crossings = sent
      .filter((request) => request.kind === 'step')
      .map((request) => request.state.messages);
    expect(crossings[0]).toEqual({ messages: history });
    expect(crossings[1]).toEqual({
      from: 1,
      kept: first.state.messages.length - 1,
      added: [{ role: 'user', content: 'and Rome' }],
    });
    // After the failed job, everything; the job that overran went to a worker now gone: the
    // fresh one is sent everything too.
    expect(crossings[3]).toEqual({ messages: second.state.messages });
    expect(crossings[5]).toEqual({ messages: second.state.messages });
    expect(second).toEqual(
      await inThreadWork.step(
        startTurn(next, false),
        reply('On it.', [call('get_weather', { city: 'Paris' }, null)]),
        turnContext(commandSet),
        commandSource,
      ),
    );
    expect(third.state.messages.slice(0, second.state.messages.length)).toEqual(
      second.state.messages,
    );
  });

  it('a registration crosses once per worker: again after the worker dropped it, or to a fresh one', async () => {
    // Prepare: three registrations, a worker that holds two.
    const deadline = firedOnDemand();
    const steps = new WorkerIsolation({ registrationsHeld: 2, armDeadline: deadline.armDeadline });
    const [a, b, c] = ['a', 'b', 'c'].map((name) => {
      const registration = variant(`registration ${name}`);
      return { commandSet: compile(registration), commandSource: JSON.stringify(registration) };
    }) as [Registration, Registration, Registration];
    const state = startTurn([{ role: 'user', content: 'weather in Paris' }], false);
    const modelReply = reply('On it.', [call('get_weather', { city: 'Paris' }, null)]);
    const ask = ({ commandSet, commandSource }: Registration) =>
      steps.step(state, modelReply, turnContext(commandSet), commandSource);

    // Act: a is used again before c comes, so b is the one dropped for c.
    const order = [a, a, b, a, c, b];
    const [answers, posted] = await postedDuring(async () => {
      const answers = [];
      for (const registration of order) answers.push(await ask(registration));
      deadline.fireNext();
      await ask(b).catch(() => undefined);
      answers.push(await ask(b));
      return answers;
    }).finally(() => steps.close());

    // Assess: the source crosses when the worker lacks it, with what the worker drops for it.
    const crossed = posted.flatMap((request) =>
      request.kind === 'step'
        ? [{ source: request.commandSource !== null, forget: request.forget }]
        : [],
    );
    const [hashA, hashB] = [a.commandSet.hash, b.commandSet.hash];
    expect(crossed).toEqual([
      { source: true, forget: [] },
      { source: false, forget: [] },
      { source: true, forget: [] },
      { source: false, forget: [] },
      { source: true, forget: [hashB] },
      { source: true, forget: [hashA] },
      // The job that overran: its worker held b; the fresh worker that follows holds nothing.
      { source: false, forget: [] },
      { source: true, forget: [] },
    ]);
    const inThread = (registration: Registration) =>
      inThreadWork.step(
        state,
        modelReply,
        turnContext(registration.commandSet),
        registration.commandSource,
      );
    for (const [index, registration] of [...order, b].entries())
      expect(answers[index]).toEqual(await inThread(registration));
  });

  it('a request that cannot be posted leaves no account behind: the next step still answers', async () => {
    // Prepare: a registration this worker never had, first used by a reply that cannot be cloned.
    const registration = variant('never posted');
    const commandSet = compile(registration);
    const registrationSource = JSON.stringify(registration);
    const state = startTurn([{ role: 'user', content: 'weather in Paris' }], false);
    const modelReply = reply('On it.', [call('get_weather', { city: 'Paris' })]);
    const uncloneable = { ...modelReply, extra: () => undefined };
    const ask = (sent: ModelReply) =>
      isolation.step(state, sent, turnContext(commandSet), registrationSource);

    // Act
    const refused = await ask(uncloneable).catch((error: unknown) => error);
    const next = await ask(modelReply);

    // Assess
    expect((refused as Error).name).toBe('DataCloneError');
    expect(next).toEqual(
      await inThreadWork.step(state, modelReply, turnContext(commandSet), registrationSource),
    );
  });

  it('random ids are drawn on the worker, never asked of the pool', async () => {
    // Prepare: calls without ids, so the step draws two.
    let asked = 0;
    const random: IdGenerator = {
      random: true,
      next: (prefix) => {
        asked += 1;
        return randomIds.next(prefix);
      },
    };
    const modelReply = reply('On it.', [
      call('get_weather', { city: 'Paris' }, null),
      call('get_weather', { city: 'Rome' }, null),
    ]);
    const state = startTurn([{ role: 'user', content: 'weather in Paris and Rome' }], false);
    const context = { ...turnContext(compile(source)), ids: random };

    // Act
    const action = await isolation.step(state, modelReply, context, commandSource);

    // Assess
    expect(asked).toBe(0);
    const drawn = new Set(JSON.stringify(action).match(/call_[0-9a-f]{24}/g));
    expect(drawn.size).toBe(2);
  });

  it('a job adds no listener to its worker: one per event, for the worker’s life', async () => {
    const commandSet = compile(source);
    const state = startTurn([{ role: 'user', content: 'weather in Paris' }], false);
    const modelReply = reply('On it.', [call('get_weather', { city: 'Paris' })]);
    const ask = () => isolation.step(state, modelReply, turnContext(commandSet), commandSource);
    await ask();
    const on = vi.spyOn(Worker.prototype, 'on');

    let added: readonly unknown[][] = [];
    try {
      await ask();
      await ask();
      added = [...on.mock.calls];
    } finally {
      on.mockRestore();
    }

    expect(added).toEqual([]);
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
