import { describe, expect, it } from 'vitest';
import { TRANSCRIBE_CHUNK_MS } from '../../../shared/adapters/speech/transcribe-audio';
import {
  TRANSCRIBE_REPLY_LIMIT_BYTES,
  TranscribeSpeechToText,
} from '../../../shared/adapters/speech/transcribe-speech-to-text';
import { ERROR_REPLY_LIMIT_BYTES, pieceLimit } from '../../../shared/adapters/system/body-reads';
import type { Recording } from '../../../shared/ports/speech';
import { FakeTiming } from '../../support/fake-timing';
import { startScriptedTranscribeServer } from '../../support/scripted-transcribe-server';
import { TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';
import { tonePcm, toneWav, wavFile } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';
import { useLoopbackServer } from '../../support/use-loopback-server';

const REGION = 'eu-west-1';
const transcribe = useLoopbackServer('the scripted Transcribe', () =>
  startScriptedTranscribeServer({
    region: REGION,
    service: 'transcribe',
    credentials: TEST_AWS_CREDENTIALS,
  }),
);

const MAX_CHARACTERS = 2_000;
const options = { timeoutMs: 30_000 };

/**
 * A fake clock on which the waits between audio events end at once (each `lateMs` late) while
 * the call's deadline stays pending until the test advances it.
 */
const pacedAtOnce = (lateMs = 0) =>
  new FakeTiming({ longestInstantSleepMs: TRANSCRIBE_CHUNK_MS, overrunMs: lateMs });

/** The waits the adapter asked for between audio events: its sleeps after its deadline's. */
const paceWaits = (timing: FakeTiming) => timing.sleeps.slice(1);

const adapter = (
  settings: {
    timing?: FakeTiming;
    region?: string;
    credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  } = {},
) => {
  const timing = settings.timing ?? pacedAtOnce();
  const stt = new TranscribeSpeechToText({
    region: settings.region ?? REGION,
    languageCode: 'en-GB',
    maxCharacters: MAX_CHARACTERS,
    endpoint: transcribe.endpoint,
    credentials: settings.credentials ?? TEST_AWS_CREDENTIALS,
    timing,
  });
  return { stt, timing };
};

function recordingOf(wav: Uint8Array, sampleRate: number, channels = 1): Recording {
  const frames = (wav.length - 44) / (2 * channels);
  return {
    wav,
    format: { sampleRate, channels, sampleWidth: 2 },
    durationSeconds: frames / sampleRate,
  };
}

const mono48k = (seconds: number) =>
  recordingOf(
    wavFile(tonePcm(seconds, 48_000), { sampleRate: 48_000, channels: 1, sampleWidth: 2 }),
    48_000,
  );

/** Resolves once `done` holds, looking every few milliseconds (what the server saw arrives by I/O). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((tick) => setTimeout(tick, 5));
}

const finals = (...texts: string[]) => texts.map((text) => ({ text, partial: false }));

describe('TranscribeSpeechToText', () => {
  it('streams the WAV’s PCM in 100 ms events at real time; only final results make the text', async () => {
    // Prepare
    const recording = mono48k(1.05);
    transcribe.enqueue({
      kind: 'results',
      events: [
        [{ text: 'set a', partial: true }],
        [{ text: 'set a timer', partial: true }],
        finals('Set a timer.'),
        [{ text: 'for ten', partial: true }],
        finals('For ten minutes.'),
      ],
    });
    const { stt, timing } = adapter();

    // Act
    const transcript = await stt.transcribe(recording, options);

    // Assess
    expect(transcript).toEqual({ text: 'Set a timer. For ten minutes.' });
    const [request] = transcribe.requests;
    expect(request?.signatureProblem).toBeNull();
    // Every envelope's :chunk-signature chains from the request's signature, the end's too.
    expect(request?.chunkSignatureProblem).toBeNull();
    expect(request?.signedEnvelopes).toBe(12);
    expect(request?.headers).toMatchObject({
      'x-amzn-transcribe-language-code': 'en-GB',
      'x-amzn-transcribe-sample-rate': '48000',
      'x-amzn-transcribe-media-encoding': 'pcm',
      authorization: expect.stringContaining(`/${REGION}/transcribe/aws4_request`),
    });
    // 100 ms at 48 kHz is 9,600 bytes; the PCM arrives as the WAV held it, in order.
    const sizes = request?.audioEvents.map((event) => event.length);
    expect(sizes).toEqual([...Array.from({ length: 10 }, () => 9_600), 4_800]);
    expect(Buffer.concat(request?.audioEvents ?? [])).toEqual(
      Buffer.from(recording.wav.subarray(44)),
    );
    expect(request?.ended).toBe(true);
    // One wait of a chunk's time between two events: the audio goes at the pace it was spoken.
    expect(paceWaits(timing)).toEqual(Array.from({ length: 10 }, () => 100));
  });

  it('keeps to the schedule when a wait ends late: the next event is due at its own time', async () => {
    // Prepare: every wait ends 30 ms late, as a timer on a busy machine does.
    transcribe.enqueue({ kind: 'results', events: [finals('late')] });
    const { stt, timing } = adapter({ timing: pacedAtOnce(30) });

    // Act
    await stt.transcribe(mono48k(0.5), options);

    // Assess: 100 ms, then 70 ms each (100 less the 30 the wait before overran).
    expect(paceWaits(timing)).toEqual([100, 70, 70, 70]);
  });

  it('mixes stereo into mono and divides a rate Transcribe does not take (96 kHz) down to 48 kHz', async () => {
    // Prepare
    const stereo = toneWav(0.5, 44_100, [
      [{ hz: 440, amplitude: 0.3 }],
      [{ hz: 440, amplitude: 0.3 }],
    ]);
    const high = toneWav(0.5, 96_000, [[{ hz: 440, amplitude: 0.3 }]]);
    transcribe.enqueue(
      { kind: 'results', events: [finals('stereo')] },
      { kind: 'results', events: [finals('high')] },
    );

    // Act
    const first = await adapter().stt.transcribe(recordingOf(stereo, 44_100, 2), options);
    const second = await adapter().stt.transcribe(recordingOf(high, 96_000), options);

    // Assess
    expect([first.text, second.text]).toEqual(['stereo', 'high']);
    const [stereoRequest, highRequest] = transcribe.requests;
    expect(stereoRequest?.headers['x-amzn-transcribe-sample-rate']).toBe('44100');
    expect(Buffer.concat(stereoRequest?.audioEvents ?? []).length).toBe(0.5 * 44_100 * 2);
    expect(highRequest?.headers['x-amzn-transcribe-sample-rate']).toBe('48000');
    // 100 ms events at 48 kHz, as for a node's own recording.
    const sizes = highRequest?.audioEvents.map((event) => event.length);
    expect(sizes).toEqual(Array.from({ length: 5 }, () => 9_600));
  });

  it.each([
    ['BadRequestException', 'rejected'],
    ['LimitExceededException', 'throttled'],
    ['InternalFailureException', 'unavailable'],
    ['ServiceUnavailableException', 'unavailable'],
  ])('an error event %s in the result stream is %s, and the stream ends', async (type, failure) => {
    // Prepare
    transcribe.enqueue({ kind: 'exception', exceptionType: type, message: `scripted ${type}` });

    // Act
    const error = await speechFailureOf(adapter().stt.transcribe(mono48k(0.5), options));

    // Assess
    expect(error.failure).toBe(failure);
    expect(error.message).toContain(type);
    await transcribe.requests[0]?.closed;
    expect(transcribe.openStreams()).toBe(0);
  });

  it.each([
    [403, 'AccessDeniedException', 'permission_denied', 'transcribe:StartStreamTranscription'],
    [403, 'ExpiredTokenException', 'credentials_rejected', 'refresh them'],
    [403, 'UnrecognizedClientException', 'credentials_rejected', "the function's role"],
    [429, 'LimitExceededException', 'throttled', 'Service Quotas'],
    [400, 'BadRequestException', 'rejected', 'scripted'],
  ])(
    'a refusal of the stream, HTTP %i %s, is %s and says what to fix',
    async (status, errorType, failure, fix) => {
      // Prepare: AWS's words quote the signature and the token, as a signature error does.
      const request = `Signature=${'ab'.repeat(32)} x-amz-security-token:${TEST_AWS_CREDENTIALS.sessionToken}`;
      transcribe.enqueue({ kind: 'refusal', status, errorType, message: `scripted: ${request}` });

      // Act
      const error = await speechFailureOf(adapter().stt.transcribe(mono48k(0.3), options));

      // Assess
      expect(error.failure).toBe(failure);
      expect(error.message).toContain(fix);
      const logged = JSON.stringify({ message: error.message, cause: String(error.cause) });
      for (const secret of [
        TEST_AWS_CREDENTIALS.sessionToken,
        TEST_AWS_CREDENTIALS.secretAccessKey,
        'ab'.repeat(32),
      ]) {
        expect(logged).not.toContain(secret);
      }
    },
  );

  it('signs for the service transcribe in its region: a signature for another is refused', async () => {
    // Act
    const error = await speechFailureOf(
      adapter({ region: 'us-east-1' }).stt.transcribe(mono48k(0.2), options),
    );

    // Assess
    expect(transcribe.requests[0]?.signatureProblem).toBe('signed for region us-east-1');
    expect(error.failure).toBe('credentials_rejected');
  });

  it('a stream that stalls ends at the deadline: a timeout, the HTTP/2 stream closed, no timer left', async () => {
    // Prepare
    transcribe.enqueue({ kind: 'stall' });
    const { stt, timing } = adapter();

    // Act
    const pending = speechFailureOf(stt.transcribe(mono48k(0.5), { timeoutMs: 5_000 }));
    await until(() => transcribe.requests[0]?.ended === true);
    timing.advance(5_000);
    const error = await pending;

    // Assess
    expect(error.failure).toBe('timeout');
    await transcribe.requests[0]?.closed;
    expect(transcribe.openStreams()).toBe(0);
    expect(timing.pendingDelays).toEqual([]);
  });

  it('stops sending audio and ends the stream when the caller’s signal aborts (the client left)', async () => {
    // Prepare: a clock nobody moves holds the second event until the caller has gone.
    transcribe.enqueue({ kind: 'stall' });
    const left = new AbortController();
    const { stt } = adapter({ timing: new FakeTiming({ instantSleeps: false }) });

    // Act
    const pending = speechFailureOf(
      stt.transcribe(mono48k(1), { timeoutMs: 30_000, signal: left.signal }),
    );
    await until(() => transcribe.requests[0]?.audioEvents.length === 1);
    left.abort();
    const error = await pending;

    // Assess
    expect(error.failure).toBe('timeout');
    await transcribe.requests[0]?.closed;
    expect(transcribe.requests[0]?.audioEvents).toHaveLength(1);
    expect(transcribe.openStreams()).toBe(0);
  });

  it(`reads an error reply to ${ERROR_REPLY_LIMIT_BYTES} bytes at most: a 500 that does not end is a 502, not read further`, async () => {
    // Prepare: a refusal whose body runs to 8 MiB (the SDK reads an error body whole to parse it).
    transcribe.enqueue({ kind: 'errorFlood', status: 500, bytes: 8 * 1024 * 1024 });
    const stt = new TranscribeSpeechToText({
      region: REGION,
      languageCode: 'en-US',
      maxCharacters: MAX_CHARACTERS,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: pacedAtOnce(),
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(mono48k(0.2), options));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(`HTTP 500 error reply passed ${ERROR_REPLY_LIMIT_BYTES} bytes`);
    await Promise.all(transcribe.requests.map((request) => request.closed));
    expect(transcribe.openStreams()).toBe(0);
  });

  it(`reads the event stream in at most ${pieceLimit(TRANSCRIBE_REPLY_LIMIT_BYTES)} pieces: a drip of single bytes is a 502, not read further`, async () => {
    // Prepare: finals sent a byte at a time, far fewer bytes than the limit, far more reads.
    const pieces = pieceLimit(TRANSCRIBE_REPLY_LIMIT_BYTES);
    transcribe.enqueue({ kind: 'drip', text: 'a', bytes: pieces * 2 });
    const stt = new TranscribeSpeechToText({
      region: REGION,
      languageCode: 'en-US',
      maxCharacters: Number.MAX_SAFE_INTEGER,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: pacedAtOnce(),
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(mono48k(0.2), options));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(`event stream came in more than ${pieces} pieces`);
    await Promise.all(transcribe.requests.map((request) => request.closed));
    expect(transcribe.openStreams()).toBe(0);
  });

  it(`caps the transcript at ${MAX_CHARACTERS} characters and the event stream at ${TRANSCRIBE_REPLY_LIMIT_BYTES} bytes: 502s, not read further`, async () => {
    // Prepare: finals of 500 characters (too much text), then a flood of finals (too many bytes).
    transcribe.enqueue(
      { kind: 'results', events: Array.from({ length: 6 }, () => finals('x'.repeat(500))) },
      { kind: 'flood', text: 'a'.repeat(1_000), bytes: TRANSCRIBE_REPLY_LIMIT_BYTES + 65_536 },
    );
    const stt = new TranscribeSpeechToText({
      region: REGION,
      languageCode: 'en-US',
      maxCharacters: MAX_CHARACTERS,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: pacedAtOnce(),
    });
    const large = new TranscribeSpeechToText({
      region: REGION,
      languageCode: 'en-US',
      maxCharacters: Number.MAX_SAFE_INTEGER,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: pacedAtOnce(),
    });

    // Act
    const tooLong = await speechFailureOf(stt.transcribe(mono48k(0.2), options));
    const tooLarge = await speechFailureOf(large.transcribe(mono48k(0.2), options));

    // Assess
    expect(tooLong.failure).toBe('malformed_reply');
    expect(tooLong.message).toContain(`passed ${MAX_CHARACTERS} characters`);
    expect(tooLarge.failure).toBe('malformed_reply');
    expect(tooLarge.message).toContain(`passed ${TRANSCRIBE_REPLY_LIMIT_BYTES} bytes`);
    await Promise.all(transcribe.requests.map((request) => request.closed));
    expect(transcribe.openStreams()).toBe(0);
  });

  it(`counts the transcript in code points, as voice/command's utterance: emoji within ${MAX_CHARACTERS} characters are the whole text`, async () => {
    // Prepare: four finals of 499 emoji, joined by a blank: 1,999 characters, 3,995 UTF-16 units.
    const final = '😀'.repeat(499);
    transcribe.enqueue({ kind: 'results', events: Array.from({ length: 4 }, () => finals(final)) });
    const { stt } = adapter();

    // Act
    const transcript = await stt.transcribe(mono48k(0.2), options);

    // Assess
    expect(transcript).toEqual({ text: Array.from({ length: 4 }, () => final).join(' ') });
  });
});
