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

  it('runs index.handler on Node 24, arm64, 1024 MB, 28 s (53 s if it streams), traced by X-Ray', () => {
    expect(resource().Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      // A streamed answer is a turn, then its speech: twice the 25 s deadline, and the margin.
      Timeout: route.streams ? 53 : 28,
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
    });
  });

  it('declares every handler variable, with no key in plain text', () => {
    // Prepare
    const variables = resource().Properties.Environment.Variables;

    // Act / Assess
    expect(Object.keys(variables).sort()).toEqual([...functionEnvironmentNames].sort());
    expect(variables.OPENAI_API_KEY).toBe('');
    // The model is Bedrock's by default: no key, no secret, the stack's region.
    expect(variables.OPENAI_API_KEY_SECRET).toBe('');
    expect(variables.OPENAI_BASE_URL).toBe('');
    expect(variables.MODEL_PROVIDER).toBe(route.callsModel ? 'bedrock' : '');
    expect(variables.LLM_MODEL).toBe(route.callsModel ? 'openai.gpt-oss-20b' : '');
    expect(variables.BEDROCK_REGION).toBe('');
    // Speech out through Polly unless told otherwise; no speech in without a server named.
    expect(variables.TTS_PROVIDER).toBe(route.speaks ? 'polly' : '');
    expect(variables.STT_BASE_URL).toBe('');
    expect(variables.STT_API_KEY_SECRET).toBe('');
    expect(variables.STT_API_KEY).toBe('');
    expect(variables.TTS_API_KEY).toBe('');
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

  it("has a role with no managed policy: its log group, the table, X-Ray, Bedrock's model if it calls it, Polly if it speaks", () => {
    // Prepare
    const roleId: string = resource().Properties.Role['Fn::GetAtt'][0];
    const logGroupId: string = resource().Properties.LoggingConfig.LogGroup.Ref;

    // Act
    const role = resourcesOfType('AWS::IAM::Role')[roleId];
    const statements = statementsOfRole(roleId);

    // Assess
    expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
    const expected = [
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
      // Bedrock's one inference action, on the account's projects in the stack's region; no secret.
      ...(route.callsModel
        ? [
            {
              Effect: 'Allow',
              Action: 'bedrock-mantle:CreateInference',
              Resource: {
                'Fn::Join': [
                  '',
                  [
                    'arn:',
                    { Ref: 'AWS::Partition' },
                    ':bedrock-mantle:',
                    { Ref: 'AWS::Region' },
                    ':',
                    { Ref: 'AWS::AccountId' },
                    ':project/*',
                  ],
                ],
              },
            },
          ]
        : []),
      // Polly, if it speaks through it: on `*` like X-Ray, so the CDK merges the two statements.
      {
        Effect: 'Allow',
        Action: [...(route.speaks ? ['polly:SynthesizeSpeech'] : []), ...xrayActions],
        Resource: '*',
      },
    ];
    // In any order: the CDK orders merged statements as it likes.
    expect(statements).toHaveLength(expected.length);
    expect(statements).toEqual(expect.arrayContaining(expected));
  });
});

describe('the default deploy (Bedrock, Polly)', () => {
  it('needs no Secrets Manager secret: none is read, none is granted', () => {
    const statements = Object.values(resourcesOfType('AWS::IAM::Policy')).flatMap(
      (policy): PolicyStatementJson[] => policy.Properties.PolicyDocument.Statement,
    );

    const actions = statements.flatMap((statement) => [statement.Action].flat());

    expect(actions.filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
    expect(JSON.stringify(synthesized.statelessTemplate.toJSON())).not.toContain(':secret:');
  });

  it('lets only the functions that call the model call Bedrock', () => {
    const callers = voiceFunctions.filter((fn) => fn.callsModel).map((fn) => fn.name);
    const roles = Object.entries(resourcesOfType('AWS::IAM::Role'))
      .filter(([roleId]) =>
        statementsOfRole(roleId).some((statement) =>
          [statement.Action].flat().includes('bedrock-mantle:CreateInference'),
        ),
      )
      .map(([, role]) => String(role.Properties.Description).split(':')[0]);

    expect(callers.length).toBeGreaterThan(0);
    expect(roles.sort()).toEqual(callers.sort());
  });
});

describe('the stateless stack IAM policies', () => {
  it("grant no wildcard action, and a wildcard resource only to X-Ray and Polly (which have no other) and Bedrock's projects", () => {
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
    expect(onAnyResource.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(
      voiceFunctions
        .flatMap((fn) => [
          ...(fn.callsModel ? ['bedrock-mantle:CreateInference'] : []),
          ...(fn.speaks ? ['polly:SynthesizeSpeech'] : []),
          ...xrayActions,
        ])
        .sort(),
    );
  });
});

describe('speech in through Amazon Transcribe (sttProvider: transcribe)', () => {
  const app = sharedJccApp('transcribe');
  const resources = (type: string) => app.statelessTemplate.findResources(type);
  const policiesOf = (roleLogicalId: string): PolicyStatementJson[] =>
    Object.values(resources('AWS::IAM::Policy'))
      .filter((policy) =>
        policy.Properties.Roles.some((role: unknown) =>
          JSON.stringify(role).includes(roleLogicalId),
        ),
      )
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);

  it('lets only the function that hears start a stream, on "*" (the action has no resource type)', () => {
    // Act
    const streaming = Object.entries(resources('AWS::IAM::Role'))
      .map(([roleId, role]) => ({
        name: String(role.Properties.Description).split(':')[0],
        statements: policiesOf(roleId).filter((statement) =>
          [statement.Action].flat().includes('transcribe:StartStreamTranscription'),
        ),
      }))
      .filter((role) => role.statements.length > 0);

    // Assess
    const hearing = voiceFunctions.filter((fn) => fn.hears).map((fn) => fn.name);
    expect(hearing.length).toBeGreaterThan(0);
    expect(streaming.map((role) => role.name).sort()).toEqual(hearing.sort());
    for (const role of streaming) {
      for (const statement of role.statements) {
        expect(statement.Resource).toBe('*');
        expect(statement.Effect).toBe('Allow');
      }
    }
    const actions = Object.values(resources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as PolicyStatementJson[]).flatMap((statement) =>
        [statement.Action].flat(),
      ),
    );
    expect(actions.filter((action) => action.startsWith('transcribe:'))).toEqual(
      hearing.map(() => 'transcribe:StartStreamTranscription'),
    );
    expect(actions.filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
  });

  it('tells the function that hears the provider and the language, no server and no secret', () => {
    for (const fn of voiceFunctions) {
      const variables =
        resources('AWS::Lambda::Function')[functionLogicalId(fn)]?.Properties.Environment.Variables;
      expect(variables).toMatchObject(
        fn.hears
          ? { STT_PROVIDER: 'transcribe', TRANSCRIBE_LANGUAGE: 'de-DE', STT_BASE_URL: '' }
          : { STT_PROVIDER: '', TRANSCRIBE_LANGUAGE: '' },
      );
      expect(variables.STT_API_KEY_SECRET).toBe('');
      expect(variables.TRANSCRIBE_REGION).toBe('');
    }
  });

  it('passes the cdk-nag AwsSolutions checks with no new acknowledgement', () => {
    expect(app.nag?.violations).toEqual([]);
    expect(app.nag?.success).toBe(true);
  });
});
