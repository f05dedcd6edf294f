import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../functions/http/contract/api-routes';
import { chatRequestSchema } from '../../functions/http/contract/chat-request-schema';
import { conversationStartRequestSchema } from '../../functions/http/contract/conversation-start-request-schema';
import {
  acknowledgeRequestSchema,
  continueRequestSchema,
  voiceCommandRequestSchema,
} from '../../functions/http/contract/request-schemas';
import { speakRequestSchema } from '../../functions/http/contract/speech-schemas';
import { OPENAPI_SERVERS } from '../../functions/http/openapi/openapi-document';
import { stageName } from '../../infra/stacks/voice-api';
import { OPENAPI_PATH, renderOpenApi } from '../../infra/tools/write-openapi';
import { useLocalStack } from '../support/local-stack-harness';

const harness = useLocalStack({ languageModel: false });

const keptText = (): string =>
  readFileSync(new URL(`../../${OPENAPI_PATH}`, import.meta.url), 'utf8');
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every `$ref` in the document, wherever it sits. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (!isObject(value)) return [];
  const own = typeof value.$ref === 'string' ? [value.$ref] : [];
  return [...own, ...Object.values(value).flatMap(references)];
}

/** Follows a local JSON pointer (`#/components/schemas/X`); undefined when it leads nowhere. */
function resolve(document: Json, reference: string): unknown {
  if (!reference.startsWith('#/')) return undefined;
  return reference
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), document);
}

