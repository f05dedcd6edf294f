import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnFreePort } from './free-port';
import type {
  AudioStep,
  ErrorStep,
  FixedSpeechStep,
  FixedTranscriptionStep,
  RecordedAudioRequest,
  RecordedUpload,
  ScriptedAudioServer,
  SpeechStep,
  TranscriptionStep,
} from './scripted-audio/audio-script';

export type * from './scripted-audio/audio-script';

const transcriptionPaths = new Set(['/v1/audio/transcriptions', '/audio/transcriptions']);
const speechPaths = new Set(['/v1/audio/speech', '/audio/speech']);

/**
 * An OpenAI-compatible audio server on 127.0.0.1 (a free port): `POST /audio/transcriptions`
 * (multipart, parsed by the platform) answers transcripts by script, `POST /audio/speech` answers
 * audio by script in several writes, held by promises the test releases, never by timers. Every
 * request is recorded. Close it after the tests.
 */
export async function startScriptedAudioServer(): Promise<ScriptedAudioServer> {
  const transcriptions: TranscriptionStep[] = [];
  const speeches: SpeechStep[] = [];
  const requests: RecordedAudioRequest[] = [];
  const unexpectedRequests: RecordedAudioRequest[] = [];
  const cancelled: RecordedAudioRequest[] = [];

  const exhausted = (request: RecordedAudioRequest, response: ServerResponse) => {
    unexpectedRequests.push(request);
    sendError(response, { status: 500, body: errorBody('script exhausted: nothing queued') });
  };

  const answer = async (request: RecordedAudioRequest, response: ServerResponse) => {
    if (request.transcription !== null) {
      const step = transcriptions.shift();
      if (step === undefined) return exhausted(request, response);
      const fixed = resolve<FixedTranscriptionStep>(step, request);
      if ('text' in fixed) {
        await fixed.hold;
        return sendJson(response, 200, { text: fixed.text });
      }
      if ('rawBody' in fixed) {
        response.writeHead(200, { 'content-type': fixed.contentType ?? 'application/json' });
        return response.end(fixed.rawBody);
      }
      return sendError(response, fixed);
    }
    const step = speeches.shift();
    if (step === undefined) return exhausted(request, response);
    const fixed = resolve<FixedSpeechStep>(step, request);
    if ('audio' in fixed) return streamAudio(fixed, response);
    return sendError(response, fixed);
  };

  const server = createServer((incoming, response) => {
    readRequest(incoming)
      .then((request) => {
        requests.push(request);
        response.once('close', () => {
          if (!response.writableFinished) cancelled.push(request);
        });
        const known = request.transcription !== null || request.speech !== null;
        if (!known) {
          return sendError(response, {
            status: 404,
            body: errorBody(`Unknown request URL: ${request.method} ${request.path}.`),
          });
        }
        return answer(request, response);
      })
      .catch((error: unknown) => {
        // A step function that threw: a bug in the test, reported to it as a 500 it can see.
        if (!response.headersSent) {
          sendError(response, { status: 500, body: errorBody(`scripted server failed: ${error}`) });
        } else response.destroy();
      });
  });
  const port = await listenOnFreePort(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    unexpectedRequests,
    cancelled,
    enqueueTranscription: (...steps) => {
      transcriptions.push(...steps);
    },
    enqueueSpeech: (...steps) => {
      speeches.push(...steps);
    },
    reset: () => {
      transcriptions.length = 0;
      speeches.length = 0;
      requests.length = 0;
      unexpectedRequests.length = 0;
      cancelled.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((closed, failed) =>
        server.close((error) => (error ? failed(error) : closed())),
      );
    },
  };
}

async function streamAudio(step: AudioStep, response: ServerResponse): Promise<void> {
  response.once('close', () => step.whenClosed?.(response.writableFinished));
  await step.holdBeforeHeaders;
  const count = Math.max(1, step.chunks ?? 4);
  const size = Math.ceil(step.audio.length / count);
  response.writeHead(200, { 'content-type': step.contentType ?? 'application/octet-stream' });
  for (let index = 0; index < count; index += 1) {
    if (step.dropAfterChunks === index) {
      response.destroy();
      return;
    }
    response.write(step.audio.subarray(index * size, (index + 1) * size));
    if (index === 0) await step.holdAfterFirstChunk;
  }
  response.end();
}

type Computed<S> = S | ((request: RecordedAudioRequest) => Computed<S>);

function resolve<S extends object>(step: Computed<S>, request: RecordedAudioRequest): S {
  let resolved = step;
  for (let depth = 0; typeof resolved === 'function'; depth += 1) {
    if (depth >= 10) throw new Error('a computed step kept computing steps 10 levels deep');
    resolved = resolved(request);
  }
  return resolved;
}

async function readRequest(incoming: IncomingMessage): Promise<RecordedAudioRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const path = (incoming.url ?? '/').split('?')[0] ?? '/';
  const method = incoming.method ?? 'GET';
  const isPost = method === 'POST';
  return {
    method,
    path,
    headers: { ...incoming.headers },
    transcription:
      isPost && transcriptionPaths.has(path) ? await readUpload(body, incoming.headers) : null,
    speech: isPost && speechPaths.has(path) ? readJson(body) : null,
  };
}

/** The multipart body, parsed by the platform's `Request.formData()` (undici). */
async function readUpload(
  body: Buffer,
  headers: IncomingMessage['headers'],
): Promise<RecordedUpload> {
  const request = new Request('http://scripted/upload', {
    method: 'POST',
    headers: { 'content-type': headers['content-type'] ?? '' },
    body,
  });
  const form = await request.formData();
  const fields: Record<string, string> = {};
  let file: File | null = null;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file') file = value;
  }
  return {
    model: fields.model ?? null,
    fields,
    filename: file?.name ?? null,
    fileType: file?.type ?? null,
    file: file === null ? new Uint8Array(0) : new Uint8Array(await file.arrayBuffer()),
  };
}

function readJson(body: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { invalidJson: body.toString('utf8') };
  }
}

const errorBody = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: null, code: null },
});

function sendError(response: ServerResponse, step: ErrorStep): void {
  sendJson(response, step.status, step.body ?? errorBody(`scripted status ${step.status}`));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
