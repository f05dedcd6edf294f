import { writeFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedSpeechToText,
  recognitionWorthEnding,
} from '../../../shared/adapters/speech/embedded-speech-to-text';
import type { RecognizerModel } from '../../../shared/adapters/speech/recognizer-engines';
import { RecognizerProcess } from '../../../shared/adapters/speech/recognizer-process';
import { transcriptWithinLimit } from '../../../shared/adapters/speech/transcript-limit';
import { type Recording, SpeechBusyError, SpeechProviderError } from '../../../shared/ports/speech';
import { FakeTiming } from '../../support/fake-timing';
import { TEST_MOONSHINE_WORDS, writeTestMoonshineModel } from '../../support/moonshine-test-model';
import { toneWav } from '../../support/speech-audio';
import { removeTestModelFoldersAfterAll } from '../../support/test-model-folders';
import { writeTestWhisperModel } from '../../support/whisper-test-model';

const LONG = { timeoutMs: 600_000 };

function recording(
  seconds: number,
  sampleRate: number,
  channelTones: Parameters<typeof toneWav>[2],
): Recording {
  return {
    wav: toneWav(seconds, sampleRate, channelTones),
    format: { sampleRate, channels: channelTones.length, sampleWidth: 2 },
    durationSeconds: seconds,
  };
}

const sine = (hz: number) => [{ hz, amplitude: 0.3 }];

const open: EmbeddedSpeechToText[] = [];
const started: RecognizerProcess[] = [];

/** A recognizer over `model` whose processes the test can see; closed after the test. */
function recognizerOf(
  model: RecognizerModel,
  options: Partial<ConstructorParameters<typeof EmbeddedSpeechToText>[0]> = {},
): EmbeddedSpeechToText {
  const stt = new EmbeddedSpeechToText({
    model,
    maxCharacters: 2_000,
    threads: 1,
    startProcess: (startedModel, threads) => {
      const process = new RecognizerProcess(startedModel, threads);
      started.push(process);
      return process;
    },
    ...options,
  });
  open.push(stt);
  return stt;
}

