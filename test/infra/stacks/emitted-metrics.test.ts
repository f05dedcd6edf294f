import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoute, apiRoutes } from '../../../functions/http/api-routes';
import { type RunningDynalite, startDynalite } from '../../support/dynalite';
import { type CapturedOutput, captureProcessOutput } from '../../support/local-stack-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../support/scripted-llm-server';
import {
  alarmLines,
  dashboardLines,
  emittedLines,
  type MetricLine,
} from '../observability/metric-lines';
import {
  createForeignTable,
  handlersFor,
  LIMITED_NODE,
  registerNodes,
} from '../observability/metrics-harness';
import {
  type Configurations,
  edgeOutcomes,
  expectStatus,
  routeOutcomes,
} from '../observability/route-scenarios';
import { sharedJccApp } from '../shared-jcc-apps';

/**
 * Every alarm and every graph line of the deployed stack watches a metric line (name and
 * dimensions) that the real handlers print when driven through the outcomes their routes can
 * reach locally; and every line they print is drawn, or listed here as deliberately not.
 */
const NOT_DRAWN: ReadonlySet<MetricLine> = new Set<MetricLine>([]);

/** Generous: the scenarios wait for a 5 s turn deadline, on a machine that may be busy. */
const SLOW_TEST_MS = 180_000;
const DEADLINE_MS = 5_000;
/** Any fixed instant: the rate limiter's window never turns over during the test. */
const FIXED_CLOCK = { now: () => Date.UTC(2026, 0, 16, 12) };

let database: RunningDynalite | undefined;
const llms: ScriptedLlmServer[] = [];
let configurations: Configurations | undefined;
let output: CapturedOutput | undefined;

beforeAll(async () => {
  // Other files turn metrics off for their process; this one reads them.
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  database = await startDynalite();
  const [llm, slowLlm] = await Promise.all([startScriptedLlmServer(), startScriptedLlmServer()]);
  llms.push(llm, slowLlm);
  const { client, tableName } = database;
  await registerNodes(client, tableName);
  const foreignTable = await createForeignTable(client);
  const model = { OPENAI_BASE_URL: llm.baseURL, LLM_MODEL: 'scripted' };
  configurations = {
    model: await handlersFor(database, tableName, model),
    llm,
    slow: await handlersFor(database, tableName, {
      OPENAI_BASE_URL: slowLlm.baseURL,
      LLM_MODEL: 'scripted',
      TURN_DEADLINE_MS: String(DEADLINE_MS),
      WARMUP_TIMEOUT_MS: '500',
    }),
    slowLlm,
    noModel: await handlersFor(database, tableName, {}),
    limited: await handlersFor(database, tableName, { NODE_RATE_LIMIT: '1' }, FIXED_CLOCK),
    storeDown: await handlersFor(database, 'jcc-missing-table', model),
    storeBug: await handlersFor(database, foreignTable, model),
  };
  output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
  // The limited node's one request of the window; every later one is a 429.
  const spent = await configurations.limited(apiRoute('date-context'), {
    key: `${LIMITED_NODE.nodeId}:${LIMITED_NODE.key}`,
    query: { timezone: 'UTC' },
  });
  expectStatus(spent, 200, 'the limited node’s one request');
}, SLOW_TEST_MS);

afterAll(async () => {
  output?.restore();
  await Promise.all([database?.close(), ...llms.map((llm) => llm.close())]);
});

describe('driving every route through the outcomes it can reach', () => {
  it('has scenarios for every route of the table', () => {
    const missing = apiRoutes.filter((route) => routeOutcomes[route.name] === undefined);
    expect(missing.map((route) => route.name)).toEqual([]);
  });

  it.each(apiRoutes)(
    '$name',
    async (route) => {
      if (configurations === undefined) throw new Error('the handlers did not start');
      await edgeOutcomes(configurations, route);
      await routeOutcomes[route.name]?.(configurations);
      expect(llms.flatMap((llm) => llm.unexpectedRequests)).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});

describe('the alarms and the dashboard of the synthesized stack', () => {
  const emitted = () => emittedLines(output?.lines ?? []);
  const ours = (lines: Iterable<MetricLine>) =>
    [...lines].filter((line) => line.startsWith('Jcc '));
  const synthesized = () => sharedJccApp('deployed').statelessTemplate;

  it(
    'every alarm reads only lines the handlers print',
    () => {
      const printed = emitted();
      for (const [alarm, lines] of alarmLines(synthesized())) {
        expect(
          ours(lines).filter((line) => !printed.has(line)),
          alarm,
        ).toEqual([]);
      }
    },
    SLOW_TEST_MS,
  );

  it(
    'every graph draws only lines the handlers print',
    () => {
      const printed = emitted();
      for (const [widget, lines] of dashboardLines(synthesized())) {
        expect(
          ours(lines).filter((line) => !printed.has(line)),
          widget,
        ).toEqual([]);
      }
    },
    SLOW_TEST_MS,
  );

  it(
    'every line the handlers print is drawn, or deliberately not',
    () => {
      const drawn = new Set(
        [...dashboardLines(synthesized()).values()].flatMap((lines) => [...lines]),
      );
      const undrawn = [...emitted()].filter((line) => !drawn.has(line) && !NOT_DRAWN.has(line));
      expect(undrawn.sort()).toEqual([]);
      expect(emitted().size).toBeGreaterThan(100);
    },
    SLOW_TEST_MS,
  );

  it(
    'warm-up failures are drawn and alarmed on',
    () => {
      const failed = 'Jcc warmup_failed route=conversation-start,service=jcc';
      expect(emitted()).toContain(failed);
      expect(alarmLines(synthesized()).get('jcc-ModelWarmUpFailures')).toContain(failed);
    },
    SLOW_TEST_MS,
  );
});
