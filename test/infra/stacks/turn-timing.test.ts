import { describe, expect, it } from 'vitest';
import { parseDeploySettings } from '../../../infra/stacks/deploy-settings';
import { sharedJccApp } from '../shared-jcc-apps';

const lookup = (context: Record<string, unknown>) => (key: string) => context[key];

describe('the turn deadline drives every timeout of the stack', () => {
  it('a slow model: a 120 s deadline gives a 123 s function, API Gateway waits 180 s', () => {
    const synthesized = sharedJccApp('slowModel');
    const template = synthesized.statelessTemplate;
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));

    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      expect(fn.Properties.Timeout).toBe(123);
      expect(fn.Properties.Environment.Variables.TURN_DEADLINE_MS).toBe('120000');
    }
    for (const method of methods) {
      expect(method.Properties.Integration.TimeoutInMillis).toBe(180_000);
    }
  });

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
