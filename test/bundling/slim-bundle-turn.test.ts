import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoute, type RouteName } from '../../functions/http/contract/api-routes';
import { bundleHandler } from '../../infra/bundling/bundle-handler';
import { localLambdaContext } from '../../infra/local/api-gateway-event';
import { defaultDeploySettings } from '../../infra/stacks/deploy-settings';
import { functionBundling } from '../../infra/stacks/function-bundling';
import { functionEnvironment } from '../../infra/stacks/function-environment';
import { repositoryRoot, voiceFunctions } from '../../infra/stacks/voice-routes';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import {
  messagesOf,
  SAMPLE_CALL_ID,
  SAMPLE_NODE,
  SAMPLE_WEATHER_TURN,
  TOMORROW_UTC,
  textReply,
} from '../http/http-fixtures';
import { expectStarted, expectVoiceResponse, onlyCallOf } from '../http/response-contract';
import type { ApiResponse } from '../support/api-client';
import { DYNALITE_REGION, useDynalite } from '../support/dynalite';
import { type CapturedOutput, captureProcessOutput } from '../support/local-stack-harness';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { TEST_AWS_CREDENTIALS } from '../support/sigv4-verifier';
import { useLoopbackServer } from '../support/use-loopback-server';
import { useCacheDirectories } from './cache-directory';

type BundledHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;

const database = useDynalite();
const BEDROCK_REGION = 'eu-west-1';
/** The deployed default: Bedrock's endpoint, stood in for, refusing any unsigned request. */
const llm = useLoopbackServer('Bedrock stand-in', () =>
  startScriptedLlmServer({
    sigV4: { region: BEDROCK_REGION, service: 'bedrock-mantle', credentials: TEST_AWS_CREDENTIALS },
  }),
);
const newDirectory = useCacheDirectories('jcc-slim-bundle-');
const handlers = new Map<string, BundledHandler>();
const savedEnvironment = { ...process.env };
let output: CapturedOutput | undefined;

// The three handlers bundled as deployed (the function the CDK's bundling child process runs),
// then imported: each wires itself from process.env on its first event, as in Lambda.
beforeAll(async () => {
  const directory = newDirectory();
  for (const route of voiceFunctions) {
    const outputDirectory = join(directory, route.name);
    await bundleHandler(join(repositoryRoot, route.entry), outputDirectory);
    const bundle = pathToFileURL(join(outputDirectory, functionBundling.outputFile)).href;
    const loaded: { handler: BundledHandler } = await import(bundle);
    handlers.set(route.name, loaded.handler);
  }
  const { endpoint, tableName } = database();
  Object.assign(process.env, {
    ...functionEnvironment({
      tableName,
      settings: defaultDeploySettings,
      needs: { callsModel: true, hears: false, speaks: false },
    }),
    // What differs from AWS: the local table, Bedrock's stand-in, the role's credentials.
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: DYNALITE_REGION,
    BEDROCK_BASE_URL: llm.baseURL,
    BEDROCK_REGION,
    AWS_ACCESS_KEY_ID: TEST_AWS_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_AWS_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: TEST_AWS_CREDENTIALS.sessionToken,
    WARMUP_TIMEOUT_MS: '0',
  });
  await new DynamoDbNodeRegistry({ client: database().client, tableName }).put({
    nodeId: SAMPLE_NODE.nodeId,
    keyHash: hashNodeKey(SAMPLE_NODE.key),
    timezone: 'America/New_York',
    room: 'kitchen',
    name: 'slim bundle node',
    enabled: true,
  });
  output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
});

afterAll(() => {
  output?.restore();
  for (const name of Object.keys(process.env)) {
    if (!(name in savedEnvironment)) delete process.env[name];
  }
  Object.assign(process.env, savedEnvironment);
});

const sampleEvent = (name: string): APIGatewayProxyEvent =>
  JSON.parse(readFileSync(join(repositoryRoot, 'infra', 'sam', 'events', `${name}.json`), 'utf8'));

