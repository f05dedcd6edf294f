import { randomBytes } from 'node:crypto';
import { apiFunctions, routePath } from '../functions/http/contract/api-routes';
import { HOSTILE_REQUEST_CASES } from '../test/hardening/hostile-requests';
import { STACK_VARIABLES } from '../test/support/stack-variables';
import { attackWithMultipliedCorpus } from './attack-multiplied';
import { attackRows } from './attack-rows';
import type { BenchRow } from './bench-row';
import { startLambdaContainers } from './lambda-containers';
import { measureRequest } from './request-cpu';
import { startScriptedModelProcess } from './scripted-model-process';

const HEALTH_INTERVAL_MS = 10;
const COMMAND_PATH = routePath('voice-command');
/** The functions the corpora reach: every request goes to one of these. */
const ATTACKED_FUNCTIONS = [
  apiFunctions.conversationStart,
  apiFunctions.voiceCommand,
  apiFunctions.voiceCommandContinue,
];
const ROUNDS = 4;

/**
 * The hostile corpus (test/hardening/hostile-requests.ts) and the generated one sent over HTTP to
 * the local API of `npm start`, run in a process of its own: dynalite, the scripted model and this
 * client each run in another, so the API process's CPU is the server's alone, as a Lambda's is.
 * Each request is charged the API's CPU from its start until the API is idle again (work it left
 * running is its own). A last round, not measured for CPU, polls `/health` every 10 ms meanwhile
 * and reports its latency.
 */
export async function runAttackBench(): Promise<BenchRow[]> {
  const model = await startScriptedModelProcess();
  const key = randomBytes(18).toString('base64url');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STACK_VARIABLES) delete env[name];
  Object.assign(env, {
    PORT: '0',
    DATA_DIR: 'memory',
    LOCAL_NODE_API_KEY: `attack-node:${key}`,
    LOCAL_NODE_TIMEZONE: 'America/New_York',
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'sk-attack-scripted',
    LLM_MODEL: 'scripted',
    NODE_RATE_LIMIT: '0',
  });
  const api = await startLambdaContainers(env, ATTACKED_FUNCTIONS).catch(async (error) => {
    await model.close();
    throw error;
  });
  const post = (path: string, body: unknown, anonymous = false) =>
    fetch(api.url(path), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(anonymous ? {} : { 'x-api-key': `attack-node:${key}` }),
      },
      body: JSON.stringify(body),
    }).then((response) => response.arrayBuffer().then(() => response.status));
  /** The CPU of the container that serves `path`, the only one the request runs in. */
  const timedCpu = (path: string, send: () => Promise<number>) =>
    measureRequest(() => api.cpuMicros(path), send);
  const health: number[] = [];
  let attacking = false;
  let poller: Promise<void> = Promise.resolve();
  const pollHealth = async () => {
    while (attacking) {
      const startedAt = performance.now();
      await fetch(api.healthUrl(COMMAND_PATH)).then((response) => response.arrayBuffer());
      health.push(performance.now() - startedAt);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  };
  const worst = { cpuMs: 0, name: '' };
  // Each row's warm figures: the worst row's median says how much of its worst was its own work.
  const rowSamples = new Map<string, number[]>();
  // Issue 18's rows (multiplied knobs, the reply side) apart: the figure its decision quotes.
  const worstMultiplied = { cpuMs: 0, name: '' };
  let coldestMs = 0;
  // The generated corpus (test/hardening/multiplied-requests.ts), warm rounds only.
  const generated = { cpuMs: 0, name: '', samples: [] as number[], big: [] as number[] };
  try {
    for (let round = 0; round <= ROUNDS; round += 1) {
      // The last round polls /health: its requests then cost the API too, so none is counted.
      const healthRound = round === ROUNDS;
      if (healthRound) {
        attacking = true;
        poller = pollHealth();
      }
      for (const hostile of HOSTILE_REQUEST_CASES) {
        const conversationId = `attack-${round}-${randomBytes(6).toString('hex')}`;
        const start = routePath('conversation-start');
        const started = await timedCpu(start, () =>
          post(start, {
            ...hostile.registration,
            conversation_id: conversationId,
          }),
        );
        await model.reset();
        await model.enqueue(...hostile.modelReplies);
        const request = hostile.request;
        const attack =
          request === null
            ? started
            : await timedCpu(request.path, () =>
                post(
                  request.path,
                  { conversation_id: conversationId, ...request.body },
                  hostile.anonymous,
                ),
              );
        // A row answered otherwise (a 500, a 400 from an earlier check) measures another path.
        expectStatus(
          hostile.name,
          'start',
          request === null ? hostile.expectedStatuses : [200],
          started,
        );
        expectStatus(hostile.name, 'request', hostile.expectedStatuses, attack);
        // The first round pays the process's warm-up (module loading, JIT, the first handler
        // wiring): a Lambda container does that once in its init, not per request.
        if (round === 0) {
          coldestMs = Math.max(coldestMs, started.cpuMs, attack.cpuMs);
          continue;
        }
        if (healthRound) continue;
        // A row without a request is its start alone: one figure, not the same one twice.
        const steps =
          request === null
            ? [['start', started] as const]
            : ([
                ['start', started],
                ['request', attack],
              ] as const);
        for (const [step, measured] of steps) {
          const row = `${hostile.name}, its ${step}`;
          rowSamples.set(row, [...(rowSamples.get(row) ?? []), measured.cpuMs]);
          if (measured.cpuMs > worst.cpuMs)
            Object.assign(worst, { cpuMs: measured.cpuMs, name: row });
          const multiplied = /issue 18|every knob/.test(hostile.name);
          if (multiplied && measured.cpuMs > worstMultiplied.cpuMs) {
            Object.assign(worstMultiplied, { cpuMs: measured.cpuMs, name: hostile.name });
          }
        }
      }
      const sample = await attackWithMultipliedCorpus(
        (path, body) => post(path, body),
        timedCpu,
        model,
        round,
      );
      if (round === 0 || healthRound) continue;
      generated.samples.push(...sample.samples);
      generated.big.push(...sample.bigReplySamples);
      if (sample.cpuMs > generated.cpuMs)
        Object.assign(generated, { cpuMs: sample.cpuMs, name: sample.name });
    }
  } finally {
    attacking = false;
    await poller;
    await api.close();
    await model.close();
  }
  const worstRow = { ...worst, samples: rowSamples.get(worst.name) ?? [] };
  return attackRows({ worst: worstRow, worstMultiplied, generated, coldestMs, health });
}

function expectStatus(
  name: string,
  step: string,
  expected: readonly number[],
  measured: { readonly status: number },
): void {
  if (!expected.includes(measured.status)) {
    throw new Error(
      `${name}: the ${step} answered ${measured.status}, not ${expected.join(' or ')}`,
    );
  }
}
