import { createServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import {
  EventStreamCodec,
  HeaderMarshaller,
  type Message,
  type MessageHeaders,
} from '@smithy/eventstream-codec';
import { listenOnLoopback } from './http2-loopback';
import {
  authorizationSignature,
  EventChunkVerifier,
  type ExpectedSigner,
  signatureProblem,
} from './sigv4-verifier';

/** One result of a TranscriptEvent: its text, and whether Transcribe may still change it. */
export interface ScriptedResult {
  readonly text: string;
  readonly partial: boolean;
}

export type TranscribeStep =
  /** After the audio ends: one TranscriptEvent per entry, then the stream ends. */
  | { readonly kind: 'results'; readonly events: readonly (readonly ScriptedResult[])[] }
  /** Refused before the stream starts: an HTTP error as AWS shapes it. */
  | {
      readonly kind: 'refusal';
      readonly status: number;
      readonly errorType: string;
      readonly message: string;
    }
  /** After the first audio event: an exception event (`:message-type: exception`). */
  | { readonly kind: 'exception'; readonly exceptionType: string; readonly message: string }
  /** The headers, then nothing: no result and no end, whatever is sent. */
  | { readonly kind: 'stall' }
  /** After the audio ends: final results of `text` until `bytes` have been sent. */
  | { readonly kind: 'flood'; readonly text: string; readonly bytes: number }
  /** After the audio ends: final results of `text`, one byte a write, until `bytes` are sent. */
  | { readonly kind: 'drip'; readonly text: string; readonly bytes: number }
  /** Refused with `status` and an error body of `bytes` (a message that does not end). */
  | { readonly kind: 'errorFlood'; readonly status: number; readonly bytes: number };

/** One StartStreamTranscription as the server received it. */
export interface RecordedTranscription {
  readonly headers: Readonly<Record<string, string>>;
  /** Why its signature is wrong, or null. */
  readonly signatureProblem: string | null;
  /** The audio of its AudioEvents, in order. */
  readonly audioEvents: Uint8Array[];
  /** Whether the client sent the empty event that ends the audio. */
  ended: boolean;
  /**
   * Why an envelope's `:chunk-signature` is wrong (the first such), or null: the stream was then
   * answered with a BadRequestException event and read no further.
   */
  chunkSignatureProblem: string | null;
  /** Envelopes whose `:chunk-signature` chained from the request's signature, the end's included. */
  signedEnvelopes: number;
  /** Resolves when the HTTP/2 stream is closed, by either side. */
  readonly closed: Promise<void>;
}

export interface ScriptedTranscribeServer {
  /** Give it to the Transcribe client as `endpoint` (TRANSCRIBE_ENDPOINT). */
  readonly endpoint: string;
  readonly requests: readonly RecordedTranscription[];
  enqueue(...steps: TranscribeStep[]): void;
  /** Streams opened and not yet closed. */
  openStreams(): number;
  reset(): void;
  close(): Promise<void>;
}

const utf8 = {
  decode: (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8'),
  encode: (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
};
const codec = new EventStreamCodec(utf8.decode, utf8.encode);
const headerMarshaller = new HeaderMarshaller(utf8.decode, utf8.encode);
const text = (value: string) => ({ type: 'string' as const, value });

/**
 * Amazon Transcribe's StartStreamTranscription (`POST /stream-transcription`) on 127.0.0.1 over
 * cleartext HTTP/2, its event stream encoded and decoded with @smithy/eventstream-codec: the
 * client's signed envelopes are opened to their AudioEvents, results and exceptions are sent as
 * Transcribe sends them. Each request's SigV4 Authorization is checked by the `aws4` package
 * (sigv4-verifier.ts) against `signer`: a wrong one is a 403 InvalidSignatureException, recorded.
 * Each envelope's `:chunk-signature` is checked too, chained from that signature
 * (EventChunkVerifier): a wrong one is a BadRequestException event, recorded.
 */
export async function startScriptedTranscribeServer(
  signer: ExpectedSigner,
): Promise<ScriptedTranscribeServer> {
  const queue: TranscribeStep[] = [];
  const requests: RecordedTranscription[] = [];
  let open = 0;
  const server = createServer((incoming, response) => {
    open += 1;
    const closed = new Promise<void>((resolve) =>
      incoming.stream.once('close', () => {
        open -= 1;
        resolve();
      }),
    );
    const headers = headersOf(incoming);
    const problem = signatureProblem(
      { method: incoming.method, url: incoming.url, headers, body: '' },
      signer,
    );
    const recorded: RecordedTranscription = {
      headers,
      signatureProblem: problem,
      audioEvents: [],
      ended: false,
      chunkSignatureProblem: null,
      signedEnvelopes: 0,
      closed,
    };
    requests.push(recorded);
    const step: TranscribeStep =
      problem !== null
        ? {
            kind: 'refusal',
            status: 403,
            errorType: 'InvalidSignatureException',
            message:
              'The request signature we calculated does not match the signature you provided.',
          }
        : (queue.shift() ?? {
            kind: 'refusal',
            status: 500,
            errorType: 'InternalFailureException',
            message: 'script exhausted: nothing queued',
          });
    const chunks = new EventChunkVerifier(
      authorizationSignature(headers.authorization) ?? '',
      signer,
      (message) => headerMarshaller.format(message),
    );
    answer(step, incoming, response, recorded, chunks);
  });
  const { endpoint, close } = await listenOnLoopback(server);
  return {
    endpoint,
    requests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    openStreams: () => open,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close,
  };
}

/** The request's headers as signed: lower-case, with HTTP/2's `:authority` (the SDK signs it). */
function headersOf(incoming: Http2ServerRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if ((name.startsWith(':') && name !== ':authority') || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function answer(
  step: TranscribeStep,
  incoming: Http2ServerRequest,
  response: Http2ServerResponse,
  recorded: RecordedTranscription,
  chunks: EventChunkVerifier,
): void {
  if (step.kind === 'errorFlood') {
    incoming.resume();
    response.writeHead(step.status, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-errortype':
        'InternalFailureException:http://internal.amazon.com/coral/com.amazonaws.transcribe.streaming/',
    });
    const chunk = Buffer.alloc(16_384, 'a');
    response.write('{"Message": "');
    let sent = 0;
    const more = () => {
      while (sent < step.bytes && !response.stream.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', more);
          return;
        }
      }
      if (!response.stream.destroyed) response.end('"}');
    };
    more();
    return;
  }
  if (step.kind === 'refusal') {
    incoming.resume();
    response.writeHead(step.status, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-errortype': `${step.errorType}:http://internal.amazon.com/coral/com.amazonaws.transcribe.streaming/`,
    });
    response.end(JSON.stringify({ Message: step.message }));
    return;
  }
  response.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-request-id': 'scripted',
    'x-amzn-transcribe-session-id': 'scripted-session',
  });
  const send = (message: Message) => {
    if (!response.stream.destroyed) response.write(codec.encode(message));
  };
  const exception = (exceptionType: string, message: string) => {
    send({
      headers: {
        ':message-type': text('exception'),
        ':exception-type': text(exceptionType),
        ':content-type': text('application/json'),
      },
      body: utf8.encode(JSON.stringify({ Message: message })),
    });
    response.end();
  };
  readAudio(incoming, recorded, chunks, {
    onBadSignature: (problem) => exception('BadRequestException', problem),
    onFirstAudio: () => {
      if (step.kind === 'exception') exception(step.exceptionType, step.message);
    },
    onEnd: () => {
      if (step.kind === 'results') {
        for (const results of step.events) send(transcriptEvent(results));
        response.end();
      } else if (step.kind === 'flood') {
        let sent = 0;
        while (sent < step.bytes && !response.stream.destroyed) {
          const event = codec.encode(transcriptEvent([{ text: step.text, partial: false }]));
          response.write(event);
          sent += event.length;
        }
        response.end();
      } else if (step.kind === 'drip') {
        const event = codec.encode(transcriptEvent([{ text: step.text, partial: false }]));
        let sent = 0;
        // A byte a turn of the event loop: each its own DATA frame, a read each for the client.
        const drip = () => {
          if (response.stream.destroyed) return;
          if (sent >= step.bytes) {
            response.end();
            return;
          }
          response.write(event.subarray(sent % event.length, (sent % event.length) + 1));
          sent += 1;
          setImmediate(drip);
        };
        drip();
      }
      // A stall answers nothing, ever.
    },
  });
}

