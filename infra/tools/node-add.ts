/**
 * `npm run node:add -- --node-id ID [--timezone ZONE] [--room ROOM] [--table NAME] [--aws] [--rotate]`
 * Registers a node and prints its key once (only the key's SHA-256 is stored). Against the table
 * `npm start` serves (DYNAMODB_PORT, DYNAMODB_HOST, TABLE_NAME, as it reads them; or
 * DYNAMODB_ENDPOINT), or, with --aws, against the deployed table in the region the AWS SDK's
 * default chain picks. An existing node keeps its key unless --rotate is given.
 */
import { IANAZone } from 'luxon';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { generateNodeKey, hashNodeKey } from '../../shared/adapters/node-key';
import {
  describeTarget,
  nodeAddClient,
  nodeAddTarget,
  runningLocalStack,
} from './node-add/node-add-target';
import { registerNode } from './node-add/register-node';
import { parseToolArguments } from './tool-arguments';

const USAGE = `usage: npm run node:add -- --node-id ID [--timezone ZONE] [--room ROOM] [--table NAME] [--aws] [--rotate]

Registers a node and prints its key once (only its SHA-256 is stored): in the table npm start
serves (DYNAMODB_PORT, DYNAMODB_HOST, TABLE_NAME or DYNAMODB_ENDPOINT, as it reads them), or with
--aws in the deployed table of the AWS SDK's default region.

options:
  --node-id ID       the node's id: printable ASCII without spaces or ":", up to 128 characters
  --timezone ZONE    its IANA time zone (e.g. Europe/Berlin)
  --room ROOM        the room it stands in
  --table NAME       the table (default: TABLE_NAME, else jcc-local)
  --aws              the deployed table instead of the local one
  --rotate           give an existing node a new key (otherwise it keeps its key)
  -h, --help         this text`;

const { values } = parseToolArguments(
  { name: 'node:add', usage: USAGE },
  {
    options: {
      'node-id': { type: 'string' },
      timezone: { type: 'string' },
      room: { type: 'string' },
      table: { type: 'string' },
      aws: { type: 'boolean', default: false },
      rotate: { type: 'boolean', default: false },
    },
  },
);

const nodeId = values['node-id']?.trim();
const timezone = values.timezone?.trim();
if (!nodeId || !/^[\x21-\x39\x3b-\x7e]{1,128}$/.test(nodeId)) {
  fail('--node-id is required: printable ASCII without spaces or ":", at most 128 characters');
}
if (timezone !== undefined && !IANAZone.isValidZone(timezone))
  fail(`--timezone "${timezone}" is not an IANA zone`);

const running = values.aws ? null : await runningLocalStack(process.env);
const target = nodeAddTarget({ aws: values.aws, table: values.table }, process.env, running);
if (!target.ok) fail(target.issues.join('; '));
const client = nodeAddClient(target.value, process.env);
let where = `table ${target.value.tableName}`;
const key = generateNodeKey();
try {
  where = await describeTarget(target.value, client);
  const registered = await registerNode(
    new DynamoDbNodeRegistry({ client, tableName: target.value.tableName }),
    { nodeId, timezone: timezone ?? null, room: values.room ?? null, rotate: values.rotate },
    hashNodeKey(key),
  );
  if (!registered.ok) fail(`${registered.issues.join('; ')} (${where})`);
  const done = registered.value.rotated ? 'Replaced the key of node' : 'Registered node';
  console.log(`${done} ${nodeId} in ${where}.`);
  if (!registered.value.enabled) console.log('The node is disabled: it cannot call the API.');
} catch (error) {
  const hint = /region is missing/i.test(String(error))
    ? ' (no AWS region: set AWS_REGION or `region` in your AWS profile)'
    : target.value.kind === 'local' && refused(error)
      ? ' (nothing listens there: is npm start running? Run node:add with its DATA_DIR, or its DYNAMODB_PORT, or set DYNAMODB_ENDPOINT)'
      : '';
  fail(`could not write to ${where}: ${String(error)}${hint}`);
} finally {
  client.destroy();
}
console.log('Its key is shown once; store it on the node now:');
console.log(`X-API-Key: ${nodeId}:${key}`);

/** What the SDK throws when nothing listens (its message or code; an AggregateError for IPv4/6). */
function refused(error: unknown): boolean {
  const { code, errors } = (error ?? {}) as { code?: unknown; errors?: unknown };
  return (
    code === 'ECONNREFUSED' ||
    /ECONNREFUSED/.test(String(error)) ||
    (Array.isArray(errors) && errors.some(refused))
  );
}

function fail(message: string): never {
  console.error(`node:add: ${message}`);
  process.exit(2);
}
