import { percentile } from '../engine/percentile';
import { formatColumns } from '../format-table';
import type { InstantModelStats } from './instant-model';
import { LOAD_ROUTES, type LoadRecorder, type LoadRoute } from './load-recorder';
import type { StoreCheck } from './store-check';

/** What autocannon itself counted, beside the driver's own per-route figures. */
export interface DriverCounts {
  readonly timeouts: number;
  /** Connection errors, timeouts included. */
  readonly errors: number;
}

export interface LoadFigures {
  readonly recorder: LoadRecorder;
  readonly driver: DriverCounts;
  readonly model: InstantModelStats;
  readonly store: StoreCheck;
}

const milliseconds = (value: number): string => (Number.isNaN(value) ? '-' : value.toFixed(1));

function latencyRow(name: string, samples: readonly number[], failed: number): string[] {
  return [
    name,
    String(samples.length),
    String(failed),
    ...[0.5, 0.9, 0.99, 1].map((fraction) => milliseconds(percentile(samples, fraction))),
  ];
}

/** Failed responses (non-2xx) of one route. */
function failedOf(recorder: LoadRecorder, route: LoadRoute): number {
  let failed = 0;
  for (const [status, count] of recorder.statuses[route]) {
    if (status < 200 || status > 299) failed += count;
  }
  return failed;
}

/** Everything that makes the run fail; zero means a clean run. */
export function errorCount(figures: LoadFigures): number {
  const { recorder, driver, model, store } = figures;
  return (
    recorder.failedResponses +
    driver.errors +
    recorder.unexpected.length +
    model.protocolViolations +
    store.conversationsWithProblems
  );
}

/** Acknowledged utterances and tool results the store lacks. */
export const lostTurns = (store: StoreCheck): number => store.lostTurns + store.lostResults;

/** The report: latency per route, throughput, every kind of error, the store check. */
export function formatLoadReport(figures: LoadFigures): string {
  const { recorder, driver, model, store } = figures;
  const routes = Object.keys(LOAD_ROUTES) as LoadRoute[];
  const rows = routes.map((route) =>
    latencyRow(LOAD_ROUTES[route], recorder.latencies[route], failedOf(recorder, route)),
  );
  const all = routes.flatMap((route) => recorder.latencies[route]);
  rows.push(latencyRow('all', all, recorder.failedResponses));
  const table = formatColumns(
    ['route', 'responses', 'non-2xx', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    rows,
    new Set([1, 2, 3, 4, 5, 6]),
  );
  const seconds = recorder.elapsedMs / 1000;
  const exchanges = recorder.latencies.continue.length;
  const statuses = routes
    .flatMap((route) =>
      [...recorder.statuses[route]].map(([status, n]) => `${route} ${status}: ${n}`),
    )
    .join(', ');
  const lines = [
    table,
    '',
    `throughput: ${(recorder.responses / seconds).toFixed(0)} req/s (${recorder.responses} responses in ${seconds.toFixed(1)} s), ${(exchanges / seconds).toFixed(0)} exchanges/s, ${model.modelCalls} model calls`,
    `statuses: ${statuses}`,
    `errors: ${errorCount(figures)} (non-2xx ${recorder.failedResponses}, timeouts ${driver.timeouts}, connection errors ${driver.errors - driver.timeouts}, unexpected replies ${recorder.unexpected.length}, model protocol violations ${model.protocolViolations}, histories with problems ${store.conversationsWithProblems})`,
    ...recorder.unexpected
      .slice(0, 3)
      .map((entry) => `  unexpected ${entry.route}: ${entry.reason}`),
    ...(model.firstViolation === null ? [] : [`  model: ${model.firstViolation}`]),
    ...store.sampleProblems.map((problem) => `  history: ${problem}`),
    `store check: ${store.conversations} conversations read back, ${store.acknowledgedTurns} acknowledged turns, largest history ${store.largestHistoryCharacters} characters`,
    `  dropped by the history bound: ${store.droppedByBound}, stored without a 200: ${store.unacknowledgedTurns}`,
    `lost turns: ${lostTurns(store)} (utterances ${store.lostTurns}, tool results ${store.lostResults})`,
  ];
  return lines.join('\n');
}
