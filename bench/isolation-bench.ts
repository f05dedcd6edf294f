import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { WorkerIsolation } from '../shared/adapters/isolation/worker-isolation';
import { randomIds } from '../shared/adapters/system/system-clock';
import type { ChatMessage } from '../shared/chat/chat-message';
import { DEFAULT_ENGINE_SETTINGS } from '../shared/conversation/engine-settings';
import { inThreadWork } from '../shared/conversation/turn/in-thread-work';
import { startTurn, type TurnContext } from '../shared/conversation/turn/turn-state';
import type { UntrustedWork } from '../shared/conversation/turn/untrusted-work';
import { startConversation } from '../shared/conversation/use-cases/start-conversation';
import type { BenchRow } from './bench-row';
import { InMemoryConversationStore } from './engine/bench-stores';
import { compileForEngine, fixtureRegistration } from './engine/fixture-registration';
import { percentile, roundTo } from './engine/percentile';
import { reply, toolCall, WEATHER_ARGUMENTS } from './engine/scripted-replies';
import { measureExchanges } from './engine/turn-latency';
import { formatBenchTable } from './format-table';
import { BOOTS, bundledWorkerBoot, interrupted } from './isolation/worker-probes';

const PLAN = { warmupExchanges: 50, measuredExchanges: 500, exchangesPerConversation: 10 };
const STEPS = 300;

/** The voice/command half's p50, and the process's CPU per exchange (every thread, mean). */
async function exchangeFigures(work: UntrustedWork): Promise<{ p50: number; cpuMs: number }> {
  const stores = { store: new InMemoryConversationStore() };
  const before = process.cpuUsage();
  const latencies = await measureExchanges(stores, fixtureRegistration(), PLAN, work);
  const used = process.cpuUsage(before);
  const exchanges = PLAN.warmupExchanges + PLAN.measuredExchanges;
  return {
    p50: percentile(latencies.command, 0.5),
    cpuMs: (used.user + used.system) / 1000 / exchanges,
  };
}

const STARTS = 40;

/** conversation/start of a registration never seen (its compile not cached): the process's CPU. */
async function startCpuMedian(work: UntrustedWork): Promise<number> {
  const registration = fixtureRegistration();
  const dependencies = {
    store: new InMemoryConversationStore(),
    clock: { now: () => Date.UTC(2026, 0, 16) },
    settings: { ...DEFAULT_ENGINE_SETTINGS, warmUpTimeoutMs: 0 },
    model: null,
    untrustedWork: work,
  };
  const samples: number[] = [];
  for (let index = 0; index < STARTS + 5; index += 1) {
    // A new first description: a new hash, so both sides compile it afresh.
    const [first, ...rest] = registration.available_commands ?? [];
    const commands = [
      { ...(first as object), description: `variant ${work === inThreadWork}-${index}` },
      ...rest,
    ];
    const before = process.cpuUsage();
    await startConversation(dependencies as never, {
      node: { nodeId: 'bench-node', timezone: null, room: null },
      conversationId: `start-${index}`,
      requestTimezone: null,
      commands: { ...registration, available_commands: commands as never },
      skipWarmUp: true,
    });
    const used = process.cpuUsage(before);
    if (index >= 5) samples.push((used.user + used.system) / 1000);
  }
  return percentile(samples, 0.5);
}

/** A history of `length` exchanges of `repeat` sentences each way (400 of 6: the 160 KB budget). */
function history(length: number, repeat: number): ChatMessage[] {
  const line = 'turn the kitchen lights on and tell me the weather for tomorrow please. ';
  return Array.from({ length }, (_, index) =>
    index % 2 === 0
      ? { role: 'user' as const, content: line.repeat(repeat) }
      : { role: 'assistant' as const, content: line.repeat(repeat), toolCalls: [] },
  );
}

/**
 * One step of a turn on `messages`, in-thread or not, the model's call with `callId` (null: the
 * step draws one).
 */
