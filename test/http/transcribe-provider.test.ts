import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { binaryMediaTypes, routePath } from '../../functions/http/contract/api-routes';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import { createSpeechToText } from '../../functions/wiring/create-speech-to-text';
import { type LocalApiServer, startLocalApiServer } from '../../infra/local/local-api-server';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { TranscribeSpeechToText } from '../../shared/adapters/speech/transcribe-speech-to-text';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import type { SpeechToText } from '../../shared/ports/speech';
import { DYNALITE_REGION, type RunningDynalite, startDynalite } from '../support/dynalite';
import { FakeTiming } from '../support/fake-timing';
import { functionHandlers, localRoutes } from '../support/function-handlers';
import {
  apiKeyOf,
  type CapturedOutput,
  captureProcessOutput,
  NODE_A,
  NODE_TIMEZONE,
} from '../support/local-stack-harness';
import {
  type ScriptedTranscribeServer,
  startScriptedTranscribeServer,
  type TranscribeStep,
} from '../support/scripted-transcribe-server';
import { TEST_AWS_CREDENTIALS } from '../support/sigv4-verifier';
import { tonePcm, wavFile } from '../support/speech-audio';
import { expectError } from './response-contract';
import { postRaw, recordingForm } from './speech-api';
import { read } from './speech-exchange';

const REGION = 'eu-central-1';
const TRANSCRIBE = routePath('media-transcribe');
/** The turn deadline of these handlers, and so the time a transcription is given. */
const DEADLINE_MS = 2_000;
const CREDENTIAL_VARIABLES = {
  AWS_ACCESS_KEY_ID: TEST_AWS_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: TEST_AWS_CREDENTIALS.secretAccessKey,
  AWS_SESSION_TOKEN: TEST_AWS_CREDENTIALS.sessionToken,
};

/** A short recording as the node sends it (48 kHz mono): 3 events, 0.2 s of pacing. */
const recording = () =>
  wavFile(tonePcm(0.25, 48_000), { sampleRate: 48_000, channels: 1, sampleWidth: 2 });

let database: RunningDynalite | undefined;
let transcribe: ScriptedTranscribeServer | undefined;
let api: LocalApiServer | undefined;
let heldApi: LocalApiServer | undefined;
let captured: CapturedOutput | undefined;
let savedCredentials: Record<string, string | undefined> = {};

/**
 * The real handlers, wired as a deployed function that hears through Transcribe is
 * (STT_PROVIDER=transcribe, the SDK's credential chain reading the role's variables), against the
 * scripted Transcribe on loopback: real HTTP in, real pacing.
 */
beforeAll(async () => {
  captured = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
  savedCredentials = Object.fromEntries(
    Object.keys(CREDENTIAL_VARIABLES).map((name) => [name, process.env[name]]),
  );
  Object.assign(process.env, CREDENTIAL_VARIABLES);
  [database, transcribe] = await Promise.all([
    startDynalite(),
    startScriptedTranscribeServer({
      region: REGION,
      service: 'transcribe',
      credentials: TEST_AWS_CREDENTIALS,
    }),
  ]);
  await new DynamoDbNodeRegistry({ client: database.client, tableName: database.tableName }).put({
    nodeId: NODE_A.nodeId,
    keyHash: hashNodeKey(NODE_A.key),
    timezone: NODE_TIMEZONE,
    room: null,
    name: NODE_A.nodeId,
    enabled: true,
  });
  const config = readServiceConfig({
    TABLE_NAME: database.tableName,
    DYNAMODB_ENDPOINT: database.endpoint,
    AWS_REGION: DYNALITE_REGION,
    NODE_RATE_LIMIT: '0',
    AUTH_REJECTION_FLOOR_MS: '0',
    TURN_DEADLINE_MS: String(DEADLINE_MS),
    STT_PROVIDER: 'transcribe',
    TRANSCRIBE_REGION: REGION,
    TRANSCRIBE_LANGUAGE: 'en-AU',
    TRANSCRIBE_ENDPOINT: transcribe.endpoint,
  });
  const serve = async (speechToText: SpeechToText | null): Promise<LocalApiServer> => {
    const dependencies = createServiceDependencies({
      config,
      apiKey: null,
      clock: systemClock,
      ids: randomIds,
      random: systemRandomness,
      logger: new Logger({ serviceName: 'jcc' }),
      metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
      speech: { speechToText, textToSpeech: null },
    });
    const handlers = await functionHandlers(dependencies);
    return startLocalApiServer({
      port: 0,
      binaryMediaTypes,
      routes: localRoutes(handlers),
    });
  };
  // Transcribe needs no key: the role signs its stream.
  api = await serve(createSpeechToText(config, ''));
  // The same adapter on a clock nobody moves: the audio after the first event, and the deadline,
  // wait for ever, so only the client leaving can end its stream.
  heldApi = await serve(
    new TranscribeSpeechToText({
      region: REGION,
      languageCode: 'en-AU',
      maxCharacters: 2_000,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: new FakeTiming({ instantSleeps: false }),
    }),
  );
});

beforeEach(() => transcribe?.reset());

