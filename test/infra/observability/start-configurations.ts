import { apiRoute } from '../../../functions/http/contract/api-routes';
import { TRANSCRIBE_CHUNK_MS } from '../../../shared/adapters/speech/transcribe-audio';
import { TranscribeSpeechToText } from '../../../shared/adapters/speech/transcribe-speech-to-text';
import { type RunningDynalite, startDynalite } from '../../support/dynalite';
import { FakeTiming } from '../../support/fake-timing';
import { startScriptedAudioServer } from '../../support/scripted-audio-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedTranscribeServer } from '../../support/scripted-transcribe-server';
import { TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';
import {
  createForeignTable,
  handlersFor,
  LIMITED_NODE,
  registerNodes,
  speechThrough,
} from './metrics-harness';
import { type Configurations, expectStatus } from './scenario-support';

/** The short turn deadline of `slow`: a scenario that reaches it waits this long. */
const DEADLINE_MS = 5_000;
const BEDROCK_REGION = 'eu-west-1';
const CREDENTIAL_VARIABLES = {
  AWS_ACCESS_KEY_ID: TEST_AWS_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: TEST_AWS_CREDENTIALS.secretAccessKey,
  AWS_SESSION_TOKEN: TEST_AWS_CREDENTIALS.sessionToken,
};
/** Any fixed instant: the rate limiter's window never turns over during the test. */
const FIXED_CLOCK = { now: () => Date.UTC(2026, 0, 16, 12) };

export interface RunningConfigurations {
  readonly configurations: Configurations;
  /** The scripted servers' requests nobody scripted (a scenario that asked more than it meant). */
  unexpectedRequests(): readonly unknown[];
  /** Empties the scripted servers' queues and records: what one scenario left never meets the next. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * dynalite, two scripted models (one answering, one that never does), a scripted audio server,
 * and the real handlers of every function wired to them in each configuration of `Configurations`.
 * The rate-limited node has spent its one request of the window when this resolves.
 */
export async function startConfigurations(): Promise<RunningConfigurations> {
  const database: RunningDynalite = await startDynalite();
  const [llm, slowLlm, audio, bedrockLlm, transcribe] = await Promise.all([
    startScriptedLlmServer(),
    startScriptedLlmServer(),
    startScriptedAudioServer(),
    startScriptedLlmServer({
      sigV4: {
        region: BEDROCK_REGION,
        service: 'bedrock-mantle',
        credentials: TEST_AWS_CREDENTIALS,
      },
    }),
    startScriptedTranscribeServer({
      region: BEDROCK_REGION,
      service: 'transcribe',
      credentials: TEST_AWS_CREDENTIALS,
    }),
  ]);
  // The credential chain of the Bedrock configurations finds these, as in Lambda.
  const savedCredentials = Object.fromEntries(
    Object.keys(CREDENTIAL_VARIABLES).map((name) => [name, process.env[name]]),
  );
  Object.assign(process.env, CREDENTIAL_VARIABLES);
  const bedrock = {
    MODEL_PROVIDER: 'bedrock',
    BEDROCK_BASE_URL: bedrockLlm.baseURL,
    BEDROCK_REGION,
    LLM_MODEL: 'openai.gpt-oss-20b',
    WARMUP_TIMEOUT_MS: '0',
  };
  const { client, tableName } = database;
  await registerNodes(client, tableName);
  const foreignTable = await createForeignTable(client);
  const answering = { OPENAI_BASE_URL: llm.baseURL, LLM_MODEL: 'scripted' };
  // No warm-up (the default node's would take a scripted reply): `warming` has them.
  const model = { ...answering, WARMUP_TIMEOUT_MS: '0' };
  const speech = speechThrough(audio.baseURL);
  const configurations: Configurations = {
    model: await handlersFor(database, tableName, model),
    warming: await handlersFor(database, tableName, answering),
    llm,
    speaking: await handlersFor(database, tableName, model, { speech }),
    audio,
    slow: await handlersFor(
      database,
      tableName,
      {
        OPENAI_BASE_URL: slowLlm.baseURL,
        LLM_MODEL: 'scripted',
        TURN_DEADLINE_MS: String(DEADLINE_MS),
        WARMUP_TIMEOUT_MS: '500',
      },
      { speech },
    ),
    slowLlm,
    noModel: await handlersFor(database, tableName, {}),
    bedrock: await handlersFor(database, tableName, bedrock),
    bedrockSpeaking: await handlersFor(database, tableName, bedrock, { speech }),
    bedrockLlm,
    // Its audio sent at once: the pacing is the adapter's tests' concern, not the metrics'.
    transcribing: await handlersFor(database, tableName, model, {
      speech: {
        speechToText: new TranscribeSpeechToText({
          region: BEDROCK_REGION,
          languageCode: 'en-US',
          maxCharacters: 2_000,
          endpoint: transcribe.endpoint,
          timing: new FakeTiming({ longestInstantSleepMs: TRANSCRIBE_CHUNK_MS }),
        }),
        textToSpeech: null,
      },
    }),
    transcribe,
    limited: await handlersFor(
      database,
      tableName,
      { NODE_RATE_LIMIT: '1' },
      { clock: FIXED_CLOCK },
    ),
    storeDown: await handlersFor(database, 'jcc-missing-table', model),
    storeBug: await handlersFor(database, foreignTable, model),
  };
  // The limited node's one request of the window; every later one is a 429.
  const spent = await configurations.limited(apiRoute('date-context'), {
    key: `${LIMITED_NODE.nodeId}:${LIMITED_NODE.key}`,
    query: { timezone: 'UTC' },
  });
  expectStatus(spent, 200, 'the limited node’s one request');
  return {
    configurations,
    unexpectedRequests: () => [
      ...llm.unexpectedRequests,
      ...slowLlm.unexpectedRequests,
      ...audio.unexpectedRequests,
      ...bedrockLlm.unexpectedRequests,
      ...bedrockLlm.signatureFailures,
      ...transcribe.requests.flatMap((request) => request.signatureProblem ?? []),
    ],
    reset: () => {
      llm.reset();
      slowLlm.reset();
      audio.reset();
      bedrockLlm.reset();
      transcribe.reset();
    },
    close: async () => {
      await Promise.all([
        llm.close(),
        slowLlm.close(),
        audio.close(),
        bedrockLlm.close(),
        transcribe.close(),
      ]);
      await database.close();
      for (const [name, value] of Object.entries(savedCredentials)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