async function stepMedian(
  work: UntrustedWork,
  messages: readonly ChatMessage[],
  callId: string | null,
): Promise<number> {
  const registration = fixtureRegistration();
  const commandSet = compileForEngine(registration);
  const commandSource = JSON.stringify(registration);
  const state = startTurn(messages, false);
  const context: TurnContext = {
    commandSet,
    settings: DEFAULT_ENGINE_SETTINGS,
    ids: randomIds,
    serverTools: { timezone: 'America/New_York', now: Date.UTC(2026, 0, 16), commandSet },
    home: null,
  };
  const modelReply = reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, callId)]);
  const samples: number[] = [];
  for (let index = 0; index < STEPS + 20; index += 1) {
    const started = performance.now();
    const action = await work.step(state, modelReply, context, commandSource);
    if (action.type !== 'finish') throw new Error(`the step ended with ${action.type}`);
    if (index >= 20) samples.push(performance.now() - started);
  }
  return percentile(samples, 0.5);
}

export async function runIsolationBench(): Promise<BenchRow[]> {
  const isolation = new WorkerIsolation();
  try {
    // Booted first: the figures are of a warm worker, as every request but a container's first.
    await isolation.compile(fixtureRegistration());
    const inThread = await exchangeFigures(inThreadWork);
    const isolated = await exchangeFigures(isolation);
    const stepInThread = await stepMedian(inThreadWork, history(400, 6), 'call_w');
    const stepIsolated = await stepMedian(isolation, history(400, 6), 'call_w');
    const drawInThread = await stepMedian(inThreadWork, history(20, 1), null);
    const drawIsolated = await stepMedian(isolation, history(20, 1), null);
    const startInThread = await startCpuMedian(inThreadWork);
    const startIsolated = await startCpuMedian(isolation);
    const worker = await bundledWorkerBoot();
    const deadline = await interrupted();
    const turns = `p50 of ${PLAN.measuredExchanges}, in-memory store`;
    return [
      {
        name: `isolation: voice/command turn in-thread (${turns})`,
        value: roundTo(inThread.p50, 2),
        unit: 'ms',
      },
      {
        name: `isolation: voice/command turn, worker (${turns})`,
        value: roundTo(isolated.p50, 2),
        unit: 'ms',
      },
      {
        name: 'isolation: process CPU per exchange (command + continue, starts included), in-thread',
        value: roundTo(inThread.cpuMs, 3),
        unit: 'ms CPU',
      },
      {
        name: 'isolation: the same, worker (both threads)',
        value: roundTo(isolated.cpuMs, 3),
        unit: 'ms CPU',
      },
      {
        name: 'isolation: one step, 160 KB history, in-thread p50',
        value: roundTo(stepInThread, 2),
        unit: 'ms',
      },
      {
        name: 'isolation: one step, 160 KB history, worker p50',
        value: roundTo(stepIsolated, 2),
        unit: 'ms',
      },
      {
        name: 'isolation: one step drawing an id (a call without one), 20 messages, in-thread p50',
        value: roundTo(drawInThread, 3),
        unit: 'ms',
      },
      {
        name: 'isolation: the same, worker p50',
        value: roundTo(drawIsolated, 3),
        unit: 'ms',
      },
      {
        name: `isolation: conversation/start, new 16-command registration, in-thread (CPU p50 of ${STARTS})`,
        value: roundTo(startInThread, 2),
        unit: 'ms CPU',
      },
      {
        name: 'isolation: the same start, worker (compiled there, then again here)',
        value: roundTo(startIsolated, 2),
        unit: 'ms CPU',
      },
      {
        name: `isolation: bundled worker boot (median of ${BOOTS})`,
        value: roundTo(worker.bootMs, 1),
        unit: 'ms',
      },
      {
        name: 'isolation: a 61 KB registration refused by the bound, in-thread',
        value: roundTo(deadline.inThreadMs, 1),
        unit: 'ms',
      },
      {
        name: 'isolation: the same, worker with a 50 ms deadline: refused after',
        value: roundTo(deadline.refusedAfterMs, 1),
        unit: 'ms',
      },
      { name: 'isolation: bundled worker size', value: roundTo(worker.sizeKb, 1), unit: 'KB' },
    ];
  } finally {
    await isolation.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatBenchTable(await runIsolationBench()));
}
