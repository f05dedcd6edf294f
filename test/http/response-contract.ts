import { Ajv } from 'ajv';
import { expect } from 'vitest';
import {
  conversationStartResponseSchema,
  type ErrorResponse,
  errorResponseSchema,
  type VoiceCommandResponse,
  voiceCommandResponseSchema,
} from '../../functions/http/contract/response-schemas';
import type { ApiResponse } from '../support/api-client';

/** VoiceCommandResponse (api.md), as the tests read it once the schema has accepted it. */
export type VoiceResponse = VoiceCommandResponse;

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
const validators = {
  start: ajv.compile(conversationStartResponseSchema),
  voice: ajv.compile(voiceCommandResponseSchema),
  error: ajv.compile(errorResponseSchema),
};

/** The schema's complaints about a body, as readable lines (empty when it conforms). */
function contractProblems(kind: keyof typeof validators, body: unknown): string[] {
  const validate = validators[kind];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? ''}`,
  );
}

function expectJson(response: ApiResponse): void {
  expect(response.headers.get('content-type'), response.text).toMatch(/^application\/json\b/);
  expect(response.json, `not JSON: ${response.text.slice(0, 200)}`).toBeDefined();
}

/**
 * An error of api.md's table: the status, JSON content type, `{"error": {code, message,
 * details}}`, never a 500. Returns the body for further checks.
 */
export function expectError(response: ApiResponse, status: number, code?: string): ErrorResponse {
  expect(response.status, response.text).toBe(status);
  expectJson(response);
  expect(contractProblems('error', response.json)).toEqual([]);
  const body = response.json as ErrorResponse;
  if (code !== undefined) expect(body.error.code).toBe(code);
  expect(body.error.message).not.toBe('');
  return body;
}

/** A 200 of conversation/start for this conversation. */
export function expectStarted(response: ApiResponse, conversationId: string): void {
  expect(response.status, response.text).toBe(200);
  expectJson(response);
  expect(contractProblems('start', response.json)).toEqual([]);
  expect(response.json).toMatchObject({ status: 'success', conversation_id: conversationId });
}

/**
 * A 200 of either voice route that keeps every promise of api.md: the response schema, `commands`
 * empty, each `arguments` a JSON string of an object, a `tool_call_id` whenever the user is asked.
 */
export function expectVoiceResponse(
  response: ApiResponse,
  stopReason?: VoiceResponse['stop_reason'],
  status = 200,
): VoiceResponse {
  expect(response.status, response.text).toBe(status);
  expectJson(response);
  expect(contractProblems('voice', response.json)).toEqual([]);
  const body = response.json as VoiceResponse;
  expect(body.commands).toEqual([]);
  for (const call of body.tool_calls) {
    expect(typeof call.function.arguments).toBe('string');
    const parsed: unknown = JSON.parse(call.function.arguments);
    expect(parsed).toBeTypeOf('object');
    expect(Array.isArray(parsed)).toBe(false);
  }
  if (body.stop_reason === 'validation_required') {
    expect(body.validation_request?.tool_call_id).toEqual(expect.any(String));
  }
  if (body.stop_reason === 'complete') expect(body.tool_calls).toEqual([]);
  if (stopReason !== undefined) expect(body.stop_reason).toBe(stopReason);
  return body;
}

/** The arguments of the response's one tool call, parsed. */
export function onlyCallOf(body: VoiceResponse): { id: string; name: string; arguments: unknown } {
  expect(body.tool_calls).toHaveLength(1);
  const [call] = body.tool_calls;
  if (call === undefined) throw new Error('no tool call');
  return { id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) };
}