const isAlive = (pid: number | undefined) => {
  try {
    process.kill(pid ?? 0, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => {
  for (const stt of open.splice(0)) stt.close();
  started.splice(0);
});

const SAID = TEST_MOONSHINE_WORDS.join(' ');

removeTestModelFoldersAfterAll();

/**
 * Each engine through its real addon on a test model: Moonshine's says SAID whatever it hears
 * (its decoder's logits carry that script); whisper.cpp's random weights say gibberish.
 */
const engines = [
  {
    engine: 'sherpa-onnx (Moonshine)',
    write: async (): Promise<RecognizerModel> => ({
      engine: 'sherpa',
      moonshine: await writeTestMoonshineModel(),
    }),
    said: SAID as string | null,
  },
  {
    engine: 'whisper.cpp',
    write: async (): Promise<RecognizerModel> => ({
      engine: 'whisper',
      path: await writeTestWhisperModel(),
    }),
    said: null,
  },
];

describe.each(engines)('EmbeddedSpeechToText on $engine', ({ write, said }) => {
  let model: RecognizerModel;
  const recognizer = (options: Parameters<typeof recognizerOf>[1] = {}) =>
    recognizerOf(model, options);
  const heardText = said === null ? expect.any(String) : said;

  beforeAll(async () => {
    model = await write();
  });

  it.each([
    ['48 kHz stereo, a tone in one channel', recording(2, 48_000, [sine(440), []])],
    ['48 kHz mono silence', recording(2, 48_000, [[]])],
    ['8 kHz mono', recording(2, 8_000, [sine(300)])],
    ['44.1 kHz in four channels', recording(1, 44_100, [sine(440), sine(660), [], []])],
  ])('hears %s through the real addon, from 16 kHz samples', async (_, input) => {
    // Act
    const result = await recognizer().recognize(input, LONG);

    // Assess: Moonshine's test model says its script; random whisper weights say gibberish.
    expect(result.text).toEqual(heardText);
    expect(result.text).toBe(result.text.trim());
    expect(result.samples).toBe(Math.round(input.durationSeconds * 16_000));
  });

  it('loads the model once: recordings after the first reuse its process', async () => {
    // Prepare
    const stt = recognizer();

    // Act
    await stt.transcribe(recording(1, 48_000, [sine(440)]), LONG);
    await stt.transcribe(recording(1, 16_000, [sine(440)]), LONG);

    // Assess
    expect(started).toHaveLength(1);
  });

  it('hears one recording at a time, lets queueLimit wait, and refuses one more at once (503 material)', async () => {
    // Prepare
    const stt = recognizer({ queueLimit: 1 });
    const input = recording(1, 48_000, [sine(440)]);

    // Act
    const first = stt.transcribe(input, LONG);
    const second = stt.transcribe(input, LONG);
    const third = stt.transcribe(input, LONG);

    // Assess
    await expect(third).rejects.toThrow(SpeechBusyError);
    await expect(third).rejects.toMatchObject({ capacity: 2, retryAfterSeconds: 2 });
    await expect(first).resolves.toEqual({ text: heardText });
    await expect(second).resolves.toEqual({ text: heardText });
    // The queue drained: a new recording is taken again.
    await expect(stt.transcribe(input, LONG)).resolves.toEqual({ text: heardText });
  });

  it('ends the recognition at the deadline by ending its process, and hears the next recording', async () => {
    // Prepare: the model loaded, then a 30 s recording sent to it.
    const timing = new FakeTiming({ instantSleeps: false });
    const stt = recognizer({ timing });
    await stt.warm();
    const pid = started[0]?.pid;
    const heard = stt.transcribe(recording(30, 48_000, [sine(440)]), { timeoutMs: 5_000 });
    await new Promise((resolve) => setImmediate(resolve));

    // Act
    timing.advance(5_000);

    // Assess
    await expect(heard).rejects.toMatchObject({
      name: 'SpeechProviderError',
      failure: 'timeout',
      direction: 'speech_to_text',
    });
    await expect.poll(() => isAlive(pid)).toBe(false);
    // A new process is loading already, before any recording asks for it.
    expect(started).toHaveLength(2);
    const next = await stt.recognize(recording(1, 48_000, [sine(440)]), { timeoutMs: 600_000 });
    expect(next.text).toEqual(heardText);
    expect(started).toHaveLength(2);
  });

  /**
   * A recognizer on a fake clock whose process took `restartMs` to be ready and whose last
   * recognition (1 s of audio) took `msPerAudioSecond` on that clock: what a caller that leaves is
   * weighed against.
   */
  async function recognizerThatKnows(paces: { restartMs: number; msPerAudioSecond: number }) {
    const timing = new FakeTiming({ instantSleeps: false });
    const stt = recognizer({ queueLimit: 1, timing });
    const warming = stt.warm();
    timing.advance(paces.restartMs);
    await warming;
    const first = stt.recognize(recording(1, 48_000, [sine(440)]), LONG);
    // Sent once its turn is taken and the ready model is seen: a few turns of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    timing.advance(paces.msPerAudioSecond);
    await first;
    return { stt, timing };
  }

  /** Sends a 30 s recording, a 1 s one behind it, and the first one's caller leaves. */
  async function leaveA30sRecording(stt: EmbeddedSpeechToText) {
    const caller = new AbortController();
    const left = stt.transcribe(recording(30, 48_000, [sine(440)]), {
      timeoutMs: 600_000,
      signal: caller.signal,
    });
    const waiting = stt.transcribe(recording(1, 48_000, [sine(440)]), LONG);
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    return { left, waiting };
  }

  it('answers a caller that leaves at once and keeps the process when what is left takes less than a new one', async () => {
    // Prepare: 30 s at 1 s a second of audio is less than the 60 s a new process took.
    const { stt } = await recognizerThatKnows({ restartMs: 60_000, msPerAudioSecond: 1_000 });
    const pid = started[0]?.pid;

    // Act
    const { left, waiting } = await leaveA30sRecording(stt);

    // Assess: the caller answered, the recording behind it heard by the same process.
    await expect(left).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(waiting).resolves.toEqual({ text: heardText });
    await expect(stt.transcribe(recording(1, 16_000, [sine(440)]), LONG)).resolves.toEqual({
      text: heardText,
    });
    expect(started).toHaveLength(1);
    expect(isAlive(pid)).toBe(true);
  });

  it('ends a kept recognition once it overruns what was expected of it by a new process’s time', async () => {
    // Prepare: kept (30 s expected to take 30 s, a new process 60 s)...
    const { stt, timing } = await recognizerThatKnows({
      restartMs: 60_000,
      msPerAudioSecond: 1_000,
    });
    const pid = started[0]?.pid;
    const { left, waiting } = await leaveA30sRecording(stt);

    // Act: ...but still running 30 s and 60 s later.
    timing.advance(90_000);

    // Assess
    await expect(left).rejects.toMatchObject({ failure: 'unavailable' });
    await expect.poll(() => isAlive(pid)).toBe(false);
    await expect(waiting).resolves.toEqual({ text: heardText });
    expect(started).toHaveLength(2);
  });

  it('ends the recognition of a caller that leaves when what is left takes longer than a new process', async () => {
    // Prepare: 30 s at 1 s a second of audio against a process ready in 2 s.
    const { stt } = await recognizerThatKnows({ restartMs: 2_000, msPerAudioSecond: 1_000 });
    const pid = started[0]?.pid;

    // Act
    const { left, waiting } = await leaveA30sRecording(stt);

    // Assess: the process ended, a new one started at once hears the recording behind it.
    await expect(left).rejects.toMatchObject({ failure: 'unavailable' });
    await expect.poll(() => isAlive(pid)).toBe(false);
    expect(started).toHaveLength(2);
    await expect(waiting).resolves.toEqual({ text: heardText });
    expect(started).toHaveLength(2);
  });

  it('ends the recognition of a caller that leaves before any was heard to its end: nothing is known of its pace', async () => {
    // Prepare
    const stt = recognizer({ queueLimit: 1, timing: new FakeTiming({ instantSleeps: false }) });
    await stt.warm();
    const pid = started[0]?.pid;

    // Act
    const { left, waiting } = await leaveA30sRecording(stt);

    // Assess
    await expect(left).rejects.toMatchObject({ failure: 'unavailable' });
    await expect.poll(() => isAlive(pid)).toBe(false);
    await expect(waiting).resolves.toEqual({ text: heardText });
    expect(started).toHaveLength(2);
  });

  it('never sends the recording of a caller that leaves while the model loads; the load goes on', async () => {
    // Prepare: every recording the process is sent, counted.
    let sent = 0;
    const stt = recognizer({
      startProcess: (startedModel, threads) => {
        const process = new RecognizerProcess(startedModel, threads);
        const recognize = process.recognize.bind(process);
        process.recognize = (...input) => {
          sent += 1;
          return recognize(...input);
        };
        started.push(process);
        return process;
      },
    });
    const caller = new AbortController();

    // Act: the caller leaves once its turn is taken, before the model is loaded.
    const left = stt.transcribe(recording(30, 48_000, [sine(440)]), {
      timeoutMs: 600_000,
      signal: caller.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(1);
    caller.abort();

    // Assess: answered, never sent; the same process hears the next recording.
    await expect(left).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(stt.transcribe(recording(1, 16_000, [sine(440)]), LONG)).resolves.toEqual({
      text: heardText,
    });
    expect(sent).toBe(1);
    expect(started).toHaveLength(1);
  });

  it('hears the recording waiting in line with a new process when the running one is stopped', async () => {
    // Prepare: a 30 s recording running on the loaded model, a short one waiting behind it.
    const timing = new FakeTiming({ instantSleeps: false });
    const stt = recognizer({ queueLimit: 1, timing });
    await stt.warm();
    const running = stt.transcribe(recording(30, 48_000, [sine(440)]), { timeoutMs: 5_000 });
    const waiting = stt.transcribe(recording(1, 48_000, [sine(440)]), LONG);
    await new Promise((resolve) => setImmediate(resolve));

    // Act: only the running recording's deadline passes; the waiting one starts at once.
    timing.advance(5_000);

    // Assess: the waiting recording is heard, not failed by the process being killed.
    await expect(running).rejects.toMatchObject({ failure: 'timeout' });
    await expect(waiting).resolves.toEqual({ text: heardText });
    expect(started).toHaveLength(2);
  });

  it('frees the place of a recording whose deadline passes while it waits', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const stt = recognizer({ queueLimit: 1, timing });
    const input = recording(1, 48_000, [sine(440)]);
    const first = stt.transcribe(input, LONG);
    const waiting = stt.transcribe(input, { timeoutMs: 10 });

    // Act: both deadlines pass; only the waiting one had not started.
    timing.advance(LONG.timeoutMs);

    // Assess
    await expect(waiting).rejects.toMatchObject({ failure: 'timeout' });
    await expect(first).rejects.toMatchObject({ failure: 'timeout' });
    await expect(stt.transcribe(input, LONG)).resolves.toEqual({ text: heardText });
  });

  it('answers a text past maxCharacters with a provider failure, never a cut text', async () => {
    // Prepare
    const input = recording(3, 16_000, [sine(440)]);
    const full = (await recognizer().recognize(input, LONG)).text;

    // Act
    const past = recognizer({ maxCharacters: full.length - 1 }).recognize(input, LONG);
    const within = recognizer({ maxCharacters: full.length }).recognize(input, LONG);

    // Assess: the same greedy decoding, refused one character short of it.
    await expect(past).rejects.toMatchObject({
      failure: 'malformed_reply',
      message: `the embedded recognizer's transcript passed ${full.length - 1} characters, voice/command's utterance limit`,
    });
    await expect(within).resolves.toMatchObject({ text: full });
  });

  it('answers a model file that does not load with a provider failure in one line, not a hang', async () => {
    // Prepare: the model's first file replaced by bytes that are no model.
    const notAModel = `${model.engine === 'sherpa' ? model.moonshine.encoder : model.path}.broken`;
    await writeFile(notAModel, 'not a model');
    const broken: RecognizerModel =
      model.engine === 'sherpa'
        ? { ...model, moonshine: { ...model.moonshine, encoder: notAModel } }
        : { ...model, path: notAModel };

    // Act
    const heard = recognizerOf(broken).transcribe(recording(1, 16_000, [sine(440)]), LONG);

    // Assess
    await expect(heard).rejects.toThrow(SpeechProviderError);
    await expect(heard).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(heard).rejects.toThrow(/^[^\n]+$/);
  });
});

describe('EmbeddedSpeechToText on sherpa-onnx (Moonshine)', () => {
  it('says which model file did not load, and why', async () => {
    // Prepare
    const files = await writeTestMoonshineModel();
    await writeFile(files.encoder, 'not an ONNX model');

    // Act
    const heard = recognizerOf({ engine: 'sherpa', moonshine: files }).transcribe(
      recording(1, 16_000, [sine(440)]),
      LONG,
    );

    // Assess
    await expect(heard).rejects.toThrow(
      `the embedded recognizer failed: Load model from ${files.encoder} failed:Protobuf parsing failed.`,
    );
  });

  it('frees its turn when the process cannot be started: the next recording is heard', async () => {
    // Prepare: a first start that throws, as a fork the system refused would.
    const files = await writeTestMoonshineModel();
    let starts = 0;
    const stt = recognizerOf(
      { engine: 'sherpa', moonshine: files },
      {
        startProcess: (model, threads) => {
          starts += 1;
          if (starts === 1) throw new Error('spawn EAGAIN');
          return new RecognizerProcess(model, threads);
        },
      },
    );
    const input = recording(1, 16_000, [sine(440)]);

    // Act
    const refused = await stt.transcribe(input, LONG).catch((error: unknown) => error);
    const heard = await stt.transcribe(input, LONG);

    // Assess
    expect(refused).toBeInstanceOf(SpeechProviderError);
    expect(refused).toMatchObject({ failure: 'unavailable' });
    expect(heard.text).toBe(SAID);
  });

  it('answers a model that says more than 2,000 characters with a 502, as Transcribe is', async () => {
    // Prepare: a model that says one 40-character word until its decoder's limit (6 a second).
    const word = 'x'.repeat(40);
    const files = await writeTestMoonshineModel({ words: [word], loops: true });
    const input = recording(20, 48_000, [sine(440)]);

    // Act
    const full = (
      await recognizerOf(
        { engine: 'sherpa', moonshine: files },
        { maxCharacters: 100_000 },
      ).recognize(input, LONG)
    ).text;
    const heard = recognizerOf({ engine: 'sherpa', moonshine: files }).transcribe(input, LONG);

    // Assess
    expect(full.length).toBeGreaterThan(2_000);
    await expect(heard).rejects.toBeInstanceOf(SpeechProviderError);
    await expect(heard).rejects.toMatchObject({ failure: 'malformed_reply' });
  });
});

describe('recognitionWorthEnding', () => {
  const left = {
    sentAt: 1_000,
    now: 1_500,
    audioSeconds: 30,
    msPerAudioSecond: 100,
    restartMs: 1_000,
  };

  it.each([
    ['2,500 ms left against a 1,000 ms restart', left, true],
    ['500 ms left against a 1,000 ms restart', { ...left, now: 3_500 }, false],
    ['as long left as a restart takes', { ...left, restartMs: 2_500 }, false],
    ['a pace not yet known', { ...left, msPerAudioSecond: null }, true],
    ['a recording not yet sent (the model loading)', { ...left, sentAt: null }, false],
    ['a recognition past its expected time', { ...left, now: 10_000 }, false],
  ])('%s: %s', (_, recognition, expected) => {
    expect(recognitionWorthEnding(recognition)).toBe(expected);
  });
});

describe('transcriptWithinLimit', () => {
  it.each([
    ['  hello world  ', 11, 'hello world'],
    ['hello world', 10, null],
    ['ab\u{1F600}cd', 5, 'ab\u{1F600}cd'],
    ['ab\u{1F600}cd', 4, null],
  ])('%j within %i characters (code points, trimmed) is %j', (text, limit, expected) => {
    expect(transcriptWithinLimit(text, limit)).toBe(expected);
  });
});
