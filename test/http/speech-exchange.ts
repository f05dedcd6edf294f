import { expect } from 'vitest';
import type { LocalApiServer } from '../../infra/local/local-api-server';
import { ROUTES } from '../support/api-client';
import { strictClientProblems, toolCallingResponseModel } from '../support/strict-node-models';
import { conversationIdFor, fixtureStartBody } from './http-fixtures';
import { expectStarted, expectVoiceResponse } from './response-contract';
import { postRaw } from './speech-api';

/** What the voice stream tests share: a one-sentence answer, and the node's side of a turn. */
export const ANSWER = 'Twelve times seven is 84, café included.';
export const UTTERANCE = 'what is twelve times seven';

export const postJson = (server: LocalApiServer, path: string, body: unknown) =>
  postRaw(server, path, JSON.stringify(body), { 'content-type': 'application/json' });

/** A response read to its end, as `requests` gives it to the node. */
export async function read(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text, bytes };
}

export async function start(server: LocalApiServer, label: string): Promise<string> {
  const id = conversationIdFor(label);
  const started = await read(await postJson(server, ROUTES.start, fixtureStartBody(id)));
  expectStarted(started, id);
  return id;
}

/** A 202 the node's `send_command_unified` parses into its ToolCallingResponse. */
export function nodeControl(response: Awaited<ReturnType<typeof read>>) {
  expect(response.status, response.text).toBe(202);
  expect(strictClientProblems(toolCallingResponseModel, response.json)).toEqual([]);
  return expectVoiceResponse(response, undefined, 202);
}

/** Tool results as the node sends them, in any order. */
export const results = (id: string, callId: string, value: number) => ({
  conversation_id: id,
  tool_results: [{ tool_call_id: callId, output: { success: true, result: value } }],
});
