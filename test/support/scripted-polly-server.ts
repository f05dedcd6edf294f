import { constants, createServer, type Http2ServerResponse as ServerResponse } from 'node:http2';
import { listenOnLoopback } from './http2-loopback';
import type { AudioStep } from './scripted-audio/audio-script';

/** A Polly error as its REST API sends it: the error name in a header and the body. */
export interface PollyErrorStep {
  readonly status: number;
  readonly errorType: string;
  readonly message: string;
}

/** A step, or a function computing one when the request arrives (the test learns it came). */
export type PollyStep = AudioStep | PollyErrorStep | ((request: RecordedPollyRequest) => PollyStep);

export interface RecordedPollyRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface ScriptedPollyServer {
  /** Give it to the Polly client as `endpoint`. */
  readonly endpoint: string;
  readonly requests: readonly RecordedPollyRequest[];
  enqueue(...steps: PollyStep[]): void;
  /** Forgets the requests seen and the steps not yet taken (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Amazon Polly's SynthesizeSpeech (`POST /v1/speech`, JSON in, audio out) on 127.0.0.1, over
 * cleartext HTTP/2 as the Polly client speaks it (its handler is HTTP/2: Polly also streams both
 * ways), answered by script: there is no AWS here. Audio goes out in several writes, held by promises the test
 * releases; errors as Polly shapes them (`x-amzn-errortype`).
 */
export async function startScriptedPollyServer(): Promise<ScriptedPollyServer> {
  const queue: PollyStep[] = [];
  const requests: RecordedPollyRequest[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: RecordedPollyRequest = {
      path: incoming.url ?? '',
      authorization: incoming.headers.authorization,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    requests.push(request);
    let step = queue.shift() ?? {
      status: 500,
      errorType: 'ServiceFailureException',
      message: 'script exhausted: nothing queued',
    };
    while (typeof step === 'function') step = step(request);
    if ('audio' in step) await sendAudio(step, response);
    else sendError(step, response);
  });
  const { endpoint, close } = await listenOnLoopback(server);
  return {
    endpoint,
    requests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close,
  };
}

async function sendAudio(step: AudioStep, response: ServerResponse): Promise<void> {
  await step.holdBeforeHeaders;
  const count = Math.max(1, step.chunks ?? 4);
  const size = Math.ceil(step.audio.length / count);
  response.writeHead(200, {
    'content-type': step.contentType ?? 'audio/pcm',
    'x-amzn-requestcharacters': '12',
  });
  for (let index = 0; index < count; index += 1) {
    if (step.dropAfterChunks === index) {
      // A reset stream (a plain destroy would end it cleanly, as a whole answer).
      response.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      return;
    }
    response.write(step.audio.subarray(index * size, (index + 1) * size));
    if (index === 0) await step.holdAfterFirstChunk;
  }
  response.end();
}

function sendError(step: PollyErrorStep, response: ServerResponse): void {
  response.writeHead(step.status, {
    'content-type': 'application/json',
    'x-amzn-errortype': step.errorType,
  });
  response.end(JSON.stringify({ message: step.message }));
}
