// Wire-shape building blocks for requests sent to the scripted server directly with fetch.
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';

export const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Forecast', parameters: { type: 'object' } },
};
export const callOf = (id: string, args: unknown = '{}') => ({
  id,
  type: 'function',
  function: { name: 'get_weather', arguments: args },
});
export const user = { role: 'user', content: 'Weather in LA and Paris?' };
export const assistantCalling = (...ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => callOf(id)),
});
export const toolAnswer = (id: string, content: unknown = '{"temperature":20}') => ({
  role: 'tool',
  tool_call_id: id,
  content,
});
export const bodyWith = (fields: Record<string, unknown>) => ({
  model: 'test-model',
  messages: [user, assistantCalling('call_1'), toolAnswer('call_1')],
  tools: [weatherTool],
  tool_choice: 'auto',
  ...fields,
});

export interface ResponseJson {
  readonly error?: Readonly<Record<string, unknown>>;
  readonly choices?: ReadonlyArray<{
    readonly message: { readonly content: unknown; readonly tool_calls?: readonly unknown[] };
  }>;
  readonly [field: string]: unknown;
}

/** Posts to a path of the server's origin, so both `/v1/...` and bare paths can be tried. */
export const post = async (
  server: ScriptedLlmServer,
  body: unknown,
  path = '/v1/chat/completions',
) => {
  const response = await fetch(new URL(path, server.baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as ResponseJson,
  };
};
