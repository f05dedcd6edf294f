import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from '../../functions/chat';
import { createConversationStartHandler } from '../../functions/conversation-start';
import type { RouteHandler } from '../../functions/http/edge/route-request';
import { createWakeResponseHandler } from '../../functions/node-helpers';
import { createVoiceCommandHandler } from '../../functions/voice-command';
import { createVoiceCommandContinueHandler } from '../../functions/voice-command-continue';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import type { ServiceDependencies } from '../../functions/wiring/service-dependencies';
import { localLambdaContext } from '../../infra/local/api-gateway-event';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import type { ApiResponse } from '../support/api-client';
import { DYNALITE_REGION, useDynalite } from '../support/dynalite';
import {
  type CapturedOutput,
  captureProcessOutput,
  OPENAI_TEST_KEY,
} from '../support/local-stack-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../support/scripted-llm-server';
import {
  messagesOf,
  SAMPLE_CALL_ID,
  SAMPLE_WEATHER_TURN,
  TOMORROW_UTC,
  textReply,
} from './http-fixtures';
import { expectStarted, expectVoiceResponse, onlyCallOf } from './response-contract';
import { registerSamSampleNode, samFile, samSampleEvent } from './sam-samples';

const database = useDynalite();
let llm: ScriptedLlmServer | undefined;
let output: CapturedOutput | undefined;
let dependencies: ServiceDependencies | undefined;

beforeAll(async () => {
  output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
  llm = await startScriptedLlmServer();
  const { endpoint, tableName, client } = database();
  // The settings sam passes from infra/sam/env.json, pointed at this dynalite and model.
  const config = readServiceConfig({
    ...samParameters(),
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: DYNALITE_REGION,
    OPENAI_BASE_URL: llm.baseURL,
    OPENAI_API_KEY: OPENAI_TEST_KEY,
    LLM_MODEL: 'scripted',
    WARMUP_TIMEOUT_MS: '0',
  });
  dependencies = createServiceDependencies({
    config,
    apiKey: OPENAI_TEST_KEY,
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
  });
  await registerSamSampleNode({ client, tableName });
});

afterEach(() => llm?.reset());
afterAll(async () => {
  await llm?.close();
  output?.restore();
});

function samParameters(): Record<string, string> {
  const { Parameters } = samFile('env.json') as { Parameters: Record<string, string> };
  return Parameters;
}

/** Runs one sample event through the handler the factory builds, as `sam local invoke` would. */
async function invoke(
  name: string,
  factory: (dependencies: ServiceDependencies) => RouteHandler,
): Promise<ApiResponse> {
  if (dependencies === undefined) throw new Error('dependencies are built in beforeAll');
  const result: APIGatewayProxyResult = await factory(dependencies)(
    samSampleEvent(name),
    localLambdaContext(name, 29_000),
  );
  const headers = new Headers(
    Object.entries(result.headers ?? {}).map(([key, value]) => [key, String(value)]),
  );
  return { status: result.statusCode, headers, json: JSON.parse(result.body), text: result.body };
}

const scripted = (): ScriptedLlmServer => {
  if (llm === undefined) throw new Error('the scripted model starts in beforeAll');
  return llm;
};

describe('infra/sam/events through their handlers (dynalite and a scripted model)', () => {
  it('conversation-start.json registers the sample commands: 200', async () => {
    // Act
    const response = await invoke('conversation-start', createConversationStartHandler);

    // Assess
    expectStarted(response, 'sam-sample-conversation');
    expect(response.json).toMatchObject({ timezone: 'America/New_York', command_count: 2 });
  });

  it('voice-command.json, after the start sample, gets the validated get_weather call: 200 tool_calls', async () => {
    // Prepare
    expectStarted(
      await invoke('conversation-start', createConversationStartHandler),
      'sam-sample-conversation',
    );
    scripted().enqueue(...SAMPLE_WEATHER_TURN);

    // Act
    const response = await invoke('voice-command', createVoiceCommandHandler);

    // Assess
    const body = expectVoiceResponse(response, 'tool_calls');
    expect(onlyCallOf(body)).toEqual({
      id: SAMPLE_CALL_ID,
      name: 'get_weather',
      arguments: { city: 'Los Angeles', resolved_datetimes: [TOMORROW_UTC] },
    });
    expect(String(messagesOf(scripted().requests[0]).at(-1)?.content)).toContain(
      'Los Angeles tomorrow',
    );
  });

  it('voice-command-continue.json answers the call of the command sample, unedited: 200 complete', async () => {
    // Prepare
    expectStarted(
      await invoke('conversation-start', createConversationStartHandler),
      'sam-sample-conversation',
    );
    scripted().enqueue(
      ...SAMPLE_WEATHER_TURN,
      textReply('Sunny in Los Angeles tomorrow, high of 24.'),
    );
    expectVoiceResponse(await invoke('voice-command', createVoiceCommandHandler), 'tool_calls');

    // Act
    const response = await invoke('voice-command-continue', createVoiceCommandContinueHandler);

    // Assess
    const body = expectVoiceResponse(response, 'complete');
    expect(body.assistant_message).toBe('Sunny in Los Angeles tomorrow, high of 24.');
    const result = messagesOf(scripted().requests.at(-1)).find(
      (message) => message.tool_call_id === SAMPLE_CALL_ID,
    );
    expect(JSON.parse(String(result?.content))).toEqual({
      city: 'Los Angeles',
      forecast: 'Sunny, high of 24 C',
    });
    expect(scripted().protocolViolations).toEqual([]);
  });

  it('wake-response.json, with no body, gets a greeting: 200', async () => {
    // Act
    const response = await invoke('wake-response', createWakeResponseHandler);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ text: expect.stringMatching(/\S/) });
    expect(scripted().requests).toHaveLength(0);
  });

  it('chat.json gets the model’s words back as a chat completion: 200', async () => {
    // Prepare
    scripted().enqueue(textReply('Sunny in Los Angeles, and one meeting at ten.'));

    // Act
    const response = await invoke('chat', createChatHandler);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Sunny in Los Angeles, and one meeting at ten.' } }],
    });
    expect(String(messagesOf(scripted().requests[0])[0]?.content)).toContain(
      'Good morning routine',
    );
  });
});