afterAll(async () => {
  await Promise.all([api?.close(), heldApi?.close(), transcribe?.close()]);
  await database?.close();
  captured?.restore();
  for (const [name, value] of Object.entries(savedCredentials)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function running() {
  if (api === undefined || transcribe === undefined || captured === undefined) {
    throw new Error('the handlers did not start');
  }
  return { api, transcribe, output: captured.lines };
}

async function transcribeOnce() {
  return read(await postRaw(running().api, TRANSCRIBE, recordingForm(recording())));
}

/** After a failure the route works as before: the next recording is transcribed. */
async function expectNextWorks(): Promise<void> {
  running().transcribe.enqueue({ kind: 'results', events: [[{ text: 'again', partial: false }]] });
  const response = await transcribeOnce();
  expect(response.status, response.text).toBe(200);
  expect(response.json).toEqual({ text: 'again' });
}

describe('POST /api/v0/media/whisper/transcribe through Amazon Transcribe (STT_PROVIDER=transcribe)', () => {
  it('answers the final results as {"text"}: signed for transcribe in its region, the language set', async () => {
    // Prepare
    running().transcribe.enqueue({
      kind: 'results',
      events: [
        [{ text: 'turn on', partial: true }],
        [{ text: 'Turn on the lights.', partial: false }],
      ],
    });
    const before = running().output.length;

    // Act
    const response = await transcribeOnce();

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ text: 'Turn on the lights.' });
    const [request] = running().transcribe.requests;
    expect(request?.signatureProblem).toBeNull();
    expect(request?.chunkSignatureProblem).toBeNull();
    expect(request?.signedEnvelopes).toBe(4);
    expect(request?.headers['x-amzn-transcribe-language-code']).toBe('en-AU');
    expect(request?.audioEvents.map((event) => event.length)).toEqual([9_600, 9_600, 4_800]);
    expect(running().output.slice(before).join('')).toContain('"audio_seconds_transcribed":0.25');
  });

  it.each<[string, TranscribeStep, string, string]>([
    [
      'the role may not call Transcribe',
      {
        kind: 'refusal',
        status: 403,
        errorType: 'AccessDeniedException',
        message:
          'User: arn:aws:sts::123456789012:assumed-role/jcc is not authorized to perform: transcribe:StartStreamTranscription',
      },
      'speech_permission_denied',
      'allow the IAM action transcribe:StartStreamTranscription',
    ],
    [
      'the role session expired',
      {
        kind: 'refusal',
        status: 403,
        errorType: 'ExpiredTokenException',
        message: `The security token included in the request is expired (${TEST_AWS_CREDENTIALS.sessionToken})`,
      },
      'speech_credentials_rejected',
      'refresh them',
    ],
    [
      'a stream past the quota',
      {
        kind: 'refusal',
        status: 429,
        errorType: 'LimitExceededException',
        message: 'You have reached your limit of concurrent streams.',
      },
      'speech_throttled',
      'Service Quotas',
    ],
  ])(
    '%s: 502 with a code of its own, one log line saying what to fix, no secret',
    async (_case, step, code, fix) => {
      // Prepare
      running().transcribe.enqueue(step);
      const before = running().output.length;

      // Act
      const response = await transcribeOnce();
      const written = running().output.slice(before).join('');

      // Assess
      const error = expectError(response, 502, code);
      expect(error.error.details).toEqual([
        { direction: 'speech_to_text', failure: code.replace('speech_', '') },
      ]);
      const logged = written.split('\n').filter((line) => line.includes(`"code":"${code}"`));
      expect(logged, written).toHaveLength(1);
      expect(logged[0]).toContain('"level":"WARN"');
      expect(logged[0]).toContain(fix);
      // The SDK's own console warning of a failed stream is not a second line.
      expect(written).not.toContain('non-retryable');
      expect(written).toContain(`"${code}":1`);
      for (const text of [written, response.text]) {
        expect(text).not.toContain(TEST_AWS_CREDENTIALS.secretAccessKey);
        expect(text).not.toContain(TEST_AWS_CREDENTIALS.sessionToken);
        expect(text).not.toMatch(/Signature=[0-9a-f]{64}/);
      }
      expect(error.error.message).not.toContain('arn:aws');
      await expectNextWorks();
    },
  );

  it.each<[string, TranscribeStep, string]>([
    [
      'an error event in the result stream',
      { kind: 'exception', exceptionType: 'BadRequestException', message: 'unsupported' },
      'rejected',
    ],
    [
      'a transcript past 2,000 characters',
      { kind: 'results', events: [[{ text: 'y'.repeat(2_001), partial: false }]] },
      'malformed_reply',
    ],
    ['a stream that stalls past the deadline', { kind: 'stall' }, 'timeout'],
  ])(
    '%s: 502 speech_provider_failed, the stream ended, the next request works',
    async (_case, step, failure) => {
      // Prepare
      running().transcribe.enqueue(step);

      // Act
      const response = await transcribeOnce();

      // Assess
      const error = expectError(response, 502, 'speech_provider_failed');
      expect(error.error.details).toEqual([{ direction: 'speech_to_text', failure }]);
      await running().transcribe.requests[0]?.closed;
      expect(running().transcribe.openStreams()).toBe(0);
      await expectNextWorks();
    },
  );

  it('stops the recognition when the client leaves mid-way: no more audio, the stream ended', async () => {
    // Prepare: a provider that never answers, on the clock nobody moves (heldApi).
    const { transcribe } = running();
    transcribe.enqueue({ kind: 'stall' });
    const client = new AbortController();
    const sent = fetch(`${heldApi?.url}${TRANSCRIBE}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A) },
      body: recordingForm(recording()),
      signal: client.signal,
    }).catch(() => 'left');
    await expect
      .poll(() => transcribe.requests[0]?.audioEvents.length, { timeout: 10_000 })
      .toBe(1);

    // Act
    client.abort();

    // Assess: only the client leaving can have ended it (no deadline runs on the held clock).
    expect(await sent).toBe('left');
    await transcribe.requests[0]?.closed;
    expect(transcribe.openStreams()).toBe(0);
    expect(transcribe.requests[0]?.audioEvents).toHaveLength(1);
    await expectNextWorks();
  });
});
