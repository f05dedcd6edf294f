// autocannon 8 ships no types; this declares only the part of its programmatic API the load run
// uses (README: "requests" with setupRequest/onResponse and a per-connection context).
declare module 'autocannon' {
  /** What a request of the sequence is built from; `setupRequest` returns a changed copy. */
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  /** The per-connection state, reset to `initialContext` whenever the sequence starts over. */
  export type AutocannonContext = Record<string, unknown>;

  export interface AutocannonRequestStep extends AutocannonRequest {
    /** A falsy return starts the sequence over from its first request (with a fresh context). */
    setupRequest?: (
      request: AutocannonRequest,
      context: AutocannonContext,
    ) => AutocannonRequest | null | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: AutocannonContext,
      headers: Record<string, string | string[]>,
    ) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    amount?: number;
    /** Seconds. */
    timeout?: number;
    requests?: AutocannonRequestStep[];
    initialContext?: AutocannonContext;
  }

  /** An hdr-histogram-percentiles-obj summary (milliseconds for latency). */
  export interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface AutocannonResult {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on(event: 'done', listener: (result: AutocannonResult) => void): this;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