describe('docs/openapi.json', () => {
  it('is current: it equals what the handlers’ schemas render', () => {
    // Act
    const rendered = renderOpenApi();

    // Assess
    expect(keptText(), `${OPENAPI_PATH} is stale: run npm run openapi`).toBe(rendered);
  });

  it('is what GET /openapi.json on the local API serves', async () => {
    // Act
    const response = await harness.client().get('/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.json).toEqual(JSON.parse(keptText()));
  });

  it('answers HEAD /openapi.json with the headers of GET and no body', async () => {
    // Act
    const response = await fetch(`${harness.stack.url}/openapi.json`, { method: 'HEAD' });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(await response.text()).toBe('');
  });
});

describe('docs/openapi.json under a real OpenAPI linter (Redocly, recommended-strict)', () => {
  it('has no problem at all, warnings included', async () => {
    // Prepare
    const config = await createConfig({ extends: ['recommended-strict'] });

    // Act
    const problems = await lintFromString({
      source: keptText(),
      absoluteRef: OPENAPI_PATH,
      config,
    });

    // Assess
    const described = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    expect(described).toEqual([]);
  });

  it('names the local API and the deployed stage the CDK app creates', () => {
    // Assess
    expect(OPENAPI_SERVERS[0]?.url).toBe('http://127.0.0.1:3000');
    expect(OPENAPI_SERVERS[1]?.variables?.stage.default).toBe(stageName);
  });
});

describe('the OpenAPI document has the shape of OpenAPI 3.1', () => {
  const document = JSON.parse(keptText()) as Json;
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};

  it('declares 3.1 and the info it requires', () => {
    // Assess
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  });

  it('has every route of the route table, with its method, body, success and every status of api.md', () => {
    // Act
    const paths = isObject(document.paths) ? document.paths : {};

    // Assess
    expect(Object.keys(paths).sort()).toEqual([...new Set(apiRoutes.map((r) => r.path))].sort());
    for (const route of apiRoutes) {
      const operation = (paths[route.path] as Record<string, Json | undefined>)[
        route.method.toLowerCase()
      ];
      expect(operation?.operationId).toBe(route.operationId);
      const upload = 'upload' in route ? route.upload : undefined;
      if (upload !== undefined) {
        expect(operation?.requestBody).toMatchObject({
          required: true,
          content: { 'multipart/form-data': { encoding: { file: { contentType: 'audio/wav' } } } },
        });
      } else if (route.requestBody === null) {
        expect(operation?.requestBody).toBeUndefined();
      } else {
        expect(operation?.requestBody).toMatchObject({
          required: true,
          content: { 'application/json': expect.any(Object) },
        });
      }
      const statuses = Object.keys(isObject(operation?.responses) ? operation.responses : {});
      const errors = ['400', '401', '404', '409', '429', '502', '503', '504'];
      const bodyErrors = route.requestBody === null && upload === undefined ? [] : ['413', '415'];
      // The voice routes take a request id; reusing one with another body is a 422.
      const idErrors = route.takesRequestId ? ['422'] : [];
      // 405: the path with another method (method_not_allowed), as the local API answers it.
      // A stream route answers its JSON with 202 when it does not speak.
      const fallback = 'fallback' in route ? [String(route.fallback.status)] : [];
      const expected = [
        String(route.success.status),
        ...fallback,
        ...errors,
        '405',
        ...bodyErrors,
        ...idErrors,
      ];
      expect(statuses.sort()).toEqual(expected.sort());
    }
  });

  it('refers only to components that exist, security schemes included', () => {
    // Act
    const found = references(document);
    const dangling = found.filter((reference) => resolve(document, reference) === undefined);
    const operations = Object.values(isObject(document.paths) ? document.paths : {}).flatMap(
      (path) => Object.values(path as Record<string, Json>),
    );
    const schemeNames = operations.flatMap((operation) =>
      (Array.isArray(operation?.security) ? operation.security : []).flatMap((requirement) =>
        Object.keys(requirement),
      ),
    );
    const declaredSchemes = isObject(components.securitySchemes) ? components.securitySchemes : {};

    // Assess
    expect(found.length).toBeGreaterThan(0);
    expect(dangling).toEqual([]);
    expect(schemeNames).toHaveLength(apiRoutes.length);
    for (const name of schemeNames)
      expect(declaredSchemes[name]).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
      });
  });

  it('holds component schemas that compile as JSON Schema 2020-12 (the 3.1 dialect)', () => {
    // Prepare
    const ajv = new Ajv2020({ strict: false });

    // Act
    const failures = Object.entries(schemas).flatMap(([name, schema]) => {
      try {
        ajv.compile(schema as Json);
        return [];
      } catch (error) {
        return [`${name}: ${String(error)}`];
      }
    });

    // Assess
    const named = new Set(
      apiRoutes.flatMap((route) => [
        route.requestBody,
        'body' in route.success ? route.success.body : null,
        'fallback' in route ? route.fallback.body : null,
      ]),
    );
    named.delete(null);
    expect(Object.keys(schemas).sort()).toEqual([...named, 'ErrorResponse'].sort());
    expect(failures).toEqual([]);
  });

  it('documents the audio a route answers, with its format headers where it is PCM', () => {
    // Prepare
    const paths = isObject(document.paths) ? document.paths : {};
    const audioRoutes = apiRoutes.filter((route) => 'audio' in route.success);

    // Act / Assess
    expect(audioRoutes.map((route) => route.name).sort()).toEqual([
      'media-speak',
      'media-speak-stream',
      'voice-command-continue-stream',
      'voice-command-stream',
    ]);
    for (const route of audioRoutes) {
      const media = 'audio' in route.success ? route.success.audio : '';
      const post = (paths[route.path] as Record<string, Json>).post ?? {};
      const success = (post.responses as Json)['200'] as Json;
      expect(success.content).toEqual({
        [media]: { schema: { type: 'string', contentMediaType: media } },
      });
      const headers = Object.keys(isObject(success.headers) ? success.headers : {});
      if (media === 'audio/pcm') {
        expect(headers).toEqual(
          expect.arrayContaining([
            'X-Audio-Sample-Rate',
            'X-Audio-Channels',
            'X-Audio-Sample-Width',
          ]),
        );
      }
    }
  });

  it.each([
    ['SpeakRequest', speakRequestSchema],
    ['AcknowledgeRequest', acknowledgeRequestSchema],
    ['ConversationStartRequest', conversationStartRequestSchema],
    ['VoiceCommandRequest', voiceCommandRequestSchema],
    ['VoiceCommandContinueRequest', continueRequestSchema],
    ['ChatRequest', chatRequestSchema],
  ])('documents %s exactly as the edge validates it', (name, schema) => {
    // Prepare
    const { $id: _id, ...validated } = schema;

    // Assess
    expect(schemas[name]).toEqual(JSON.parse(JSON.stringify(validated)));
  });
});
