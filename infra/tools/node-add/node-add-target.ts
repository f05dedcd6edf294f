import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { readSettings } from '../../../shared/adapters/config/read-settings';
import { createDynamoDbClient, type DynamoDbClient } from '../../../shared/adapters/dynamodb';
import { failure, type Result, success } from '../../../shared/result';
import { reachableHost, readLocalSettings } from '../../local/local-settings';
import { findRunningStack, type RunningStack } from '../../local/running-stack';

/** Where `npm run node:add` writes: the deployed table, or the one `npm start` serves. */
export type NodeAddTarget =
  | { readonly kind: 'aws'; readonly tableName: string }
  | { readonly kind: 'local'; readonly tableName: string; readonly endpoint: string };

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The target from the options and the environment. Locally it is the embedded DynamoDB of
 * `npm start`: the one running on the same DATA_DIR (`running`, wherever its DYNAMODB_PORT is),
 * else found through the same settings (`DYNAMODB_PORT`, `DYNAMODB_HOST`, `TABLE_NAME`), or
 * `DYNAMODB_ENDPOINT` for any other local DynamoDB. A setting given here wins.
 */
export function nodeAddTarget(
  options: { readonly aws: boolean; readonly table: string | undefined },
  env: Environment,
  running: Pick<RunningStack, 'dynamoDbEndpoint' | 'tableName'> | null = null,
): Result<NodeAddTarget, string> {
  // The handlers' settings, read by their table; their problems are the handlers' to report.
  const handler = readSettings(env).values;
  const table =
    options.table?.trim() ||
    handler.TABLE_NAME ||
    (options.aws ? undefined : (running?.tableName ?? undefined));
  if (options.aws) {
    if (table === undefined) {
      return failure([
        '--aws needs --table <name>: the TableName output of the JccStateful stack (docs/deploy.md)',
      ]);
    }
    return success({ kind: 'aws', tableName: table });
  }
  let settings: ReturnType<typeof readLocalSettings>;
  try {
    settings = readLocalSettings(env);
  } catch (error) {
    return failure([error instanceof Error ? error.message : String(error)]);
  }
  const configured = settings.given.has('DYNAMODB_PORT') || settings.given.has('DYNAMODB_HOST');
  const endpoint =
    handler.DYNAMODB_ENDPOINT ||
    (configured ? undefined : running?.dynamoDbEndpoint) ||
    `http://${reachableHost(settings.dynamoDbHost)}:${settings.dynamoDbPort}`;
  return success({ kind: 'local', tableName: table ?? settings.tableName, endpoint });
}

/**
 * The client for the target. In AWS no region is passed: the SDK's default chain picks it
 * (`AWS_REGION`, then the profile's `region` in ~/.aws/config), as `cdk deploy` does.
 */
export function nodeAddClient(target: NodeAddTarget, env: Environment): DynamoDbClient {
  if (target.kind === 'aws') return new DynamoDBClient({});
  const { values } = readSettings(env);
  const region = values.AWS_REGION ?? values.AWS_DEFAULT_REGION;
  return createDynamoDbClient({ region, endpoint: target.endpoint });
}

/** Where the client writes, for the user: table, region, and the endpoint when local. */
export async function describeTarget(target: NodeAddTarget, client: DynamoDbClient) {
  if (target.kind !== 'aws') return `table ${target.tableName} at ${target.endpoint}`;
  // In AWS the client is the SDK's (nodeAddClient): its default chain resolved the region.
  const region = client instanceof DynamoDBClient ? await client.config.region() : 'AWS';
  return `table ${target.tableName} in ${region}`;
}

/** The `npm start` running on the DATA_DIR these settings name, if any. */
export async function runningLocalStack(env: Environment): Promise<RunningStack | null> {
  try {
    const { dataDir } = readLocalSettings(env);
    return dataDir === null ? null : await findRunningStack(dataDir);
  } catch {
    // An invalid setting: nodeAddTarget reports it.
    return null;
  }
}
