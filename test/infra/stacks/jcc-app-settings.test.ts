import { describe, expect, it } from 'vitest';
import { statefulStackName, statelessStackName } from '../../../infra/stacks/jcc-app';
import { functionLogicalId, voiceFunctions } from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

// As `cdk deploy -c key=value` passes them: strings, overriding cdk.json.
const synthesized = sharedJccApp('settings');

const resourcesOfType = (type: string) => synthesized.statelessTemplate.findResources(type);

describe('addJccStacks', () => {
  it('names the stacks JccStateful and JccStateless', () => {
    expect(synthesized.assembly.stacks.map((stack) => stack.stackName)).toEqual([
      statefulStackName,
      statelessStackName,
    ]);
    expect([statefulStackName, statelessStackName]).toEqual(['JccStateful', 'JccStateless']);
  });

  it('passes the model settings and the secret name to every function that calls the model', () => {
    // Prepare
    const functions = resourcesOfType('AWS::Lambda::Function');
    const callers = voiceFunctions.filter((fn) => fn.callsModel);

    // Act
    const environments = callers.map(
      (fn) => functions[functionLogicalId(fn)]?.Properties.Environment.Variables,
    );

    // Assess
    expect(environments.length).toBeGreaterThan(0);
    for (const variables of environments) {
      expect(variables).toMatchObject({
        OPENAI_API_KEY_SECRET: 'prod/jcc/openai',
        OPENAI_BASE_URL: 'https://llm.example.com/v1',
        LLM_MODEL: 'gpt-4.1',
      });
    }
  });

  it('subscribes the alarm e-mail to the alarm topic', () => {
    synthesized.statelessTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });

  it('grants the named secret only', () => {
    // Prepare / Act
    const template = JSON.stringify(synthesized.statelessTemplate.toJSON());

    // Assess
    expect(template).toContain(':secret:prod/jcc/openai-??????');
    expect(template).not.toContain('jcc/openai-api-key');
  });

  it('throttles the stage with the given figures', () => {
    synthesized.statelessTemplate.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [{ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 8 }],
    });
  });

  it('keeps every log group for the given number of days', () => {
    // Prepare / Act
    const retentions = Object.values(resourcesOfType('AWS::Logs::LogGroup')).map(
      (logGroup) => logGroup.Properties.RetentionInDays,
    );

    // Assess
    // One per function, and the access logs.
    expect(retentions).toEqual(Array(voiceFunctions.length + 1).fill(90));
  });

  it('leaves the account-wide API Gateway logging role alone when told to', () => {
    synthesized.statelessTemplate.resourceCountIs('AWS::ApiGateway::Account', 0);
    synthesized.statelessTemplate.resourceCountIs('AWS::IAM::Role', voiceFunctions.length);
  });
});
