import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { MAX_SPOKEN_SECONDS } from '../../shared/ports/speech';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A, useLocalStack } from '../support/local-stack-harness';
import { startWithFixture, textReply } from './http-fixtures';
import { expectError } from './response-contract';

// The embedded synthesizer of `npm start`, attacked from outside with texts within the limit.
const harness = useLocalStack({ env: { TURN_DEADLINE_MS: '120000' } });

const SPEAK = routePath('media-speak');
const SPEAK_STREAM = routePath('media-speak-stream');
/** 3,000 digits: within the speak limit, 14 minutes read one by one. */
const DIGITS = '7'.repeat(3_000);
/** The spoken-cut marker said after the limit: a few seconds at most. */
const MARKER_SECONDS = 5;

const speak = (path: string, text: string, signal?: AbortSignal) =>
  fetch(`${harness.stack.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    ...(signal === undefined ? {} : { signal }),
  });

const secondsOf = (bytes: number, rate: number) => bytes / (rate * 2);

/** Seconds of 16-bit PCM louder than a whisper: speech, not the silence Flite makes of nothing. */
function loudSeconds(pcm: Uint8Array, rate: number): number {
  const samples = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  let loud = 0;
  for (let at = 0; at + 1 < pcm.byteLength; at += 2)
    if (Math.abs(samples.getInt16(at, true)) > 1_000) loud += 1;
  return loud / rate;
}

describe('npm start: speech bounded like a turn', () => {
  it('answers 3,000 digits on speak 413 speech_too_long, and /health answers meanwhile', async () => {
    // Prepare
    const order: string[] = [];

    // Act
    const spoken = speak(SPEAK, DIGITS).then(async (response) => {
      const text = await response.text();
      order.push('speak');
      return { response, text };
    });
    // The synthesis runs on a worker thread: the main thread serves other requests meanwhile.
    const health = await fetch(`${harness.stack.url}/health`);
    order.push('health');
    const { response, text } = await spoken;
    const after = await speak(SPEAK, 'Done.');

    // Assess
    expect(health.status).toBe(200);
    expect(order).toEqual(['health', 'speak']);
    const error = expectError(
      { status: response.status, headers: response.headers, json: JSON.parse(text), text },
      413,
      'speech_too_long',
    );
    expect(error.error.details).toEqual([{ max_seconds: MAX_SPOKEN_SECONDS }]);
    expect(after.status).toBe(200);
  });

  it('speaks 3,000 digits on speak/stream as at most the spoken limit and its marker', async () => {
    // Act
    const response = await speak(SPEAK_STREAM, DIGITS);
    const pcm = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    const seconds = secondsOf(pcm.length, Number(response.headers.get('x-audio-sample-rate')));
    expect(seconds).toBeGreaterThan(MAX_SPOKEN_SECONDS / 2);
    expect(seconds).toBeLessThanOrEqual(MAX_SPOKEN_SECONDS + MARKER_SECONDS);
  });

  it('cuts one sentence that alone lasts past the limit: speak/stream at the limit and its marker, speak 413', async () => {
    // Prepare: 99 characters, one sentence, each underscore read as a word: over 60 s of speech.
    const text = Array.from({ length: 4 }, () => '_'.repeat(24)).join(' ');

    // Act
    const streamed = await speak(SPEAK_STREAM, text);
    const pcm = new Uint8Array(await streamed.arrayBuffer());
    const whole = await speak(SPEAK, text);
    const body = await whole.text();

    // Assess
    const rate = Number(streamed.headers.get('x-audio-sample-rate'));
    expect(secondsOf(pcm.length, rate)).toBeLessThanOrEqual(MAX_SPOKEN_SECONDS + MARKER_SECONDS);
    expect(secondsOf(pcm.length, rate)).toBeGreaterThan(MAX_SPOKEN_SECONDS);
    expect(whole.status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'speech_too_long' } });
  });

  it.each([
    ['dots', '.'.repeat(3_000)],
    ['commas', ','.repeat(1_000)],
    ['question marks', '?'.repeat(1_000)],
    ['dots in one token', `a${'.'.repeat(400)}b`],
    ['emoji', '😀'.repeat(1_500)],
    ['emoji with skin tones', '👍🏽'.repeat(1_000)],
  ])('speaks a text of %s within the limit: 200 and audio', async (_name, text) => {
    // Act
    const response = await speak(SPEAK_STREAM, text);
    const pcm = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(pcm.length).toBeGreaterThan(0);
  });

  it.each([
    ['Chinese', '你好，世界。今天天气很好。', '你', 0],
    ['Cyrillic', 'Привет, мир.', 'П', 0],
    ['Arabic behind a right-to-left mark', '\u200fمرحبا بالعالم', 'م', 1],
    ['English with a Japanese price', 'It costs 5,000 円 today.', '円', 15],
    ['Greek at the limit', `${'Sunny days. '.repeat(249)}Ωmega`.slice(0, 3_000), 'Ω', 2_988],
  ])(
    'answers a text of %s 400 text_not_speakable on speak and speak/stream, never silence',
    async (_name, text, character, index) => {
      // Act
      const responses = [await speak(SPEAK, text), await speak(SPEAK_STREAM, text)];
      const after = await speak(SPEAK, 'Done.');

      // Assess
      expect([...text].length).toBeLessThanOrEqual(3_000);
      for (const response of responses) {
        const body = await response.text();
        const error = expectError(
          {
            status: response.status,
            headers: response.headers,
            json: JSON.parse(body),
            text: body,
          },
          400,
          'text_not_speakable',
        );
        expect(error.error.details).toEqual([{ character, index, language: 'English' }]);
      }
      expect(after.status).toBe(200);
    },
  );

  it.each([
    [
      'fullwidth letters and digits',
      'ｓｅｔ ａ ｔｉｍｅｒ ｆｏｒ ５ ｍｉｎｕｔｅｓ',
      'set a timer for 5 minutes',
    ],
    ['letters English spells', 'The Straße in Łódź.', 'The Strasse in Lodz.'],
  ])('speaks %s as their plain letters are spoken', async (_name, text, plain) => {
    // Act
    const response = await speak(SPEAK_STREAM, text);
    const pcm = new Uint8Array(await response.arrayBuffer());
    const plainResponse = await speak(SPEAK_STREAM, plain);
    const plainPcm = new Uint8Array(await plainResponse.arrayBuffer());

    // Assess: the same speech as the plain letters make, not the silence of unread bytes.
    expect(response.status).toBe(200);
    const rate = Number(response.headers.get('x-audio-sample-rate'));
    expect(loudSeconds(pcm, rate)).toBeGreaterThan(0.5);
    expect(pcm.byteLength).toBe(plainPcm.byteLength);
    expect(Buffer.from(pcm).equals(plainPcm)).toBe(true);
  });

  it('answers a model answer in Chinese on voice/command/stream with its 202 JSON, never silence', async () => {
    // Prepare
    const id = await startWithFixture(harness.client(), 'npm-start-speech-chinese');
    const answer = '好的，计时器已设置为十分钟。';
    harness.llm.enqueue(textReply(answer));

    // Act
    const response = await fetch(`${harness.stack.url}${ROUTES.commandStream}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: id, voice_command: 'set a timer in Chinese' }),
    });
    const body = await response.text();
    harness.llm.enqueue(textReply('You are welcome.'));
    const next = await harness.client().post(ROUTES.command, {
      conversation_id: id,
      voice_command: 'thanks',
    });

    // Assess: the node gets the text to speak itself or show.
    expect(response.status).toBe(202);
    expect(JSON.parse(body)).toMatchObject({ stop_reason: 'complete', assistant_message: answer });
    expect(next.status).toBe(200);
  });

  it('speaks a model answer holding lone surrogates on voice/command/stream, never a 500', async () => {
    // Prepare: a model whose JSON escapes a lone surrogate (\ud800), which JSON.parse keeps.
    const id = await startWithFixture(harness.client(), 'npm-start-speech-bounds');
    harness.llm.enqueue(textReply('Done \ud800 and \udfff now.'));

    // Act
    const response = await fetch(`${harness.stack.url}${ROUTES.commandStream}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: id, voice_command: 'say it oddly' }),
    });
    const audio = new Uint8Array(await response.arrayBuffer());
    harness.llm.enqueue(textReply('You are welcome.'));
    const next = await harness.client().post(ROUTES.command, {
      conversation_id: id,
      voice_command: 'thanks',
    });

    // Assess: spoken, its text in the header as well-formed UTF-8 (each surrogate as U+FFFD).
    expect(response.status).toBe(200);
    expect(decodeURIComponent(response.headers.get('x-assistant-message') ?? '')).toBe(
      'Done \ufffd and \ufffd now.',
    );
    expect(audio.byteLength).toBeGreaterThan(0);
    expect(next.status).toBe(200);
  });

  it('answers a third synthesis at once 503 speech_busy with Retry-After, then speaks again', async () => {
    // Act
    const responses = await Promise.all([
      speak(SPEAK_STREAM, DIGITS),
      speak(SPEAK_STREAM, DIGITS),
      speak(SPEAK_STREAM, DIGITS),
    ]);
    const bodies = await Promise.all(
      responses.map(async (response) => ({ response, text: await response.text() })),
    );
    const after = await speak(SPEAK, 'Done.');

    // Assess
    const busy = bodies.filter(({ response }) => response.status === 503);
    expect(busy).toHaveLength(1);
    expect(bodies.filter(({ response }) => response.status === 200)).toHaveLength(2);
    const [refused] = busy;
    if (refused === undefined) throw new Error('no 503');
    const error = expectError(
      {
        status: 503,
        headers: refused.response.headers,
        json: JSON.parse(refused.text),
        text: refused.text,
      },
      503,
      'speech_busy',
    );
    expect(error.error.message).toContain('retry');
    expect(refused.response.headers.get('retry-after')).toBe('1');
    expect(after.status).toBe(200);
  });

  it('speaks a model answer of 3,000 digits on voice/command/stream as at most the limit', async () => {
    // Prepare
    const id = await startWithFixture(harness.client(), 'npm-start-speech-bounds');
    harness.llm.enqueue(textReply(DIGITS));

    // Act
    const response = await fetch(`${harness.stack.url}${ROUTES.commandStream}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: id, voice_command: 'read me the digits' }),
    });
    const pcm = new Uint8Array(await response.arrayBuffer());
    harness.llm.enqueue(textReply('You are welcome.'));
    const next = await harness.client().post(ROUTES.command, {
      conversation_id: id,
      voice_command: 'thanks',
    });

    // Assess
    expect(response.status).toBe(200);
    const rate = Number(response.headers.get('x-audio-sample-rate'));
    expect(secondsOf(pcm.length, rate)).toBeLessThanOrEqual(MAX_SPOKEN_SECONDS + MARKER_SECONDS);
    expect(next.status).toBe(200);
  });

  it('speaks a model answer within 3,000 characters though over 3,000 UTF-16 units', async () => {
    // Prepare
    const id = await startWithFixture(harness.client(), 'npm-start-speech-emoji');
    // 2,850 letters and 100 emoji: 2,950 characters, 3,050 UTF-16 units.
    const answer = `${'Sunny days. '.repeat(237)}Sunny.${'😀'.repeat(100)}`;
    expect([...answer].length).toBeLessThanOrEqual(3_000);
    expect(answer.length).toBeGreaterThan(3_000);
    harness.llm.enqueue(textReply(answer));

    // Act
    const response = await fetch(`${harness.stack.url}${ROUTES.commandStream}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: id, voice_command: 'send me smiles' }),
    });
    const pcm = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(pcm.length).toBeGreaterThan(0);
  });
});
