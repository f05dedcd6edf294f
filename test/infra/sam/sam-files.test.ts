import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  continueRequestSchema,
  conversationStartRequestSchema,
  voiceCommandRequestSchema,
} from '../../../functions/http/request-schemas';
import { functionEnvironmentNames } from '../../../infra/stacks/function-environment';
import { repositoryRoot, voiceRoutes } from '../../../infra/stacks/voice-routes';

const samDirectory = join(repositoryRoot, 'infra', 'sam');
const readJson = (...path: string[]): Record<string, unknown> =>
  JSON.parse(readFileSync(join(samDirectory, ...path), 'utf8'));

const requestSchemas: Readonly<Record<string, Record<string, unknown>>> = {
  'conversation-start': conversationStartRequestSchema,
  'voice-command': voiceCommandRequestSchema,
  'voice-command-continue': continueRequestSchema,
};

describe('infra/sam/env.json', () => {
  const environment = readJson('env.json');

  it('overrides variables for every function at once (the Parameters section only)', () => {
    // Prepare / Act / Assess
    expect(Object.keys(environment)).toEqual(['Parameters']);
  });

  it('overrides only variables the functions declare (sam ignores the others silently)', () => {
    // Prepare
    const names = Object.keys(environment.Parameters ?? {});

    // Act
    const undeclared = names.filter(
      (name) => !(functionEnvironmentNames as readonly string[]).includes(name),
    );

    // Assess
    expect(names.length).toBeGreaterThan(0);
    expect(undeclared).toEqual([]);
  });

  it('points at the local table through the host of the SAM container', () => {
    // Prepare / Act / Assess
    expect(environment.Parameters).toMatchObject({
      TABLE_NAME: 'jcc-local',
      DYNAMODB_ENDPOINT: 'http://host.docker.internal:8000',
      OPENAI_API_KEY_SECRET: '',
      OPENAI_API_KEY: expect.any(String),
      OPENAI_BASE_URL: expect.stringMatching(/^https?:\/\//),
      LLM_MODEL: expect.any(String),
    });
  });
});

describe('infra/sam/events', () => {
  it('holds one sample event per route and nothing else', () => {
    // Prepare / Act
    const files = readdirSync(join(samDirectory, 'events')).sort();

    // Assess
    expect(files).toEqual(voiceRoutes.map((route) => `${route.name}.json`).sort());
  });
});

describe.each(voiceRoutes)('the $name sample event', (route) => {
  const event = readJson('events', `${route.name}.json`);
  const body: unknown = typeof event.body === 'string' ? JSON.parse(event.body) : undefined;

  it('is a REST proxy event for POST on the route', () => {
    // Prepare / Act / Assess
    expect(event).toMatchObject({
      resource: route.path,
      path: route.path,
      httpMethod: 'POST',
      isBase64Encoded: false,
      requestContext: {
        resourcePath: route.path,
        httpMethod: 'POST',
        stage: 'prod',
        requestId: expect.stringMatching(/\S/),
        identity: { sourceIp: '127.0.0.1' },
      },
    });
  });

  it('sends JSON with the local node key, in both header maps', () => {
    // Prepare
    const headers = { 'Content-Type': 'application/json', 'X-API-Key': 'local-node:local-key' };

    // Act / Assess
    expect(event.headers).toMatchObject(headers);
    expect(event.multiValueHeaders).toMatchObject({
      'Content-Type': [headers['Content-Type']],
      'X-API-Key': [headers['X-API-Key']],
    });
  });

  it('carries a body the route accepts, for the sample conversation', () => {
    // Prepare
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      requestSchemas[route.name] ?? {},
    );

    // Act
    const valid = validate(body);

    // Assess
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(body).toMatchObject({ conversation_id: 'sam-sample-conversation' });
  });
});

describe('the conversation-start sample', () => {
  it('registers two commands with names the LLM accepts', () => {
    // Prepare
    const event = readJson('events', 'conversation-start.json');

    // Act
    const body: { available_commands: { command_name: string }[] } = JSON.parse(String(event.body));

    // Assess
    expect(body.available_commands.map((command) => command.command_name)).toEqual([
      'get_weather',
      'set_timer',
    ]);
    for (const command of body.available_commands) {
      expect(command.command_name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });
});
