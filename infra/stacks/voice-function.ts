import { join } from 'node:path';
import { CfnResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { handlerCode } from '../bundling/handler-code';
import { lambdaHandlerName } from './function-bundling';
import { functionLogicalId, repositoryRoot, type VoiceRoute } from './voice-routes';

export const functionRuntime = Runtime.NODEJS_24_X;
export const functionMemoryMb = 1024;
/** Below API Gateway's 29 s, so a stuck invocation ends before the gateway abandons it. */
export const functionTimeout = Duration.seconds(28);

/** The table operations the store and registry adapters use; nothing that scans or batches. */
export const tableActions = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
] as const;

/** What a function needs of the table (in another stack): its name and ARN. */
export interface TableReference {
  readonly tableName: string;
  readonly tableArn: string;
}

export interface VoiceFunctionProps {
  readonly route: VoiceRoute;
  readonly environment: Readonly<Record<string, string>>;
  readonly table: TableReference;
  readonly openAiKeySecret: ISecret;
  readonly logRetention: RetentionDays;
}

/**
 * One handler as a Lambda function with its own log group and a role that can do exactly what
 * the handler does: write its logs, use the table, and read the one secret.
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
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.route.name}: its log group, the table, the OpenAI key secret`,
    });
    this.logGroup.grantWrite(this.role);
    this.role.addToPolicy(
      new PolicyStatement({ actions: [...tableActions], resources: [props.table.tableArn] }),
    );
    // Not `secret.grantRead`: that adds DescribeSecret, which the function never calls.
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [secretArnForPolicies(props.openAiKeySecret)],
      }),
    );
    // Not `NodejsFunction`: it cannot run esbuild plugins, and the chat-only openai build is one
    // (docs/decisions/bundle-size.md). `handlerCode` bundles with the same options as the benchmark.
    this.function = new LambdaFunction(this, 'Function', {
      code: handlerCode(join(repositoryRoot, props.route.entry), repositoryRoot),
      handler: lambdaHandlerName,
      description: props.route.description,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      memorySize: functionMemoryMb,
      timeout: functionTimeout,
      environment: { ...props.environment },
      logGroup: this.logGroup,
      role: this.role,
    });
    const resource = this.function.node.defaultChild;
    if (CfnResource.isCfnResource(resource)) {
      resource.overrideLogicalId(functionLogicalId(props.route));
    }
  }
}

/**
 * A secret imported by name has no full ARN: the real one ends in `-` and six random characters,
 * so the policy must match them, as the CDK's own grants do.
 */
export function secretArnForPolicies(secret: ISecret): string {
  return secret.secretFullArn ?? `${secret.secretArn}-??????`;
}