/** A TranscriptEvent of `results`, as Transcribe's JSON shapes it. */
function transcriptEvent(results: readonly ScriptedResult[]): Message {
  const headers: MessageHeaders = {
    ':message-type': text('event'),
    ':event-type': text('TranscriptEvent'),
    ':content-type': text('application/json'),
  };
  const body = {
    Transcript: {
      Results: results.map((result, index) => ({
        ResultId: `result-${index}`,
        StartTime: 0,
        EndTime: 1,
        IsPartial: result.partial,
        Alternatives: [{ Transcript: result.text, Items: [] }],
      })),
    },
  };
  return { headers, body: utf8.encode(JSON.stringify(body)) };
}

/**
 * Reads the request's event stream: each message is a signed envelope (`:chunk-signature`,
 * checked in order) around an AudioEvent; an envelope with nothing inside ends the audio.
 */
function readAudio(
  incoming: Http2ServerRequest,
  recorded: RecordedTranscription,
  chunks: EventChunkVerifier,
  on: { onBadSignature(problem: string): void; onFirstAudio(): void; onEnd(): void },
): void {
  let pending = Buffer.alloc(0);
  incoming.on('data', (chunk: Buffer) => {
    if (recorded.chunkSignatureProblem !== null) return;
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (pending.length < length) break;
      const envelope = codec.decode(new Uint8Array(pending.subarray(0, length)));
      pending = pending.subarray(length);
      const problem = chunks.check(envelope.headers, envelope.body);
      if (problem !== null) {
        recorded.chunkSignatureProblem = problem;
        on.onBadSignature(problem);
        return;
      }
      recorded.signedEnvelopes = chunks.verified;
      if (envelope.body.length === 0) {
        recorded.ended = true;
        on.onEnd();
        continue;
      }
      const event = codec.decode(envelope.body);
      if (event.headers[':event-type']?.value !== 'AudioEvent') continue;
      recorded.audioEvents.push(event.body);
      if (recorded.audioEvents.length === 1) on.onFirstAudio();
    }
  });
  incoming.on('error', () => undefined);
}
