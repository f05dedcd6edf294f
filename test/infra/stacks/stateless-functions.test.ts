import { describe, expect, it } from 'vitest';
import { functionEnvironmentNames } from '../../../infra/stacks/function-environment';
import { tableActions } from '../../../infra/stacks/voice-function';
import { functionLogicalId, voiceFunctions } from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

interface PolicyStatementJson {
  readonly Action: string | readonly string[];
  readonly Resource: unknown;
  readonly Effect: string;
}

/** What active tracing needs; X-Ray offers no resource-level permission for them. */
const xrayActions = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'] as const;

const synthesized = sharedJccApp('deployed');

const resourcesOfType = (type: string) => synthesized.statelessTemplate.findResources(type);

/** Every statement of every inline policy attached to the role `roleLogicalId`. */
const statementsOfRole = (roleLogicalId: string): PolicyStatementJson[] =>
  Object.values(resourcesOfType('AWS::IAM::Policy'))
    .filter((policy) =>
      policy.Properties.Roles.some((role: unknown) => JSON.stringify(role).includes(roleLogicalId)),
    )
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);

describe.each(voiceFunctions)('the $name function', (route) => {
  const resource = () => {
    const found = resourcesOfType('AWS::Lambda::Function')[functionLogicalId(route)];
    if (found === undefined) throw new Error(`no function ${functionLogicalId(route)}`);
    return found;
  };

  it('runs index.handler on Node 24, arm64, 1024 MB, 28 s, traced by X-Ray', () => {
    expect(resource().Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      Timeout: 28,
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
    });
  });

  it('declares every handler variable, with no OpenAI key in plain text', () => {
    // Prepare
    const variables = resource().Properties.Environment.Variables;

    // Act / Assess
    expect(Object.keys(variables).sort()).toEqual([...functionEnvironmentNames].sort());
    expect(variables.OPENAI_API_KEY).toBe('');
    expect(variables.OPENAI_API_KEY_SECRET).toBe(route.callsModel ? 'jcc/openai-api-key' : '');
    expect(variables.TABLE_NAME).toEqual({
      'Fn::ImportValue': expect.stringMatching(/^JccStateful:/),
    });
  });

  it('logs to its own log group, kept 30 days', () => {
    // Prepare
    const logGroupId: string = resource().Properties.LoggingConfig.LogGroup.Ref;

    // Act
    const logGroup = resourcesOfType('AWS::Logs::LogGroup')[logGroupId];

    // Assess
    expect(logGroup?.Properties.RetentionInDays).toBe(30);
  });

  it('has a role with no managed policy: its log group, the table, X-Ray, the secret if it calls the model', () => {
    // Prepare
    const roleId: string = resource().Properties.Role['Fn::GetAtt'][0];
    const logGroupId: string = resource().Properties.LoggingConfig.LogGroup.Ref;

    // Act
    const role = resourcesOfType('AWS::IAM::Role')[roleId];
    const statements = statementsOfRole(roleId);

    // Assess
    expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
      },
      {
        Effect: 'Allow',
        Action: [...tableActions].sort(),
        Resource: { 'Fn::ImportValue': expect.stringMatching(/^JccStateful:.*Table.*Arn/) },
      },
      ...(route.callsModel
        ? [
            {
              Effect: 'Allow',
              Action: 'secretsmanager:GetSecretValue',
              Resource: {
                'Fn::Join': ['', expect.arrayContaining([':secret:jcc/openai-api-key-??????'])],
              },
            },
          ]
        : []),
      { Effect: 'Allow', Action: [...xrayActions], Resource: '*' },
    ]);
  });
});

describe('the stateless stack IAM policies', () => {
  it('grant no wildcard action, and a wildcard resource only to X-Ray (which has no other)', () => {
    // Prepare
    const statements = Object.values(resourcesOfType('AWS::IAM::Policy')).flatMap(
      (policy): PolicyStatementJson[] => policy.Properties.PolicyDocument.Statement,
    );

    // Act
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    const onAnyResource = statements.filter((statement) =>
      JSON.stringify(statement.Resource).includes('*'),
    );

    // Assess
    expect(statements.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
    expect(onAnyResource.flatMap((statement) => [statement.Action].flat())).toEqual(
      voiceFunctions.flatMap(() => [...xrayActions]),
    );
  });
});
