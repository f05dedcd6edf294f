import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/http/openapi/openapi-document';
import { checkRecording } from '../../../functions/http/request-body/recording-check';
import { functionEnvironmentNames } from '../../../infra/stacks/function-environment';
import { apiRoutes, repositoryRoot } from '../../../infra/stacks/voice-routes';
import { readServiceConfig } from '../../../shared/adapters/config/service-config';

const samDirectory = join(repositoryRoot, 'infra', 'sam');
const readJson = (...path: string[]): Record<string, unknown> =>
  JSON.parse(readFileSync(join(samDirectory, ...path), 'utf8'));

/** The request body schemas the OpenAPI document names, by component name. */
const componentSchemas = (
  buildOpenApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } }
).components.schemas;

describe('infra/sam/env.json', () => {
  const environment = readJson('env.json');

  it('overrides variables for every function at once (the Parameters section only)', () => {
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
    expect(environment.Parameters).toMatchObject({
      TABLE_NAME: 'jcc-local',
      DYNAMODB_ENDPOINT: 'http://host.docker.internal:8000',
      // The template's functions say bedrock (the deployed default): the key's path says openai.
      MODEL_PROVIDER: 'openai',
      OPENAI_API_KEY_SECRET: '',
      OPENAI_API_KEY: expect.any(String),
      OPENAI_BASE_URL: expect.stringMatching(/^https?:\/\//),
      LLM_MODEL: expect.any(String),
    });
  });

  it('hears through a transcription server with a plain key, and speaks through Polly', () => {
    // The deployed functions read the speech keys from secrets; sam local takes them plainly.
    // Polly needs no key: sam passes your AWS credentials to the container.
    expect(environment.Parameters).toMatchObject({
      STT_PROVIDER: 'openai',
      STT_BASE_URL: expect.stringMatching(/^https?:\/\//),
      STT_API_KEY_SECRET: '',
      STT_API_KEY: expect.any(String),
      TTS_PROVIDER: 'polly',
      POLLY_ENGINE: 'neural',
      TTS_API_KEY_SECRET: '',
    });
  });

  it.each([
    ['as it is: a transcription server with its key', {}, { provider: 'openai' }],
    [
      'with STT_PROVIDER=transcribe: Amazon Transcribe, no key, in its language',
      { STT_PROVIDER: 'transcribe' },
      { provider: 'transcribe', languageCode: 'en-US', region: 'eu-west-1', endpoint: null },
    ],
    [
      'with another language',
      { STT_PROVIDER: 'transcribe', TRANSCRIBE_LANGUAGE: 'de-DE' },
      { provider: 'transcribe', languageCode: 'de-DE' },
    ],
  ])('is a configuration the handlers accept %s', (_, edit, speechToText) => {
    // Prepare: what sam passes into the container (the region from your profile).
    const parameters = environment.Parameters as Record<string, string>;
    const env: Record<string, string> = { ...parameters, AWS_REGION: 'eu-west-1', ...edit };

    // Act
    const config = readServiceConfig(env);

    // Assess
    expect(config.speechToText).toMatchObject(speechToText);
    expect(config.textToSpeech).toMatchObject({ provider: 'polly', engine: 'neural' });
  });
});

describe('infra/sam/events', () => {
  it('holds one sample event per route and nothing else', () => {
    // Prepare / Act
    const files = readdirSync(join(samDirectory, 'events')).sort();

    // Assess
    expect(files).toEqual(apiRoutes.map((route) => `${route.name}.json`).sort());
  });
});

const jsonRoutes = apiRoutes.filter((route) => !('upload' in route));

describe.each(jsonRoutes)('the $name sample event', (route) => {
  const event = readJson('events', `${route.name}.json`);
  const body: unknown = typeof event.body === 'string' ? JSON.parse(event.body) : undefined;

  it('is a REST proxy event for the route’s method and path', () => {
    expect(event).toMatchObject({
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      isBase64Encoded: false,
      requestContext: {
        resourcePath: route.path,
        httpMethod: route.method,
        stage: 'prod',
        requestId: expect.stringMatching(/\S/),
        identity: { sourceIp: '127.0.0.1' },
      },
    });
  });

  it('sends the local node key (and a JSON body where the route takes one), in both header maps', () => {
    // Prepare
    const headers: Record<string, string> = { 'X-API-Key': 'local-node:local-key' };
    if (route.requestBody !== null) headers['Content-Type'] = 'application/json';

    // Act / Assess
    expect(event.headers).toMatchObject(headers);
    expect(event.multiValueHeaders).toMatchObject(
      Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    );
  });

  it('carries a body the route accepts (none for a GET), of the sample conversation', () => {
    // Prepare
    const schema =
      route.requestBody === null ? { type: 'null' } : componentSchemas[route.requestBody];
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema ?? {});

    // Act
    const valid = validate(body ?? null);

    // Assess
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    if (body !== undefined && Object.hasOwn(Object(schema?.properties), 'conversation_id')) {
      expect(body).toMatchObject({ conversation_id: 'sam-sample-conversation' });
    }
  });
});

describe.each(apiRoutes.filter((route) => 'upload' in route))('the $name sample event', (route) => {
  const event = readJson('events', `${route.name}.json`);
  const headers = event.headers as Record<string, string>;

  it('is the REST proxy event of a binary upload: base64, flagged, with the local node key', () => {
    expect(event).toMatchObject({
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      isBase64Encoded: true,
      requestContext: { resourcePath: route.path, httpMethod: route.method, stage: 'prod' },
    });
    expect(headers['X-API-Key']).toBe('local-node:local-key');
    expect(headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('carries a 16-bit PCM WAV in its file part, as the node sends a recording', async () => {
    // Prepare
    const bytes = Buffer.from(String(event.body), 'base64');
    const contentType = headers['Content-Type'] ?? '';

    // Act
    const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    const file = form.get('file');
    const wav =
      file instanceof Blob
        ? checkRecording(new Uint8Array(await file.arrayBuffer()), { maxSeconds: 60 })
        : null;

    // Assess
    expect(wav?.ok).toBe(true);
    if (wav?.ok === true) expect(wav.value.format.sampleWidth).toBe(2);
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
