import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { WorkerIsolation } from '../shared/adapters/isolation/worker-isolation';
import { randomIds } from '../shared/adapters/system/system-clock';
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
const FULL_HISTORY_STEPS = 300;

async function exchangeMedian(work: UntrustedWork): Promise<number> {
  const stores = { store: new InMemoryConversationStore() };
  const latencies = await measureExchanges(stores, fixtureRegistration(), PLAN, work);
  return percentile(latencies.command, 0.5);
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

/** One step of a turn whose history is the whole stored budget (160 KB), in-thread or not. */
async function fullHistoryStepMedian(work: UntrustedWork): Promise<number> {
  const registration = fixtureRegistration();
  const commandSet = compileForEngine(registration);
  const commandSource = JSON.stringify(registration);
  const line = 'turn the kitchen lights on and tell me the weather for tomorrow please. ';
  const messages = Array.from({ length: 400 }, (_, index) =>
    index % 2 === 0
      ? { role: 'user' as const, content: line.repeat(6) }
      : { role: 'assistant' as const, content: line.repeat(6), toolCalls: [] },
  );
  const state = startTurn(messages, false);
  const context: TurnContext = {
    commandSet,
    settings: DEFAULT_ENGINE_SETTINGS,
    ids: randomIds,
    serverTools: { timezone: 'America/New_York', now: Date.UTC(2026, 0, 16), commandSet },
    home: null,
  };
  const modelReply = reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, 'call_w')]);
  const samples: number[] = [];
  for (let index = 0; index < FULL_HISTORY_STEPS + 20; index += 1) {
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
    const inThread = await exchangeMedian(inThreadWork);
    const isolated = await exchangeMedian(isolation);
    const stepInThread = await fullHistoryStepMedian(inThreadWork);
    const stepIsolated = await fullHistoryStepMedian(isolation);
    const startInThread = await startCpuMedian(inThreadWork);
    const startIsolated = await startCpuMedian(isolation);
    const worker = await bundledWorkerBoot();
    const deadline = await interrupted();
    const turns = `p50 of ${PLAN.measuredExchanges}, in-memory store`;
    return [
      {
        name: `isolation: voice/command turn in-thread (${turns})`,
        value: roundTo(inThread, 2),
        unit: 'ms',
      },
      {
        name: `isolation: voice/command turn, worker (${turns})`,
        value: roundTo(isolated, 2),
        unit: 'ms',
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
