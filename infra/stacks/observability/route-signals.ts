import type { ApiRoute } from '../../../functions/http/contract/api-routes';

/**
 * What one route of the table really emits, so that the dashboard draws and the alarms read only
 * lines that can get data. Every status is counted with the route it was aimed at, the edge's
 * refusals included (functions/http/edge/create-route.ts). test/infra/stacks/emitted-metrics.test.ts
 * drives each route through these outcomes with the real handlers and checks both ways: every
 * line drawn or alarmed on is emitted, every line emitted is drawn or listed as not drawn.
 */
export interface RouteSignals {
  /** The error statuses it can answer: `status_<code>`. */
  readonly statuses: readonly number[];
  /**
   * Runs turns: `model_calls`, `stop_<reason>`, `command_answers` (1 when the node's commands
   * wrote the answer, no model call), the token counts... once per turn.
   */
  readonly turns: boolean;
  /** Answers a repeated request id from the record: `replayed_requests`. */
  readonly replays: boolean;
  /** Warms the model up before the first turn: `warmup_<outcome>`. */
  readonly warmsUp: boolean;
  /** Passes the node's messages to the model: `model_calls` (one per chat), `chat_cut_off`, tokens. */
  readonly chats: boolean;
  /**
   * Answers the model failures that have a code of their own, each also a metric of that name
   * (`llm_throttled`, `llm_credentials_rejected`, ...: functions/http/errors/provider-failure-codes.ts).
   */
  readonly modelFailures: boolean;
  /** Transcribes recordings: `audio_seconds_transcribed`, `speech_provider_errors`. */
  readonly hears: boolean;
  /**
   * Answers the speech provider refusals that have a code of their own, each also a metric of
   * that name (`speech_permission_denied`, ...: Amazon Transcribe's, provider-failure-codes.ts).
   */
  readonly speechRefusals: boolean;
  /** Synthesizes speech: `characters_synthesized`, `speech_provider_errors`. */
  readonly speaks: boolean;
  /**
   * Streams the speech, answering at its first bytes: `time_to_first_audio_byte` (a route that
   * answers the whole WAV at once has no first byte to time).
   */
  readonly streamsSpeech: boolean;
  /** Answers its JSON when the speech fails before its first byte: `speech_fallbacks`. */
  readonly fallsBack: boolean;
}

/** A route of the table as the dashboard draws it: a row of graphs, only the lines it emits. */
export interface DashboardRoute {
  /** The route table's name: the `route` dimension of our metrics. */
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly signals: RouteSignals;
}

/**
 * Every route's edge: a bad key (401), a node over its rate (429), and the registry read behind
 * the key failing (503 storage_unavailable) or being a bug (500).
 */
export const edgeStatuses = [401, 429, 500, 503] as const;

/**
 * A body's edge (JSON, or an upload): not JSON or not the schema, or a malformed upload (400),
 * too large (413), not the route's media type (415).
 */
export const bodyStatuses = [400, 413, 415] as const;

/** What a turn adds: unknown conversation, conflicts, a reused request id, model and deadline. */
const turnStatuses = [400, 404, 409, 413, 422, 502, 503, 504] as const;

type Declared = Partial<RouteSignals>;

/**
 * What a route emits beyond its edge, by route name. A route not listed emits its edge and its
 * latency only; the test names a route that emits more than it is declared to.
 */
const declared: Readonly<Record<string, Declared>> = {
  'conversation-start': { warmsUp: true },
  'voice-command': { statuses: turnStatuses, turns: true, replays: true, modelFailures: true },
  // The turn of voice/command, its final answer spoken (or its JSON when speech fails first).
  'voice-command-stream': {
    statuses: turnStatuses,
    turns: true,
    replays: true,
    modelFailures: true,
    speaks: true,
    streamsSpeech: true,
    fallsBack: true,
  },
  'voice-command-continue': {
    statuses: turnStatuses,
    turns: true,
    replays: true,
    modelFailures: true,
  },
  // With speech out, the continue itself (no request id: its outcome is handed to the blocking
  // continue, which replays it); without, a 202 that reads nothing.
  'voice-command-continue-stream': {
    statuses: [404, 409, 502, 504],
    turns: true,
    modelFailures: true,
    speaks: true,
    streamsSpeech: true,
    fallsBack: true,
  },
  // The speech routes: a provider failing is their own 502 (speech_provider_failed), speech not
  // configured their 503.
  'media-transcribe': { statuses: [502], hears: true, speechRefusals: true },
  'media-speak': { statuses: [502], speaks: true },
  'media-speak-stream': { statuses: [502], speaks: true, streamsSpeech: true },
  // An unknown time zone in the query.
  'date-context': { statuses: [400] },
  // The node's messages to the model: a failing model, the deadline; no conversation.
  chat: { statuses: [502, 504], chats: true, modelFailures: true },
};

/** The signals of `route`: its edge's statuses, and what the table above declares. */
export function routeSignals(
  route: Pick<ApiRoute, 'name' | 'requestBody' | 'upload'>,
): RouteSignals {
  const extra = declared[route.name] ?? {};
  const statuses = new Set<number>([
    ...edgeStatuses,
    ...(route.requestBody === null && route.upload === undefined ? [] : bodyStatuses),
    ...(extra.statuses ?? []),
  ]);
  return {
    statuses: [...statuses].sort((left, right) => left - right),
    turns: extra.turns ?? false,
    replays: extra.replays ?? false,
    warmsUp: extra.warmsUp ?? false,
    chats: extra.chats ?? false,
    modelFailures: extra.modelFailures ?? false,
    hears: extra.hears ?? false,
    speechRefusals: extra.speechRefusals ?? false,
    speaks: extra.speaks ?? false,
    streamsSpeech: extra.streamsSpeech ?? false,
    fallsBack: extra.fallsBack ?? false,
  };
}
