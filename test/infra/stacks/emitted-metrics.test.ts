import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../../functions/http/contract/api-routes';
import { routeSignals } from '../../../infra/stacks/observability/route-signals';
import { type CapturedOutput, captureProcessOutput } from '../../support/local-stack-harness';
import {
  alarmLines,
  dashboardLines,
  emittedLines,
  type MetricLine,
} from '../observability/metric-lines';
import { edgeOutcomes, routeOutcomes } from '../observability/route-scenarios';
import {
  type RunningConfigurations,
  startConfigurations,
} from '../observability/start-configurations';
import { sharedJccApp } from '../shared-jcc-apps';

/**
 * Every alarm and every graph line of the deployed stack watches a metric line (name and
 * dimensions) that the real handlers print when driven through the outcomes their routes can
 * reach locally; and every line they print is drawn, or listed here as deliberately not.
 */
const NOT_DRAWN: ReadonlySet<MetricLine> = new Set<MetricLine>([]);

/** Generous: the scenarios wait for a 5 s turn deadline, on a machine that may be busy. */
const SLOW_TEST_MS = 180_000;

let running: RunningConfigurations | undefined;
let output: CapturedOutput | undefined;

beforeAll(async () => {
  // Other files turn metrics off for their process; this one reads them.
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  running = await startConfigurations();
  // From here on, what the handlers print is kept: the metric lines among it.
  output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
}, SLOW_TEST_MS);

afterAll(async () => {
  output?.restore();
  await running?.close();
});

describe('driving every route through the outcomes it can reach', () => {
  it('has scenarios for every route of the table', () => {
    const missing = apiRoutes.filter((route) => routeOutcomes[route.name] === undefined);
    expect(missing.map((route) => route.name)).toEqual([]);
  });

  it.each(apiRoutes)(
    '$name',
    async (route) => {
      if (running === undefined) throw new Error('the handlers did not start');
      running.reset();
      await edgeOutcomes(running.configurations, route);
      await routeOutcomes[route.name]?.(running.configurations);
      expect(running.unexpectedRequests()).toEqual([]);
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

  it.each([
    ['llm_credentials_rejected', 'jcc-ModelCredentialsRejected'],
    ['llm_permission_denied', 'jcc-ModelAccessDenied'],
    ['llm_model_access_denied', 'jcc-ModelAccessDenied'],
    ['llm_throttled', 'jcc-ModelThrottled'],
  ])(
    'the model failure %s is drawn and alarmed on (%s) for every route that answers it',
    (code, alarm) => {
      const routes = apiRoutes.filter((route) => routeSignals(route).modelFailures);
      const lines = routes.map((route) => `Jcc ${code} route=${route.name},service=jcc`);
      const drawn = [...dashboardLines(synthesized()).values()].flatMap((set) => [...set]);
      expect(routes.map((route) => route.name)).toContain('voice-command');
      expect([...emitted()]).toEqual(expect.arrayContaining(lines));
      expect(drawn).toEqual(expect.arrayContaining(lines));
      expect([...(alarmLines(synthesized()).get(alarm) ?? [])]).toEqual(
        expect.arrayContaining(lines),
      );
    },
    SLOW_TEST_MS,
  );

  it.each([
    ['speech_credentials_rejected', 'jcc-SpeechInRefused'],
    ['speech_permission_denied', 'jcc-SpeechInRefused'],
    ['speech_throttled', 'jcc-SpeechInThrottled'],
  ])(
    'the speech refusal %s is drawn and alarmed on (%s) for the route that hears',
    (code, alarm) => {
      const routes = apiRoutes.filter((route) => routeSignals(route).speechRefusals);
      const lines = routes.map((route) => `Jcc ${code} route=${route.name},service=jcc`);
      const drawn = [...dashboardLines(synthesized()).values()].flatMap((set) => [...set]);
      expect(routes.map((route) => route.name)).toEqual(['media-transcribe']);
      expect([...emitted()]).toEqual(expect.arrayContaining(lines));
      expect(drawn).toEqual(expect.arrayContaining(lines));
      expect([...(alarmLines(synthesized()).get(alarm) ?? [])]).toEqual(
        expect.arrayContaining(lines),
      );
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
