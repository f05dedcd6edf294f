/** A tool call in a request body, as the wire carries it (nothing here is checked by the type). */
export interface WireToolCall {
  readonly id?: string;
  readonly type?: string;
  readonly function: { readonly name: string; readonly arguments: unknown };
}

/** A message in a request body, as the wire carries it. */
export interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly WireToolCall[];
  readonly tool_call_id?: string;
}

/** A tool declaration in a request body, as the wire carries it. */
export interface WireTool {
  readonly type: string;
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: Readonly<Record<string, unknown>>;
  };
}

/**
 * A `/chat/completions` body as received. The type says what a well-formed body holds so tests
 * can read it easily; a body that broke the protocol may lack any of it.
 */
export interface ChatRequestBody {
  readonly model?: string;
  readonly messages?: readonly WireMessage[];
  readonly tools?: readonly WireTool[];
  readonly tool_choice?: unknown;
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly [field: string]: unknown;
}

export interface RecordedRequest {
  readonly method: string;
  /** Without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; null when there was none or it was not JSON. */
  readonly body: ChatRequestBody | null;
  /** The body's length in characters, what the default usage block counts prompt tokens from. */
  readonly bodyLength: number;
}

/** A request the real API would have refused with a 400; the server answered so too. */
export interface ProtocolViolation {
  readonly request: RecordedRequest;
  /** A short stable name of the rule, e.g. `tool_calls_unanswered`. */
  readonly rule: string;
  readonly message: string;
}

/** A request that found the script empty: the test sent more model calls than it planned. */
export interface UnexpectedRequest {
  readonly request: RecordedRequest;
  readonly error: 'script exhausted';
}

export interface ScriptedToolCall {
  /** Left out: the server makes one up (`call_scripted_<n>`). `null`: the field is not sent. */
  readonly id?: string | null;
  readonly name: string;
  /** Sent exactly as given: a JSON string as the API specifies, or a raw object, or anything. */
  readonly arguments: unknown;
}

/** 200 with one choice. `finish_reason` defaults to `tool_calls` when there are calls, else `stop`. */
export interface ReplyStep {
  readonly reply: {
    readonly content?: string | null;
    readonly tool_calls?: readonly ScriptedToolCall[];
    readonly finish_reason?: string;
  };
  /** Answers only after this long: a slow model, for requests that must overlap. */
  readonly delayMs?: number;
  /**
   * Answers only once this settles (after `delayMs`, if both): requests that must overlap do,
   * however slow the machine, since the test decides when the model answers.
   */
  readonly heldUntil?: Promise<unknown>;
}

/** Any status; without `body`, an OpenAI-style error body. E.g. 429 with `Retry-After`, 500, 503. */
export interface StatusStep {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answers only once this settles: a model that fails while another request waits on it. */
  readonly heldUntil?: Promise<unknown>;
}

/** No answer for `hangMs`, then the connection is closed without a response. */
export interface HangStep {
  readonly hangMs: number;
}

/** A body sent verbatim (cut off mid-JSON, not JSON, `{"choices": []}`); JSON content type by default. */
export interface RawBodyStep {
  readonly rawBody: string;
  readonly status?: number;
  readonly contentType?: string;
}

/**
 * A 200 JSON body of `times` × `chunk`, chunked (no content-length), written as fast as the client
 * reads it; `written` counts the bytes the server managed to write before the client hung up.
 */
export interface StreamedBodyStep {
  readonly streamedBody: { readonly chunk: string; readonly times: number };
  readonly written: { bytes: number; finished: boolean };
}

/** A step that says what to answer, as opposed to one computed from the request. */
export type FixedStep = ReplyStep | StatusStep | HangStep | RawBodyStep | StreamedBodyStep;

export type ScriptStep = FixedStep | ((request: RecordedRequest) => ScriptStep);

export interface ScriptedLlmServer {
  /** E.g. `http://127.0.0.1:PORT/v1`, ready for the SDK's `baseURL`. */
  readonly baseURL: string;
  /** Every request received, on any path, in order. */
  readonly requests: readonly RecordedRequest[];
  readonly protocolViolations: readonly ProtocolViolation[];
  readonly unexpectedRequests: readonly UnexpectedRequest[];
  /**
   * Queues replies; each well-formed chat completion request consumes the next one. A request
   * the protocol checks refuse consumes none. With an empty queue the server answers 500 (with
   * `x-should-retry: false`) and records the request in `unexpectedRequests`.
   */
  enqueue(...steps: ScriptStep[]): void;
  /** Forgets the queue and everything recorded. */
  reset(): void;
  close(): Promise<void>;
}
