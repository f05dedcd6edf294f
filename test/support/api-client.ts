import { routePath } from '../../functions/http/contract/api-routes';

/** What a test reads from one response of the local API. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed body; undefined when the body is not JSON (itself a failure for this API). */
  readonly json: unknown;
  readonly text: string;
}

export interface PostOptions {
  /** `X-API-Key` to send instead of the client's own; null sends none. */
  readonly key?: string | null;
  /** Content-Type to send instead of application/json; null sends none. */
  readonly contentType?: string | null;
  /** Sent verbatim instead of `JSON.stringify(body)`: broken JSON, oversized bodies. */
  readonly rawBody?: string | Uint8Array;
}

export interface ApiClient {
  readonly baseUrl: string;
  post(path: string, body: unknown, options?: PostOptions): Promise<ApiResponse>;
  /** Sends the client's node key (routes other than /health and /openapi.json need it). */
  get(path: string): Promise<ApiResponse>;
}

/** The routes tests call most, from the route table. */
export const ROUTES = {
  start: routePath('conversation-start'),
  command: routePath('voice-command'),
  commandStream: routePath('voice-command-stream'),
  continue: routePath('voice-command-continue'),
  continueStream: routePath('voice-command-continue-stream'),
  acknowledge: routePath('voice-acknowledge'),
  dateContext: routePath('date-context'),
} as const;

/**
 * A tiny fetch wrapper for the local API: JSON in, status, headers and parsed JSON out, with the
 * node key of the client sent unless a request says otherwise.
 */
export function createApiClient(baseUrl: string, options: { key?: string } = {}): ApiClient {
  const read = async (response: Response): Promise<ApiResponse> => {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      json: parseOrUndefined(text),
      text,
    };
  };
  return {
    baseUrl,
    post: async (path, body, request = {}) => {
      const headers: Record<string, string> = {};
      const key = request.key === undefined ? options.key : request.key;
      if (key !== undefined && key !== null) headers['x-api-key'] = key;
      const contentType =
        request.contentType === undefined ? 'application/json' : request.contentType;
      const payload = request.rawBody ?? JSON.stringify(body);
      // fetch adds text/plain to a string body without a Content-Type; bytes go out with none.
      const sent = contentType === null ? toBytes(payload) : payload;
      if (contentType !== null) headers['content-type'] = contentType;
      return read(await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: sent }));
    },
    get: async (path) => {
      const headers: Record<string, string> =
        options.key === undefined ? {} : { 'x-api-key': options.key };
      return read(await fetch(`${baseUrl}${path}`, { headers }));
    },
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toBytes(payload: string | Uint8Array): Uint8Array {
  return typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
}
