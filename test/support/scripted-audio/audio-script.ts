/** What the scripted audio server recorded of one request. */
export interface RecordedAudioRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `audio/transcriptions`: the multipart fields and the uploaded file. */
  readonly transcription: RecordedUpload | null;
  /** `audio/speech`: the JSON body. */
  readonly speech: Readonly<Record<string, unknown>> | null;
}

export interface RecordedUpload {
  readonly model: string | null;
  readonly fields: Readonly<Record<string, string>>;
  readonly filename: string | null;
  readonly fileType: string | null;
  readonly file: Uint8Array;
}

/** An HTTP error answer: `{"error": {...}}` with `status`, or `body` as given. */
export interface ErrorStep {
  readonly status: number;
  readonly body?: unknown;
}

export type FixedTranscriptionStep =
  /** `hold`: the reply waits for it (a slow server, released by the test or never). */
  | { readonly text: string; readonly hold?: Promise<unknown> }
  /** Sent as is (a reply without text, garbage). */
  | { readonly rawBody: string; readonly contentType?: string }
  | ErrorStep;

/** A step, or a function computing one from the request. */
export type TranscriptionStep =
  | FixedTranscriptionStep
  | ((request: RecordedAudioRequest) => TranscriptionStep);

export interface AudioStep {
  /** The bytes of the body (raw PCM or a whole WAV file), sent in `chunks` writes. */
  readonly audio: Uint8Array;
  /**
   * How many writes the body is cut into (default 4). TCP may join writes that follow each other;
   * `holdAfterFirstChunk` is what makes the first chunk arrive alone (streaming observable).
   */
  readonly chunks?: number;
  readonly contentType?: string;
  /** The answer waits for it before sending anything (a slow provider, released by the test). */
  readonly holdBeforeHeaders?: Promise<unknown>;
  /** The rest of the body waits for it after the first chunk. */
  readonly holdAfterFirstChunk?: Promise<unknown>;
  /** The connection is destroyed after this many chunks (a provider dropping mid-stream). */
  readonly dropAfterChunks?: number;
  /** Told when the exchange closes, by either side: whether the body was sent whole. */
  readonly whenClosed?: (sentWhole: boolean) => void;
}

export type FixedSpeechStep = AudioStep | ErrorStep;

export type SpeechStep = FixedSpeechStep | ((request: RecordedAudioRequest) => SpeechStep);

export interface ScriptedAudioServer {
  /** `http://127.0.0.1:<port>/v1`: the base URL the `openai` SDK takes. */
  readonly baseURL: string;
  readonly requests: readonly RecordedAudioRequest[];
  /** Requests that found no step queued (each was answered 500). */
  readonly unexpectedRequests: readonly RecordedAudioRequest[];
  /** Requests whose client closed the connection before their answer ended (a call stopped). */
  readonly cancelled: readonly RecordedAudioRequest[];
  enqueueTranscription(...steps: TranscriptionStep[]): void;
  enqueueSpeech(...steps: SpeechStep[]): void;
  reset(): void;
  close(): Promise<void>;
}
