import { NodeAuthenticator } from '../../functions/http/edge/node-authenticator';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { createDynamoDbClient, DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';

/** Checks a request's `X-API-Key` header; throws what the handlers answer a refused key with. */
export type HeaderAuthenticator = (apiKey: string | undefined) => Promise<void>;

/**
 * The handlers' authenticator (the same registry, cache and refusal floor), for the local server
 * to check the key from the headers before it reads a byte of the body.
 */
export function headerAuthenticator(config: ServiceConfig): HeaderAuthenticator {
  const client = createDynamoDbClient({
    region: config.region,
    ...(config.dynamoDbEndpoint === null ? {} : { endpoint: config.dynamoDbEndpoint }),
  });
  const authenticator = new NodeAuthenticator(
    new DynamoDbNodeRegistry({ client, tableName: config.tableName }),
    systemClock,
    { rejectionFloorMs: config.authRejectionFloorMs },
  );
  return async (apiKey) => {
    await authenticator.authenticate(apiKey);
  };
}
