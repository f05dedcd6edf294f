import { readFileSync } from 'node:fs';
import type { AutocannonContext, AutocannonRequest, AutocannonRequestStep } from 'autocannon';
import {
  type ConversationLog,
  LOAD_ROUTES,
  type LoadRecorder,
  type LoadRoute,
} from './load-recorder';
import { turnTag } from './turn-tag';

/** A registered node as the driver sends it: its id and its whole `X-API-Key` header value. */
export interface LoadNode {
  readonly nodeId: string;
  readonly apiKey: string;
}

/** One connection's place in its current conversation (autocannon's per-connection context). */
interface ExchangeState {
  readonly log: ConversationLog;
  started: boolean;
  /** Tool call ids of the last voice/command, until a continue answers them. */
  pending: string[];
  tag: string;
  sentAt: number;
}

const stateOf = (context: AutocannonContext): ExchangeState | undefined =>
  context.state as ExchangeState | undefined;

const REGISTRATION = new URL(
  '../../test/fixtures/voice-node-conversation-start.json',
  import.meta.url,
);
const PLACEHOLDER = '\u0000conversation-id\u0000';

/** The real node's registration (22 KB), split around its conversation id so a start is a concat. */
function registrationParts(): readonly [string, string] {
  const registration: unknown = JSON.parse(readFileSync(REGISTRATION, 'utf8'));
  const text = JSON.stringify({ ...(registration as object), conversation_id: PLACEHOLDER });
  const [before = '', after = ''] = text.split(JSON.stringify(PLACEHOLDER));
  return [before, after];
}

interface VoiceReply {
  readonly stop_reason?: unknown;
  readonly tool_calls?: readonly { id?: unknown; function?: { arguments?: unknown } }[];
}

/** The parsed body, or an empty object: a body that is not JSON then fails the checks after. */
function parseJson<Shape extends object>(text: unknown): Partial<Shape> {
  try {
    const value: unknown = JSON.parse(String(text));
    return typeof value === 'object' && value !== null ? (value as Partial<Shape>) : {};
  } catch {
    return {};
  }
}

/**
 * The request sequence every connection loops over: conversation/start, then `exchanges` times
 * voice/command (expects one tool call) and continue with its results (expects `complete`). A
 * failed step makes the next one start a new conversation rather than send a request that
 * cannot succeed.
 */
export function exchangeRequests(
  exchanges: number,
  nodes: readonly LoadNode[],
  runId: string,
  recorder: LoadRecorder,
  /** Send a `request_id` with every voice request, as a node that resends would. */
  requestIds = false,
): AutocannonRequestStep[] {
  const withRequestId = (body: Record<string, unknown>, requestId: string) =>
    JSON.stringify(requestIds ? { ...body, request_id: requestId } : body);
  const [before, after] = registrationParts();
  const post = (request: AutocannonRequest, route: LoadRoute, apiKey: string, body: string) => {
    request.method = 'POST';
    request.path = LOAD_ROUTES[route];
    request.headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    request.body = body;
    return request;
  };
  const apiKeyOf = (log: ConversationLog) =>
    nodes.find((node) => node.nodeId === log.nodeId)?.apiKey ?? '';
  const unexpected = (route: LoadRoute, reason: string) =>
    recorder.unexpected.push({ route, reason });

  const start: AutocannonRequestStep = {
    setupRequest: (request, context) => {
      const conversationId = `${runId}-${recorder.conversations.length}`;
      const node = nodes[recorder.conversations.length % nodes.length] ?? {
        nodeId: '',
        apiKey: '',
      };
      const log = recorder.open(node.nodeId, conversationId);
      const state: ExchangeState = { log, started: false, pending: [], tag: '', sentAt: 0 };
      context.state = state;
      state.sentAt = recorder.sent();
      return post(
        request,
        'start',
        node.apiKey,
        `${before}${JSON.stringify(conversationId)}${after}`,
      );
    },
    onResponse: (status, _body, context) => {
      const state = stateOf(context);
      if (state === undefined) return;
      recorder.answered('start', status, state.sentAt);
      state.started = status === 200;
    },
  };

  const command = (exchange: number): AutocannonRequestStep => ({
    setupRequest: (request, context) => {
      const state = stateOf(context);
      if (state === undefined || !state.started) return null;
      state.tag = turnTag(state.log.number, exchange);
      const body = withRequestId(
        {
          conversation_id: state.log.conversationId,
          voice_command: `Set a timer for five minutes called ${state.tag}`,
        },
        state.tag,
      );
      state.sentAt = recorder.sent();
      return post(request, 'command', apiKeyOf(state.log), body);
    },
    onResponse: (status, body, context) => {
      const state = stateOf(context);
      if (state === undefined) return;
      recorder.answered('command', status, state.sentAt);
      state.pending = [];
      if (status !== 200) return;
      state.log.acknowledgedTurns.push(state.tag);
      const reply = parseJson<VoiceReply>(body);
      const calls = reply.tool_calls ?? [];
      if (reply.stop_reason !== 'tool_calls' || calls.length === 0) {
        unexpected(
          'command',
          `stop_reason ${String(reply.stop_reason)} with ${calls.length} calls`,
        );
        return;
      }
      for (const call of calls) {
        const label = parseJson<{ label: unknown }>(call.function?.arguments).label;
        if (label !== state.tag)
          unexpected('command', `call for ${String(label)}, not ${state.tag}`);
        state.pending.push(String(call.id));
      }
    },
  });

  const resume: AutocannonRequestStep = {
    setupRequest: (request, context) => {
      const state = stateOf(context);
      if (state === undefined || state.pending.length === 0) return null;
      const results = state.pending.map((id) => ({
        tool_call_id: id,
        output: { status: 'running', timer: state.tag },
      }));
      const body = withRequestId(
        { conversation_id: state.log.conversationId, tool_results: results },
        `${state.tag}-results`,
      );
      state.sentAt = recorder.sent();
      return post(request, 'continue', apiKeyOf(state.log), body);
    },
    onResponse: (status, body, context) => {
      const state = stateOf(context);
      if (state === undefined) return;
      recorder.answered('continue', status, state.sentAt);
      const answered = state.pending;
      state.pending = [];
      if (status !== 200) return;
      for (const id of answered) state.log.acknowledgedResults.set(id, state.tag);
      const reply = parseJson<VoiceReply>(body);
      if (reply.stop_reason !== 'complete') {
        unexpected('continue', `stop_reason ${String(reply.stop_reason)}`);
      }
    },
  };

  const steps = Array.from({ length: exchanges }, (_, index) => [command(index), resume]);
  return [start, ...steps.flat()];
}