/** Sends the sample event of `name` to its bundled handler, as API Gateway would. */
async function invoke(name: RouteName): Promise<ApiResponse> {
  const handler = handlers.get(apiRoute(name).function.name);
  if (handler === undefined) throw new Error(`no bundled handler for ${name}`);
  const result = await handler(sampleEvent(name), localLambdaContext(name, 28_000));
  const headers = new Headers(
    Object.entries(result.headers ?? {}).map(([key, value]) => [key, String(value)]),
  );
  return { status: result.statusCode, headers, json: JSON.parse(result.body), text: result.body };
}

describe('the slim bundles (chat-only openai SDK, signing for Bedrock), imported and invoked', () => {
  it('run a whole turn: start, a command that gets a tool call, the continue that completes it', async () => {
    // Prepare
    llm.enqueue(...SAMPLE_WEATHER_TURN, textReply('Sunny in Los Angeles tomorrow, high of 24.'));
    expectStarted(await invoke('conversation-start'), 'sam-sample-conversation');

    // Act
    const command = await invoke('voice-command');
    const continued = await invoke('voice-command-continue');

    // Assess
    expect(onlyCallOf(expectVoiceResponse(command, 'tool_calls'))).toEqual({
      id: SAMPLE_CALL_ID,
      name: 'get_weather',
      arguments: { city: 'Los Angeles', resolved_datetimes: [TOMORROW_UTC] },
    });
    expect(expectVoiceResponse(continued, 'complete').assistant_message).toBe(
      'Sunny in Los Angeles tomorrow, high of 24.',
    );
    const answered = messagesOf(llm.requests.at(-1)).find(
      (message) => message.tool_call_id === SAMPLE_CALL_ID,
    );
    expect(answered).toBeDefined();
    expect(llm.requests).toHaveLength(3);
    expect(llm.protocolViolations).toEqual([]);
  });

  it.each([
    [
      'a 429 with Retry-After, then the answer',
      [{ status: 429, headers: { 'retry-after-ms': '1' } }],
    ],
    ['a 500 the adapter retries, then the answer', [{ status: 500 }]],
    ['a dropped connection, then the answer', [{ hangMs: 1 }]],
  ])('take the SDK’s error paths too: %s', async (_case, failures) => {
    // Prepare: the errors, retries and timeouts of the adapter run on SDK code the stubs replaced
    // nothing of; a stub reached on any of them would turn the turn into a 500.
    llm.reset();
    llm.enqueue(...failures, ...SAMPLE_WEATHER_TURN);
    expectStarted(await invoke('conversation-start'), 'sam-sample-conversation');

    // Act
    const command = await invoke('voice-command');

    // Assess
    expect(onlyCallOf(expectVoiceResponse(command, 'tool_calls')).id).toBe(SAMPLE_CALL_ID);
    expect(llm.requests).toHaveLength(failures.length + SAMPLE_WEATHER_TURN.length);
  });

  it('answer 502 when the model server keeps failing, with the SDK’s error classes intact', async () => {
    llm.reset();
    llm.enqueue({ status: 401, headers: { 'x-should-retry': 'false' } });
    expectStarted(await invoke('conversation-start'), 'sam-sample-conversation');

    const command = await invoke('voice-command');

    expect(command.status).toBe(502);
    expect(command.json).toMatchObject({ error: { code: 'llm_failed' } });
  });

  it('serve the node helpers with no model call: an acknowledgement and the date context', async () => {
    llm.reset();

    const acknowledged = await invoke('voice-acknowledge');
    const dates = await invoke('date-context');

    expect(acknowledged).toMatchObject({ status: 200, json: { text: 'Checking the forecast.' } });
    expect(dates.status).toBe(200);
    expect(dates.json).toMatchObject({ timezone: { user_timezone: 'America/New_York' } });
    expect(llm.requests).toHaveLength(0);
  });
});
