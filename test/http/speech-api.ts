import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { binaryMediaTypes } from '../../functions/http/contract/api-routes';
import { SPEECH_LIMITS } from '../../functions/http/contract/speech-limits';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import type { SpeechDependencies } from '../../functions/wiring/service-dependencies';
import { type LocalApiServer, startLocalApiServer } from '../../infra/local/local-api-server';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../shared/adapters/speech/openai-text-to-speech';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import type { TextToSpeech } from '../../shared/ports/speech';
import { type ApiClient, createApiClient } from '../support/api-client';
import { DYNALITE_REGION, type RunningDynalite, startDynalite } from '../support/dynalite';
import { functionHandlers, localRoutes } from '../support/function-handlers';
import {
  apiKeyOf,
  type CapturedOutput,
  captureProcessOutput,
  NODE_A,
  NODE_TIMEZONE,
} from '../support/local-stack-harness';
import {
  type ScriptedAudioServer,
  startScriptedAudioServer,
} from '../support/scripted-audio-server';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../support/scripted-llm-server';

/** What the scripted speech server answers in: OpenAI's raw PCM, 24 kHz mono 16-bit. */
export const SPEECH_RATE = 24_000;
export const SPEECH_KEY = 'sk-speech-secret-40f1c2d9a7e3';

export interface SpeechApi {
  /** The local API of handlers that hear and speak through the scripted audio server. */
  readonly speaking: LocalApiServer;
  /** The same routes with no speech provider configured. */
  readonly silent: LocalApiServer;
  readonly llm: ScriptedLlmServer;
  readonly audio: ScriptedAudioServer;
  /** What the process wrote (logs and EMF metrics) since the file's tests began. */
  readonly output: readonly string[];
  client(server: LocalApiServer): ApiClient;
}

/**
 * The real handler of every function (each entry's `createHandler`, streaming ones included)
 * behind the local API server, real HTTP in, against dynalite, the scripted model and the
 * scripted OpenAI-compatible audio server through the real speech adapters: one server that
 * speaks, one with no speech configured. Started before the file's tests, reset after each.
 */
export function useSpeechApi(
  options: {
    /** The speaking server's synthesizer instead of the scripted audio server's (embedded Flite). */
    readonly textToSpeech?: () => TextToSpeech;
  } = {},
): () => SpeechApi {
  let running: (SpeechApi & { database: RunningDynalite; captured: CapturedOutput }) | undefined;
  beforeAll(async () => {
    const captured = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
    const [database, llm, audio] = await Promise.all([
      startDynalite(),
      startScriptedLlmServer(),
      startScriptedAudioServer(),
    ]);
    await new DynamoDbNodeRegistry({ client: database.client, tableName: database.tableName }).put({
      nodeId: NODE_A.nodeId,
      keyHash: hashNodeKey(NODE_A.key),
      timezone: NODE_TIMEZONE,
      room: null,
      name: NODE_A.nodeId,
      enabled: true,
    });
    const speaking = await serve(database, llm, {
      speechToText: new OpenAiSpeechToText({
        baseURL: audio.baseURL,
        apiKey: SPEECH_KEY,
        model: 'whisper-1',
        maxCharacters: SPEECH_LIMITS.transcriptCharacters,
      }),
      textToSpeech:
        options.textToSpeech?.() ??
        new OpenAiTextToSpeech({
          baseURL: audio.baseURL,
          apiKey: SPEECH_KEY,
          model: 'tts-1',
          voice: 'alloy',
          format: { kind: 'pcm', sampleRate: SPEECH_RATE },
        }),
    });
    const silent = await serve(database, llm, { speechToText: null, textToSpeech: null });
    running = {
      speaking,
      silent,
      llm,
      audio,
      database,
      captured,
      output: captured.lines,
      client: (server) => createApiClient(server.url, { key: apiKeyOf(NODE_A) }),
    };
  });
  afterEach(() => {
    running?.llm.reset();
    running?.audio.reset();
  });
  afterAll(async () => {
    await Promise.all([
      running?.speaking.close(),
      running?.silent.close(),
      running?.llm.close(),
      running?.audio.close(),
    ]);
    await running?.database.close();
    running?.captured.restore();
  });
  return () => {
    if (running === undefined) throw new Error('useSpeechApi: the servers run only inside tests');
    return running;
  };
}

async function serve(
  database: RunningDynalite,
  llm: ScriptedLlmServer,
  speech: SpeechDependencies,
): Promise<LocalApiServer> {
  const config = readServiceConfig({
    TABLE_NAME: database.tableName,
    DYNAMODB_ENDPOINT: database.endpoint,
    AWS_REGION: DYNALITE_REGION,
    OPENAI_BASE_URL: llm.baseURL,
    LLM_MODEL: 'scripted',
    NODE_RATE_LIMIT: '0',
    WARMUP_TIMEOUT_MS: '0',
    AUTH_REJECTION_FLOOR_MS: '0',
  });
  const dependencies = createServiceDependencies({
    config,
    apiKey: 'sk-model-test',
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
    logger: new Logger({ serviceName: 'jcc' }),
    metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
    speech,
  });
  const handlers = await functionHandlers(dependencies);
  return startLocalApiServer({
    port: 0,
    binaryMediaTypes,
    routes: localRoutes(handlers),
  });
}

/** The node's upload: `files={"file": (path, f, "audio/wav")}` as multipart/form-data. */
export function recordingForm(wav: Uint8Array, part = 'file'): FormData {
  const form = new FormData();
  form.append(part, new Blob([Buffer.from(wav)], { type: 'audio/wav' }), 'recording.wav');
  return form;
}

/** POSTs `body` with the node's key: what `requests` sends, as fetch sends it. */
export function postRaw(
  server: LocalApiServer,
  path: string,
  body: FormData | string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKeyOf(NODE_A), ...headers },
    body: body instanceof Uint8Array ? Buffer.from(body) : body,
  });
}
