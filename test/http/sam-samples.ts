import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import type { DynamoDbNodeRegistryOptions } from '../../shared/adapters/dynamodb/node-registry';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { SAMPLE_NODE } from './http-fixtures';

/** A JSON file of infra/sam, parsed. */
export const samFile = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../infra/sam/${path}`, import.meta.url), 'utf8'));

/** The sample event `infra/sam/events/<name>.json`, as `sam local invoke` hands it over. */
export const samSampleEvent = (name: string): APIGatewayProxyEvent =>
  samFile(`events/${name}.json`) as APIGatewayProxyEvent;

/** The node the sample events are signed for, registered in the table they are run against. */
export async function registerSamSampleNode(table: DynamoDbNodeRegistryOptions): Promise<void> {
  await new DynamoDbNodeRegistry(table).put({
    nodeId: SAMPLE_NODE.nodeId,
    keyHash: hashNodeKey(SAMPLE_NODE.key),
    timezone: 'America/New_York',
    room: 'kitchen',
    name: 'sam sample node',
    enabled: true,
  });
}
