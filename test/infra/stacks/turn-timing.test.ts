import { describe, expect, it } from 'vitest';
import { parseDeploySettings } from '../../../infra/stacks/deploy-settings';
import { turnTiming } from '../../../infra/stacks/turn-timing';
import { functionLogicalId, voiceFunctions } from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

const lookup = (context: Record<string, unknown>) => (key: string) => context[key];

describe('the turn deadline drives every timeout of the stack', () => {
  it('a slow model: a 120 s deadline gives a 123 s function, API Gateway waits 180 s (streamed: 243 s and 244 s)', () => {
    const synthesized = sharedJccApp('slowModel');
    const template = synthesized.statelessTemplate;
    const functions = template.findResources('AWS::Lambda::Function');
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));

    expect(Object.keys(functions)).toHaveLength(voiceFunctions.length);
    for (const apiFunction of voiceFunctions) {
      const fn = functions[functionLogicalId(apiFunction)];
      expect(fn?.Properties.Timeout, apiFunction.id).toBe(apiFunction.streams ? 243 : 123);
      expect(fn?.Properties.Environment.Variables.TURN_DEADLINE_MS).toBe('120000');
    }
    for (const method of methods) {
      const integration = method.Properties.Integration;
      const streamed = integration.ResponseTransferMode === 'STREAM';
      expect(integration.TimeoutInMillis).toBe(streamed ? 244_000 : 180_000);
    }
  });

  it.each([
    [25_000, 53, 54],
    [120_000, 243, 244],
    // Lambda and a streamed integration stop at 15 minutes, whatever the deadline.
    [500_000, 900, 900],
  ])(
    'a streamed function of a %i ms deadline runs %i s, API Gateway waits %i s',
    (deadline, fn, api) => {
      const timing = turnTiming({ turnDeadlineMs: deadline, integrationTimeoutMs: 900_000 });

      expect(timing.streamedFunctionTimeout.toSeconds()).toBe(fn);
      expect(timing.streamedIntegrationTimeout.toSeconds()).toBe(api);
    },
  );

  it('refuses a deadline that leaves API Gateway no time to get the answer', () => {
    const result = parseDeploySettings(lookup({ turnDeadlineMs: 27_000 }));

    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues).toEqual([
      expect.stringMatching(
        /turnDeadlineMs \(27000\) must leave 3000 ms inside integrationTimeoutMs \(29000\)/,
      ),
    ]);
  });
});
