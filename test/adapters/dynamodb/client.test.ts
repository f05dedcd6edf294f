import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient, DYNAMODB_CLIENT_DEFAULTS } from '../../../shared/adapters/dynamodb';
import { awsEndpoint } from '../../../shared/adapters/dynamodb/client';
import { JsonDynamoDbClient } from '../../../shared/adapters/dynamodb/json-client';

const LAMBDA_ENVIRONMENT = {
  AWS_ACCESS_KEY_ID: 'AKIATESTLAMBDA',
  AWS_SECRET_ACCESS_KEY: 'secret',
  AWS_SESSION_TOKEN: 'token',
};

describe('createDynamoDbClient', () => {
  it('is our own client for a local endpoint, and with Lambda credentials in the environment', () => {
    const local = createDynamoDbClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
    const lambda = createDynamoDbClient({ region: 'eu-west-1', environment: LAMBDA_ENVIRONMENT });

    expect(local).toBeInstanceOf(JsonDynamoDbClient);
    expect(lambda).toBeInstanceOf(JsonDynamoDbClient);
    local.destroy();
    lambda.destroy();
  });

  it('is the AWS SDK client, its default chain finding the credentials, without them', async () => {
    const client = createDynamoDbClient({
      region: 'eu-west-1',
      environment: { AWS_ACCESS_KEY_ID: 'AKIAONLYHALF' },
    });

    expect(client).toBeInstanceOf(DynamoDBClient);
    const sdk = client as DynamoDBClient;
    expect(await sdk.config.maxAttempts()).toBe(DYNAMODB_CLIENT_DEFAULTS.maxAttempts);
    expect(await sdk.config.region()).toBe('eu-west-1');
    client.destroy();
  });

  it.each([
    { AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb.example.internal' },
    { AWS_ENDPOINT_URL: 'https://aws.example.internal' },
    { AWS_USE_FIPS_ENDPOINT: 'true' },
    { AWS_USE_DUALSTACK_ENDPOINT: 'true' },
    { AWS_RETRY_MODE: 'standard' },
    { AWS_PROFILE: 'prod-admin' },
  ])("is the AWS SDK client when the environment sets the SDK's %o", (setting) => {
    const client = createDynamoDbClient({
      region: 'eu-west-1',
      environment: { ...LAMBDA_ENVIRONMENT, ...setting },
    });

    expect(client).toBeInstanceOf(DynamoDBClient);
    client.destroy();
  });

  it.each(['us-iso-east-1', 'us-isob-east-1', 'eusc-de-east-1'])(
    'is the AWS SDK client in %s, a partition whose endpoints only it knows',
    (region) => {
      const client = createDynamoDbClient({ region, environment: LAMBDA_ENVIRONMENT });

      expect(client).toBeInstanceOf(DynamoDBClient);
      client.destroy();
    },
  );

  it('is the AWS SDK client with static dummy credentials when asked for it with an endpoint', async () => {
    const client = createDynamoDbClient({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:1',
      implementation: 'sdk',
    });

    expect(client).toBeInstanceOf(DynamoDBClient);
    const sdk = client as DynamoDBClient;
    expect(await sdk.config.credentials()).toMatchObject({
      accessKeyId: 'local',
      secretAccessKey: 'local',
    });
    expect(await sdk.config.maxAttempts()).toBe(DYNAMODB_CLIENT_DEFAULTS.maxAttempts);
    client.destroy();
  });

  it.each([
    'us-east-1',
    'eu-west-3',
    'ap-southeast-2',
    'us-gov-west-1',
    'il-central-1',
    'mx-central-1',
    'cn-north-1',
    'cn-northwest-1',
  ])('sends to the endpoint the SDK resolves for %s', async (region) => {
    const sdk = new DynamoDBClient({ region });

    const resolved = sdk.config.endpointProvider({
      Region: region,
      UseFIPS: false,
      UseDualStack: false,
    });

    expect(awsEndpoint(region)).toBe(resolved.url.href.replace(/\/$/, ''));
    sdk.destroy();
  });
});
