import { performance } from 'node:perf_hooks';
import { routePath } from '../../functions/http/contract/api-routes';

export const LOAD_ROUTES = {
  start: routePath('conversation-start'),
  command: routePath('voice-command'),
  continue: routePath('voice-command-continue'),
} as const;
export type LoadRoute = keyof typeof LOAD_ROUTES;

/** What the driver knows of one conversation: what the service acknowledged with a 200. */
export interface ConversationLog {
  /** The conversation's number in the run, the middle of its turn tags. */
  readonly number: number;
  readonly nodeId: string;
  readonly conversationId: string;
  /** Tags of the utterances whose voice/command answered 200, in the order they were sent. */
  readonly acknowledgedTurns: string[];
  /** Tool call id -> tag of the result whose continue answered 200. */
  readonly acknowledgedResults: Map<string, string>;
}

/** A response that was a 200 yet not what the exchange expects next (e.g. no tool call). */
export interface UnexpectedResponse {
  readonly route: LoadRoute;
  readonly reason: string;
}

/**
 * Everything the load run learns while it runs, kept small per request: a latency number per
 * response, a status count, and each conversation's acknowledged turns for the store check.
 */
export class LoadRecorder {
  readonly conversations: ConversationLog[] = [];
  readonly latencies: Record<LoadRoute, number[]> = { start: [], command: [], continue: [] };
  readonly statuses: Record<LoadRoute, Map<number, number>> = {
    start: new Map(),
    command: new Map(),
    continue: new Map(),
  };
  readonly unexpected: UnexpectedResponse[] = [];
  #firstSentAt = Number.POSITIVE_INFINITY;
  #lastAnsweredAt = 0;

  /** A new conversation of `nodeId`, numbered from 0 in the order the driver opens them. */
  open(nodeId: string, conversationId: string): ConversationLog {
    const log: ConversationLog = {
      number: this.conversations.length,
      nodeId,
      conversationId,
      acknowledgedTurns: [],
      acknowledgedResults: new Map(),
    };
    this.conversations.push(log);
    return log;
  }

  /** The moment a request goes out (autocannon writes it right after `setupRequest`). */
  sent(): number {
    const now = performance.now();
    if (now < this.#firstSentAt) this.#firstSentAt = now;
    return now;
  }

  answered(route: LoadRoute, status: number, sentAt: number): void {
    const now = performance.now();
    this.#lastAnsweredAt = now;
    this.latencies[route].push(now - sentAt);
    const counts = this.statuses[route];
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }

  /** Milliseconds from the first request sent to the last response received. */
  get elapsedMs(): number {
    return Math.max(0, this.#lastAnsweredAt - this.#firstSentAt);
  }

  get responses(): number {
    return Object.values(this.latencies).reduce((sum, samples) => sum + samples.length, 0);
  }

  /** Responses with a status other than 2xx. */
  get failedResponses(): number {
    let failed = 0;
    for (const counts of Object.values(this.statuses)) {
      for (const [status, count] of counts) if (status < 200 || status > 299) failed += count;
    }
    return failed;
  }
}
