// What preparing a recording for Amazon Transcribe costs `npm start`'s main thread
// (transcribe-audio.ts): mono at a rate Transcribe takes (44.1, 48 kHz) is sent as the WAV holds
// it, stereo is mixed, 96 and 192 kHz are brought down to a rate it takes. For each rate, mono
// and stereo, the longest recording the upload limit lets through (4 MiB): the CPU per second of
// audio, and the longest the main thread is held at once (the event loop waits that long). Then
// what the embedded recognizer's process spends making the same mono recordings its 16 kHz
// (recognizer-input.ts: above 48 kHz divided by a whole factor first, then the windowed sinc).
// Printed, not asserted. `npx tsx bench/transcribe-audio-bench.ts` or
// `npm run bench -- --only resample`.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { SPEECH_LIMITS } from '../functions/http/contract/speech-limits';
import { recognizerInput } from '../shared/adapters/speech/recognizer-input';
import { TRANSCRIBE_CHUNK_MS, transcribeAudio } from '../shared/adapters/speech/transcribe-audio';
import type { Recording } from '../shared/ports/speech';
import { toneWav } from '../test/support/speech-audio';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

const RATES = [44_100, 48_000, 96_000, 192_000] as const;
const RUNS = 5;

/** The longest recording of `channels` at `rate` an upload may hold (its header and all). */
function longestRecording(rate: number, channels: number): Recording {
  const seconds = Math.min(
    SPEECH_LIMITS.recordingSeconds,
    Math.floor((SPEECH_LIMITS.uploadBytes - 44) / (rate * channels * 2)),
  );
  // Speech-band tones, and one a recorder at that rate might also hold above 24 kHz.
  const tones = [
    { hz: 220, amplitude: 0.2 },
    { hz: 1_700, amplitude: 0.1 },
    ...(rate > 48_000 ? [{ hz: 30_000, amplitude: 0.05 }] : []),
  ];
  const wav = toneWav(
    seconds,
    rate,
    Array.from({ length: channels }, () => tones),
  );
  return { wav, format: { sampleRate: rate, channels, sampleWidth: 2 }, durationSeconds: seconds };
}

/**
 * One preparation of `recording` as the adapter does it, chunk by chunk: its whole CPU, and the
 * longest step the main thread ran without a break (the first includes what is done up front).
 */
function prepare(recording: Recording): { cpuMs: number; longestMs: number; bytes: number } {
  const cpu = process.cpuUsage();
  let longestMs = 0;
  let bytes = 0;
  let started = performance.now();
  const chunks = transcribeAudio(recording).chunks(TRANSCRIBE_CHUNK_MS);
  for (;;) {
    const next = chunks.next();
    const now = performance.now();
    longestMs = Math.max(longestMs, now - started);
    if (next.done === true) break;
    bytes += next.value.length;
    // The adapter waits for the next chunk's time here: the main thread is free again.
    started = performance.now();
  }
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1_000, longestMs, bytes };
}

export function runTranscribeAudioBench(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const channels of [1, 2]) {
    for (const rate of RATES) {
      const recording = longestRecording(rate, channels);
      prepare(recording);
      const runs = Array.from({ length: RUNS }, () => prepare(recording));
      const seconds = recording.durationSeconds;
      const label = `${rate / 1_000} kHz ${channels === 1 ? 'mono' : 'stereo'}, ${seconds} s`;
      const cpu = percentile(
        runs.map((run) => run.cpuMs),
        0.5,
      );
      rows.push(
        {
          name: `Transcribe audio ${label}: CPU per audio second (median of ${RUNS})`,
          value: roundTo(cpu / seconds, 2),
          unit: 'ms',
        },
        { name: `Transcribe audio ${label}: CPU in all`, value: roundTo(cpu, 1), unit: 'ms' },
        {
          name: `Transcribe audio ${label}: longest main-thread block (median)`,
          value: roundTo(
            percentile(
              runs.map((run) => run.longestMs),
              0.5,
            ),
            2,
          ),
          unit: 'ms',
        },
        {
          name: `Transcribe audio ${label}: rate sent`,
          value: ((runs[0]?.bytes ?? 0) / 2 / seconds) | 0,
          unit: 'Hz',
        },
      );
    }
  }
  for (const rate of RATES) {
    const recording = longestRecording(rate, 1);
    recognizerInput(recording);
    const cpus = Array.from({ length: RUNS }, () => {
      const cpu = process.cpuUsage();
      recognizerInput(recording);
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1_000;
    });
    rows.push({
      name: `recognizer input ${rate / 1_000} kHz mono to 16 kHz: CPU per audio second (its process)`,
      value: roundTo(percentile(cpus, 0.5) / recording.durationSeconds, 2),
      unit: 'ms',
    });
  }
  return rows;
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(runTranscribeAudioBench()));
}
