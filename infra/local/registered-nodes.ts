import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb';
import { nodeKey } from '../../shared/adapters/dynamodb/item-keys';

/**
 * The id of every node in the local table, seeded or added with `npm run node:add`, for the
 * banner. A scan: fine for the few items of a developer's table, never used in AWS.
 */
export async function registeredNodeIds(endpoint: string, tableName: string): Promise<string[]> {
  const { pk: prefix, sk } = nodeKey('');
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint });
  const ids: string[] = [];
  try {
    let startKey: Record<string, never> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: 'sk = :node',
          ExpressionAttributeValues: { ':node': { S: sk } },
          ProjectionExpression: 'pk',
          ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
        }),
      );
      for (const item of page.Items ?? []) {
        const pk = item.pk?.S;
        if (pk?.startsWith(prefix)) ids.push(pk.slice(prefix.length));
      }
      startKey = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (startKey !== undefined);
  } finally {
    client.destroy();
  }
  return ids.sort();
}
