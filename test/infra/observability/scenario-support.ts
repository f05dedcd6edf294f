import type { APIGatewayProxyResult } from 'aws-lambda';
import { expect } from 'vitest';
import { type ApiRoute, apiRoute } from '../../../functions/http/contract/api-routes';
import { callsReply, fixtureStartBody, toolCall } from '../../http/http-fixtures';
import type { ScriptedAudioServer } from '../../support/scripted-audio-server';
import type {
  ScriptedLlmServer,
  ScriptStep,
  StartedScriptedLlmServer,
} from '../../support/scripted-llm-server';
import type { ScriptedTranscribeServer } from '../../support/scripted-transcribe-server';
import type { Send } from './metrics-harness';

/** The handlers of every function in each configuration a route's outcomes need. */
export interface Configurations {
  /** A scripted model, the default deadline, no warm-up, no speech. */
  readonly model: Send;
  /** The same with the default warm-up. */
  readonly warming: Send;
  readonly llm: ScriptedLlmServer;
  /** The same, hearing and speaking through the scripted audio server. */
  readonly speaking: Send;
  readonly audio: ScriptedAudioServer;
  /** A model that never answers, a short turn deadline and warm-up; speech as `speaking`. */
  readonly slow: Send;
  readonly slowLlm: ScriptedLlmServer;
  /** No model and no speech configured. */
  readonly noModel: Send;
  /**
   * The model through Bedrock (MODEL_PROVIDER=bedrock), signed for its stand-in `bedrockLlm`;
   * `bedrockSpeaking` speaks as `speaking` does.
   */
  readonly bedrock: Send;
  readonly bedrockSpeaking: Send;
  readonly bedrockLlm: StartedScriptedLlmServer;
  /** Hearing through Amazon Transcribe (STT_PROVIDER=transcribe), signed for its stand-in. */
  readonly transcribing: Send;
  readonly transcribe: ScriptedTranscribeServer;
  /** One request per node and window, the window's one request spent. */
  readonly limited: Send;
  /** The registry's table does not exist: every key check fails as storage_unavailable. */
  readonly storeDown: Send;
  /** The registry's table has another key: every key check is a malformed request, a bug. */
  readonly storeBug: Send;
}

export const expectStatus = (response: APIGatewayProxyResult, status: number, what: string) =>
  expect(response.statusCode, `${what}: ${response.body}`).toBe(status);

export const HANG = { hangMs: 120_000 } as const;

/** An AWS-shaped answer of Bedrock's endpoint. */
const awsAnswer = (status: number, type: string, message: string): ScriptStep => ({
  status,
  headers: { 'x-amzn-errortype': type, 'retry-after-ms': '1' },
  body: { message },
});

/** Bedrock refusing the call each way, and throttling every attempt: each a 502 of its own code. */
export const MODEL_FAILURE_SCRIPTS: readonly (readonly [readonly ScriptStep[], string])[] = [
  [
    [
      awsAnswer(
        403,
        'ExpiredTokenException',
        'The security token included in the request is expired',
      ),
    ],
    'llm_credentials_rejected',
  ],
  [
    [
      awsAnswer(
        403,
        'AccessDeniedException',
        'User: role/jcc is not authorized to perform: bedrock-mantle:CreateInference',
      ),
    ],
    'llm_permission_denied',
  ],
  [
    [
      awsAnswer(
        403,
        'AccessDeniedException',
        "You don't have access to the model with the specified model ID.",
      ),
    ],
    'llm_model_access_denied',
  ],
  [
    Array.from({ length: 5 }, () => awsAnswer(429, 'ThrottlingException', 'Too many requests')),
    'llm_throttled',
  ],
];

/** Each of MODEL_FAILURE_SCRIPTS through `send` (a Bedrock configuration) on `route`. */
export async function modelFailureOutcomes(
  c: Configurations,
  send: Send,
  route: ApiRoute,
  request: { readonly body: unknown },
): Promise<void> {
  for (const [steps, code] of MODEL_FAILURE_SCRIPTS) {
    c.bedrockLlm.enqueue(...steps);
    const response = await send(route, request);
    expectStatus(response, 502, code);
    const signatures = c.bedrockLlm.signatureFailures.join('; ');
    expect(JSON.parse(response.body).error.code, `${response.body} ${signatures}`).toBe(code);
  }
}
export const VALID_CALL = toolCall('calculate', { num1: 2, num2: 3, operation: 'add' }, 'call_add');
export const INVALID_CALL = callsReply(
  toolCall('calculate', { num1: 2, num2: 3, operation: 'power' }),
);

let sequence = 0;
export const conversationId = (label: string) => {
  sequence += 1;
  return `metrics-${label}-${sequence}`;
};

/** A conversation of NODE (no warm-up), started through `send`. */
export async function started(send: Send, label: string): Promise<string> {
  const id = conversationId(label);
  const body = { ...fixtureStartBody(id), skip_warmup_inference: true };
  expectStatus(await send(apiRoute('conversation-start'), { body }), 200, 'start');
  return id;
}

/** A conversation whose call `call_add` waits for the node's result. */
export async function pending(c: Configurations, label: string): Promise<string> {
  const id = await started(c.model, label);
  c.llm.enqueue(callsReply(VALID_CALL));
  const body = { conversation_id: id, voice_command: 'add two and three' };
  expectStatus(await c.model(apiRoute('voice-command'), { body }), 200, 'pending call');
  return id;
}

/** The results of `call_add` for `id`, with a request id if given. */
export const results = (id: string, request_id?: string) => ({
  body: {
    conversation_id: id,
    tool_results: [{ tool_call_id: 'call_add', output: { result: 5 } }],
    ...(request_id ? { request_id } : {}),
  },
});
