import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { SPEECH_LIMITS } from '../../functions/http/contract/speech-limits';
import { asRf64, tonePcm, wavFile } from '../support/speech-audio';
import { acknowledgementModel, strictClientProblems } from '../support/strict-node-models';
import { expectError } from './response-contract';
import { postRaw, recordingForm, useSpeechApi } from './speech-api';
import { read } from './speech-exchange';

const api = useSpeechApi();
const TRANSCRIBE = routePath('media-transcribe');
const MONO_48K = { sampleRate: 48_000, channels: 1, sampleWidth: 2 };
const MONO_16K = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };

/** What the node records by default: mono 16-bit at 48 kHz. */
const recording = (seconds: number) => wavFile(tonePcm(seconds, 48_000), MONO_48K);

describe('POST /api/v0/media/whisper/transcribe', () => {
  it('turns the node’s WAV recording into {"text"}: the recording reaches the provider as sent', async () => {
    // Prepare
    const wav = recording(1.5);
    api().audio.enqueueTranscription({ text: 'what is the weather tomorrow' });

    // Act
    const response = await read(await postRaw(api().speaking, TRANSCRIBE, recordingForm(wav)));

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ text: 'what is the weather tomorrow' });
    // The node reads `.get("text")` as its acknowledgement client does.
    expect(strictClientProblems(acknowledgementModel, response.json)).toEqual([]);
    const upload = api().audio.requests[0]?.transcription;
    expect(upload?.model).toBe('whisper-1');
    expect(Buffer.from(upload?.file ?? new Uint8Array())).toEqual(Buffer.from(wav));
    expect(api().output.join('')).toContain('"audio_seconds_transcribed":1.5');
  });

  it.each([
    ['no key', 401, { 'x-api-key': '' }],
    ['a JSON body', 415, { 'content-type': 'application/json' }],
  ])('refuses %s before any work: %i, nothing sent to the provider', async (_, status, headers) => {
    // Act
    const json = 'content-type' in headers;
    const response = await read(
      await postRaw(
        api().speaking,
        TRANSCRIBE,
        json ? '{"file":"x"}' : recordingForm(recording(0.5)),
        headers,
      ),
    );

    // Assess
    expectError(response, status);
    expect(api().audio.requests).toEqual([]);
  });

  it('takes the node’s default recording (7 s at 48 kHz) and refuses an upload over the limit with 413', async () => {
    // Prepare
    api().audio.enqueueTranscription({ text: 'seven seconds' });
    const tooLarge = new Uint8Array(SPEECH_LIMITS.uploadBytes + 1);
    tooLarge.set(recording(0.1));

    // Act
    const accepted = await read(
      await postRaw(api().speaking, TRANSCRIBE, recordingForm(recording(7))),
    );
    const refused = await read(await postRaw(api().speaking, TRANSCRIBE, recordingForm(tooLarge)));

    // Assess
    expect(accepted.status, accepted.text).toBe(200);
    const error = expectError(refused, 413, 'payload_too_large');
    expect(error.error.details).toEqual([
      { limit_bytes: SPEECH_LIMITS.uploadBytes, received_bytes: expect.any(Number) },
    ]);
    expect(api().audio.requests).toHaveLength(1);
  });

  const float32 = (() => {
    const wav = recording(0.2);
    new DataView(wav.buffer).setUint16(20, 3, true);
    return wav;
  })();
  const eightBit = wavFile(new Uint8Array(800), { sampleRate: 8_000, channels: 1, sampleWidth: 1 });
  const empty = wavFile(new Uint8Array(0), MONO_48K);
  it.each([
    ['a text file', 415, 'unsupported_audio', new TextEncoder().encode('not audio at all')],
    ['a float WAV', 415, 'unsupported_audio', float32],
    ['an 8-bit WAV', 415, 'unsupported_audio', eightBit],
    ['a WAV without samples', 400, 'invalid_audio', empty],
    ['61 s of audio', 413, 'recording_too_long', wavFile(tonePcm(61, 16_000), MONO_16K)],
  ])('answers %s with %i %s naming what is wrong', async (_, status, code, file) => {
    // Act
    const response = await read(await postRaw(api().speaking, TRANSCRIBE, recordingForm(file)));

    // Assess
    const error = expectError(response, status, code);
    expect(error.error.message.length).toBeGreaterThan(20);
    expect(api().audio.requests).toEqual([]);
  });

  it('answers a form without a "file" part, and a body that is not multipart, with 400', async () => {
    // Act
    const noFile = await read(
      await postRaw(api().speaking, TRANSCRIBE, recordingForm(recording(0.2), 'audio')),
    );
    const broken = await read(
      await postRaw(api().speaking, TRANSCRIBE, 'garbage', {
        'content-type': 'multipart/form-data; boundary=nothing-here',
      }),
    );

    // Assess
    expectError(noFile, 400, 'missing_file');
    expectError(broken, 400, 'invalid_multipart');
  });

  it.each([
    ['the boundary string', (boundary: string) => `--${boundary}`],
    ['the boundary after a lone LF', (boundary: string) => `\n--${boundary}--\n`],
  ])(
    'takes a recording whose samples hold %s (no CRLF before it: not a delimiter)',
    async (_, inside) => {
      // Prepare: the node's own boundary, and samples that spell it out.
      const boundary = 'a7f3c1e9d2b84f60';
      const spelled = Buffer.from(inside(boundary), 'latin1');
      const pcm = Buffer.concat([Buffer.from(tonePcm(0.2, 16_000)), spelled]);
      const even = pcm.length % 2 === 0 ? pcm : Buffer.concat([pcm, Buffer.from([0])]);
      const wav = wavFile(even, MONO_16K);
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.wav"\r\n` +
            'Content-Type: audio/wav\r\n\r\n',
        ),
        Buffer.from(wav),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      api().audio.enqueueTranscription({ text: 'lights on' });

      // Act
      const response = await read(
        await postRaw(api().speaking, TRANSCRIBE, new Uint8Array(body), {
          'content-type': `multipart/form-data; boundary=${boundary}`,
        }),
      );

      // Assess
      expect(response.status, response.text).toBe(200);
      const upload = api().audio.requests[0]?.transcription;
      expect(Buffer.from(upload?.file ?? new Uint8Array())).toEqual(Buffer.from(wav));
    },
  );

  it.each([
    ['no filename (RFC 7578: a SHOULD)', 'Content-Type: audio/wav\r\n'],
    ['no filename and no Content-Type (curl -F "file=<r.wav")', ''],
  ])('takes the recording from a "file" part with %s', async (_, typeLine) => {
    // Prepare
    const boundary = 'e1d2c3b4a5';
    const wav = recording(0.2);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n${typeLine}\r\n`,
      ),
      Buffer.from(wav),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    api().audio.enqueueTranscription({ text: 'lights off' });

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, new Uint8Array(body), {
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
    );

    // Assess: the bytes as sent, not a text field's decoding of them
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ text: 'lights off' });
    const upload = api().audio.requests[0]?.transcription;
    expect(Buffer.from(upload?.file ?? new Uint8Array())).toEqual(Buffer.from(wav));
  });

  it('refuses a WAV whose empty data chunk is followed by a LIST: 400, the provider never asked', async () => {
    // Prepare: an empty recording as an editor saves it, the data size 0 and metadata after it.
    const wav = Buffer.concat([
      wavFile(new Uint8Array(0), MONO_16K),
      Buffer.from('LIST\x04\x00\x00\x00INFO', 'latin1'),
    ]);
    wav.writeUInt32LE(wav.length - 8, 4);

    // Act
    const response = await read(await postRaw(api().speaking, TRANSCRIBE, recordingForm(wav)));

    // Assess
    expectError(response, 400, 'invalid_audio');
    expect(response.text).toContain('holds no audio');
    expect(api().audio.requests).toHaveLength(0);
  });

  it('takes an RF64 recording and hands the provider its samples as a plain WAV', async () => {
    // Prepare: what a recorder writing RF64 sends (its sizes in a ds64 chunk).
    const plain = recording(0.5);
    api().audio.enqueueTranscription({ text: 'lights on' });

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, recordingForm(asRf64(plain, 'RF64'))),
    );

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ text: 'lights on' });
    const upload = api().audio.requests[0]?.transcription;
    expect(Buffer.from(upload?.file ?? new Uint8Array())).toEqual(Buffer.from(plain));
  });

  /** The file part of a form by hand: its Content-Disposition's parameters, then the bytes. */
  const filePart = (disposition: string, wav: Uint8Array) =>
    Buffer.concat([
      Buffer.from(`Content-Disposition: form-data; ${disposition}\r\n\r\n`, 'latin1'),
      Buffer.from(wav),
    ]);

  it.each([
    [
      'transport padding after each delimiter (RFC 2046: receivers must take it)',
      'pad',
      (wav: Uint8Array) => [
        Buffer.from('--pad \t \r\nContent-Disposition: form-data; name="note"\r\n\r\nhi'),
        Buffer.from('\r\n--pad  \r\n'),
        filePart('name="file"; filename="r.wav"', wav),
        Buffer.from('\r\n--pad-- \r\n'),
      ],
    ],
    [
      'a quoted boundary with a blank, a preamble and an epilogue that spell it',
      '"simple boundary"',
      (wav: Uint8Array) => [
        Buffer.from('a preamble that says --simple boundary but not after a CRLF\r\n'),
        Buffer.from('\r\n--simple boundary\r\n'),
        filePart('name="file"', wav),
        Buffer.from('\r\n--simple boundary--\r\nan epilogue\r\n--simple boundary\r\n'),
      ],
    ],
    [
      'a field whose value holds CRLFs before it, headers in lower case',
      'f00d',
      (wav: Uint8Array) => [
        Buffer.from('--f00d\r\ncontent-disposition: form-data; name="note"\r\n\r\na\r\nb\r\n'),
        Buffer.from('\r\n--f00d\r\ncontent-disposition: FORM-DATA; NAME=file\r\n\r\n'),
        Buffer.from(wav),
        Buffer.from('\r\n--f00d--'),
      ],
    ],
    [
      'two parts named "file" (the first is the recording)',
      'twice',
      (wav: Uint8Array) => [
        Buffer.from('--twice\r\n'),
        filePart('name="file"; filename="r.wav"', wav),
        Buffer.from('\r\n--twice\r\n'),
        filePart('name="file"; filename="other.wav"', new Uint8Array([1, 2, 3])),
        Buffer.from('\r\n--twice--\r\n'),
      ],
    ],
  ])('takes the recording from a valid form with %s', async (_, boundary, pieces) => {
    // Prepare
    const wav = recording(0.2);
    api().audio.enqueueTranscription({ text: 'lights on' });

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, new Uint8Array(Buffer.concat(pieces(wav))), {
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
    );

    // Assess: the recording's bytes as sent
    expect(response.status, response.text).toBe(200);
    const upload = api().audio.requests[0]?.transcription;
    expect(Buffer.from(upload?.file ?? new Uint8Array())).toEqual(Buffer.from(wav));
  });

  /** A multipart body by hand: `parts` as [name, bytes], then the closing boundary or not. */
  const form = (boundary: string, parts: [string, Uint8Array][], closed = true) =>
    new Uint8Array(
      Buffer.concat([
        ...parts.flatMap(([name, bytes]) => [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="r.wav"\r\n` +
              'Content-Type: audio/wav\r\n\r\n',
          ),
          Buffer.from(bytes),
          Buffer.from('\r\n'),
        ]),
        Buffer.from(closed ? `--${boundary}--\r\n` : ''),
      ]),
    );

  it.each([
    ['ends inside the file part (no closing boundary)', false, 1],
    ['ends right after the file part, without its closing boundary', false, 0],
  ])(
    'answers a form that %s 400 invalid_multipart, and serves the next',
    async (_, closed, cut) => {
      // Prepare
      const boundary = 'b0a1c2d3e4f5';
      const whole = form(boundary, [['file', recording(0.2)]], closed);
      const body = whole.subarray(0, whole.length - cut * 100);
      api().audio.enqueueTranscription({ text: 'still here' });

      // Act
      const response = await read(
        await postRaw(api().speaking, TRANSCRIBE, body, {
          'content-type': `multipart/form-data; boundary=${boundary}`,
        }),
      );
      const next = await read(
        await postRaw(api().speaking, TRANSCRIBE, recordingForm(recording(0.2))),
      );

      // Assess
      expectError(response, 400, 'invalid_multipart');
      expect(next.status, next.text).toBe(200);
      expect(api().audio.requests).toHaveLength(1);
    },
  );

  it('answers a form of thousands of parts 400 invalid_multipart naming the limit, unparsed past it', async () => {
    // Prepare: 20,000 one-byte parts, then the file.
    const boundary = 'c0ffee';
    const parts: [string, Uint8Array][] = Array.from({ length: 20_000 }, (_, index) => [
      `p${index}`,
      new Uint8Array([1]),
    ]);
    const body = form(boundary, [...parts, ['file', recording(0.2)]]);

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, body, {
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
    );

    // Assess
    const error = expectError(response, 400, 'invalid_multipart');
    expect(error.error.details).toEqual([{ limit_parts: 16 }]);
    expect(api().audio.requests).toEqual([]);
  });

  it('answers a provider failure with 502 speech_provider_failed (not the model’s code)', async () => {
    // Prepare
    api().audio.enqueueTranscription({ status: 401, body: { error: { message: 'bad key' } } });

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, recordingForm(recording(1))),
    );

    // Assess
    const error = expectError(response, 502, 'speech_provider_failed');
    expect(error.error.details).toEqual([{ direction: 'speech_to_text', failure: 'rejected' }]);
    expect(response.text).not.toContain('sk-speech-secret');
    expect(api().output.join('')).toContain('"speech_provider_errors":1');
  });

  /** `characters` code points of what a model looping on noise writes, in `unit`'s letters. */
  const looping = (unit: string, characters: number) =>
    [...unit.repeat(characters)].slice(0, characters).join('');

  it.each([
    ['at the limit: the text, whole', 'la', SPEECH_LIMITS.transcriptCharacters, 200],
    ['past it: 502, never a cut text', 'la', SPEECH_LIMITS.transcriptCharacters + 1, 502],
    // Counted as voice/command's schema counts the utterance: code points, an emoji is one.
    ['at the limit with emoji: the text, whole', 'ha😀', SPEECH_LIMITS.transcriptCharacters, 200],
    ['past it with emoji: 502', 'ha😀', SPEECH_LIMITS.transcriptCharacters + 1, 502],
  ])('answers a transcript %s', async (_case, unit, characters, status) => {
    // Prepare: what a model looping on noise writes, within the reply's byte limit.
    const text = looping(unit, characters);
    api().audio.enqueueTranscription({ text: ` ${text} ` });

    // Act
    const response = await read(
      await postRaw(api().speaking, TRANSCRIBE, recordingForm(recording(1))),
    );

    // Assess: a 200's text can always be sent on as voice/command's voice_command.
    if (status === 200) {
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({ text: text.trim() });
      return;
    }
    const error = expectError(response, 502, 'speech_provider_failed');
    expect(error.error.details).toEqual([
      { direction: 'speech_to_text', failure: 'malformed_reply' },
    ]);
  });

  it('answers 503 naming the settings when no speech-to-text is configured', async () => {
    // Act
    const response = await read(
      await postRaw(api().silent, TRANSCRIBE, recordingForm(recording(1))),
    );

    // Assess
    const error = expectError(response, 503, 'speech_not_configured');
    expect(error.error.message).toContain('STT_BASE_URL');
    expect(error.error.message).toContain('STT_PROVIDER=transcribe');
    expect(error.error.details).toEqual([
      { settings: ['STT_BASE_URL', 'STT_MODEL', 'STT_PROVIDER'] },
    ]);
  });
});
