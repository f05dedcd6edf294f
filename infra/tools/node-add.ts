/**
 * `npm run node:add -- --node-id ID --timezone ZONE [--room ROOM] [--table NAME]`
 * Registers a node and prints its key once (only the key's SHA-256 is stored). Against the local
 * table through DYNAMODB_ENDPOINT (default http://127.0.0.1:8000 while `npm start` runs), or,
 * with --aws, against the deployed table with the usual AWS credentials.
 */
import { parseArgs } from 'node:util';
import { IANAZone } from 'luxon';
import { createDynamoDbClient, DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { generateNodeKey, hashNodeKey } from '../../shared/adapters/node-key';

const { values } = parseArgs({
  options: {
    'node-id': { type: 'string' },
    timezone: { type: 'string' },
    room: { type: 'string' },
    table: { type: 'string' },
    aws: { type: 'boolean', default: false },
  },
});

const nodeId = values['node-id']?.trim();
const timezone = values.timezone?.trim();
if (!nodeId || !/^[\x21-\x39\x3b-\x7e]{1,128}$/.test(nodeId)) {
  fail('--node-id is required: printable ASCII without spaces or ":", at most 128 characters');
}
if (timezone !== undefined && !IANAZone.isValidZone(timezone))
  fail(`--timezone "${timezone}" is not an IANA zone`);

const tableName = values.table ?? process.env.TABLE_NAME ?? 'jcc-local';
const endpoint = values.aws ? undefined : process.env.DYNAMODB_ENDPOINT || 'http://127.0.0.1:8000';
const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
const client = createDynamoDbClient({ region, ...(endpoint === undefined ? {} : { endpoint }) });
const key = generateNodeKey();
try {
  await new DynamoDbNodeRegistry({ client, tableName }).put({
    nodeId,
    keyHash: hashNodeKey(key),
    timezone: timezone ?? null,
    room: values.room ?? null,
    name: nodeId,
    enabled: true,
  });
} catch (error) {
  fail(
    `could not write to table ${tableName}${endpoint ? ` at ${endpoint}` : ''}: ${String(error)}`,
  );
} finally {
  client.destroy();
}
console.log(`Registered node ${nodeId} in ${tableName}${endpoint ? ` (${endpoint})` : ''}.`);
console.log('Its key is shown once; store it on the node now:');
console.log(`X-API-Key: ${nodeId}:${key}`);

function fail(message: string): never {
  console.error(`node:add: ${message}`);
  process.exit(2);
}
