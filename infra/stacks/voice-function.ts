import { join } from 'node:path';
import { CfnResource, type Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { handlerCode } from '../bundling/handler-code';
import { lambdaHandlerName } from './function-bundling';
import { acknowledgeFunctionRoleFindings } from './nag-acknowledgements';
import { type ApiFunction, functionLogicalId, repositoryRoot } from './voice-routes';

export const functionRuntime = Runtime.NODEJS_24_X;
export const functionMemoryMb = 1024;

/**
 * The table operations the store, registry and request-lock adapters use; nothing that queries,
 * scans or batches (every item is read by its full key).
 */
export const tableActions = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/** What a function needs of the table (in another stack): its name and ARN. */
export interface TableReference {
  readonly tableName: string;
  readonly tableArn: string;
}

export interface VoiceFunctionProps {
  /** The function of the route table this construct deploys. */
  readonly apiFunction: ApiFunction;
  readonly environment: Readonly<Record<string, string>>;
  readonly table: TableReference;
  /**
   * The secrets it may read, each once per container: the model's key (a function that calls
   * the model), the transcription server's (one that hears), the speech server's (one that
   * speaks through an OpenAI-compatible server). Empty for the others.
   */
  readonly secrets: readonly ISecret[];
  /** It speaks through Amazon Polly: its role may call `polly:SynthesizeSpeech`. */
  readonly speaksWithPolly: boolean;
  /** It hears through Amazon Transcribe: its role may call `transcribe:StartStreamTranscription`. */
  readonly hearsWithTranscribe: boolean;
  /**
   * The region of the Bedrock model it calls (a token for the stack's own); null when it calls
   * none. Its role may then call `bedrock-mantle:CreateInference` there (bedrockInferenceStatement).
   */
  readonly bedrockRegion: string | null;
  readonly logRetention: RetentionDays;
  /** The Lambda timeout, derived from the turn deadline (turn-timing.ts). */
  readonly timeout: Duration;
}

/**
 * One handler as a Lambda function with its own log group and a role that can do exactly what
 * the handler does: write its logs, use the table, read the secrets of the keys it uses, call
 * Polly if it speaks through it, Transcribe if it hears through it, and send its traces to X-Ray.
 */
export class VoiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: VoiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Our own role instead of the default one: the default attaches the managed
    // AWSLambdaBasicExecutionRole, which may write to any log group in the account.
    const uses = [
      'its log group',
      'the table',
      ...(props.secrets.length === 0 ? [] : [`${props.secrets.length} key secret(s)`]),
      ...(props.speaksWithPolly ? ['Polly'] : []),
      ...(props.hearsWithTranscribe ? ['Transcribe'] : []),
      ...(props.bedrockRegion === null ? [] : ["Bedrock's model"]),
    ];
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.apiFunction.name}: ${uses.join(', ')}`,
    });
    acknowledgeFunctionRoleFindings(this.role);
    this.logGroup.grantWrite(this.role);
    this.role.addToPolicy(
      new PolicyStatement({ actions: [...tableActions], resources: [props.table.tableArn] }),
    );
    if (props.secrets.length > 0) {
      // Not `secret.grantRead`: that adds DescribeSecret, which the function never calls.
      this.role.addToPolicy(
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: props.secrets.map(secretArnForPolicies),
        }),
      );
    }
    if (props.speaksWithPolly) {
      // SynthesizeSpeech has no resource to name (Polly's only resources are lexicons).
      this.role.addToPolicy(
        new PolicyStatement({ actions: ['polly:SynthesizeSpeech'], resources: ['*'] }),
      );
    }
    if (props.hearsWithTranscribe) {
      // The Service Authorization Reference lists no resource type for it: "*" is the only form.
      this.role.addToPolicy(
        new PolicyStatement({ actions: ['transcribe:StartStreamTranscription'], resources: ['*'] }),
      );
    }
    if (props.bedrockRegion !== null) {
      this.role.addToPolicy(bedrockInferenceStatement(this, props.bedrockRegion));
    }
    // Not `NodejsFunction`: it cannot run esbuild plugins, and the chat-only openai build is one
    // (docs/decisions/2026-11-22-bundle-size.md). `handlerCode` bundles with the same options as the benchmark.
    this.function = new LambdaFunction(this, 'Function', {
      code: handlerCode(join(repositoryRoot, props.apiFunction.entry), repositoryRoot),
      handler: lambdaHandlerName,
      description: props.apiFunction.description,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      memorySize: functionMemoryMb,
      // From the turn deadline (turn-timing.ts): a stuck invocation ends before the gateway gives up.
      timeout: props.timeout,
      environment: { ...props.environment },
      logGroup: this.logGroup,
      role: this.role,
      // The function's segment in X-Ray (init, invocation), joined to the API stage's trace; the
      // model and DynamoDB calls are its subsegments: docs/decisions/2026-11-23-tracing.md.
      tracing: Tracing.ACTIVE,
    });
    const resource = this.function.node.defaultChild;
    if (CfnResource.isCfnResource(resource)) {
      resource.overrideLogicalId(functionLogicalId(props.apiFunction));
    }
  }
}

/**
 * The one action Bedrock documents for inference through its OpenAI-compatible (Mantle)
 * endpoint, on the account's projects in that region (calls without a project header use the
 * default project). Not GetProject, ListProjects nor ListTagsForResources: the functions never
 * call them, and not the bedrock:InvokeModel family of the bedrock-runtime endpoint.
 */
export function bedrockInferenceStatement(scope: Construct, region: string): PolicyStatement {
  return new PolicyStatement({
    actions: ['bedrock-mantle:CreateInference'],
    resources: [
      Stack.of(scope).formatArn({
        service: 'bedrock-mantle',
        region,
        resource: 'project',
        resourceName: '*',
      }),
    ],
  });
}

/**
 * A secret imported by name has no full ARN: the real one ends in `-` and six random characters,
 * so the policy must match them, as the CDK's own grants do.
 */
export function secretArnForPolicies(secret: ISecret): string {
  return secret.secretFullArn ?? `${secret.secretArn}-??????`;
}
