// The embedded recognizer of `npm start`: what resampling the node's recording costs, and what
// hearing it costs with whisper.cpp on a random-weight model of the default's exact shape
// (speed does not depend on the weights' values; a random model writes its window's whole
// 224 tokens, where a real one stops after the words said, so recognition here is an upper
// bound). Printed, not asserted. `npx tsx bench/stt-bench.ts` or `npm run bench -- --only stt`.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  WHISPER_SHAPES,
  type WhisperShapeName,
  writeRandomWhisperModel,
} from '../infra/tools/write-whisper-model';
import { recognizerInput } from '../shared/adapters/speech/recognizer-input';
import { wavHeader } from '../shared/adapters/speech/wav-format';
import { RecognizerProcess } from '../shared/adapters/speech/recognizer-process';
import type { Recording } from '../shared/ports/speech';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

/** The shape of the default model (docs/decisions/2026-11-26-embedded-speech-recognition.md). */
const DEFAULT_SHAPE: WhisperShapeName = 'base.en-q5_1';
const LENGTHS_SECONDS = [3, 7] as const;
const RESAMPLES = 9;
/** One each: on 2 shared cores a random base.en writes its 224 tokens for tens of seconds. */
const RECOGNITIONS = 1;
const NODE_RATE = 48_000;

/** The node's recording: mono 16-bit WAV at 48 kHz, of two tones in the speech band. */
function nodeRecording(seconds: number): Recording {
  const format = { sampleRate: NODE_RATE, channels: 1, sampleWidth: 2 };
  const frames = seconds * NODE_RATE;
  const wav = new Uint8Array(44 + frames * 2);
  wav.set(wavHeader(format, frames * 2));
  const view = new DataView(wav.buffer);
  for (let frame = 0; frame < frames; frame += 1) {
    const time = frame / NODE_RATE;
    const value =
      0.2 * Math.sin(2 * Math.PI * 220 * time) + 0.1 * Math.sin(2 * Math.PI * 1_700 * time);
    view.setInt16(44 + frame * 2, Math.round(value * 32_767), true);
  }
  return { wav, format, durationSeconds: seconds };
}

/** CPU seconds a process has used (user + system), from /proc: the recognizer's own process. */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process's resident memory now and at its peak, in MB, from /proc. */
function processMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]);
  return { rss: kilobytes('VmRSS') / 1024, peak: kilobytes('VmHWM') / 1024 };
}

function resampleRows(): BenchRow[] {
  return LENGTHS_SECONDS.flatMap((seconds) => {
    const recording = nodeRecording(seconds);
    const walls: number[] = [];
    const cpus: number[] = [];
    recognizerInput(recording);
    for (let run = 0; run < RESAMPLES; run += 1) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      recognizerInput(recording);
      walls.push(performance.now() - start);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
    }
    return [
      {
        name: `resample ${seconds} s at 48 kHz to 16 kHz: wall per audio second (median of ${RESAMPLES})`,
        value: roundTo(percentile(walls, 0.5) / seconds, 2),
        unit: 'ms',
      },
      {
        name: `resample ${seconds} s at 48 kHz to 16 kHz: CPU per audio second`,
        value: roundTo(percentile(cpus, 0.5) / seconds, 2),
        unit: 'ms',
      },
    ];
  });
}

async function recognitionRows(shape: WhisperShapeName): Promise<BenchRow[]> {
  const folder = await mkdtemp(join(tmpdir(), 'jcc-stt-bench-'));
  const modelPath = join(folder, `ggml-random-${shape}.bin`);
  try {
    const bytes = await writeRandomWhisperModel(modelPath, WHISPER_SHAPES[shape]);
    // What npm start gives it: the machine's cores, at most 8.
    const threads = Math.min(8, availableParallelism());
    const recognizer = new RecognizerProcess({ engine: 'whisper', path: modelPath }, threads);
    const pid = recognizer.pid ?? 0;
    try {
      const loadMs = await recognizer.ready();
      const loaded = processMemoryMb(pid);
      const rows: BenchRow[] = [
        {
          name: `whisper ${shape} (random weights) file`,
          value: roundTo(bytes / 1e6, 1),
          unit: 'MB',
        },
        {
          name: `whisper ${shape} load (recognizer process)`,
          value: roundTo(loadMs, 0),
          unit: 'ms',
        },
        {
          name: `whisper ${shape} recognizer RSS after load`,
          value: roundTo(loaded.rss, 0),
          unit: 'MB',
        },
      ];
      for (const seconds of LENGTHS_SECONDS) {
        const recording = nodeRecording(seconds);
        const walls: number[] = [];
        const cpus: number[] = [];
        for (let run = 0; run < RECOGNITIONS; run += 1) {
          const cpu = processCpuSeconds(pid);
          const start = performance.now();
          await recognizer.recognize(recording, 2_000);
          walls.push(performance.now() - start);
          cpus.push(processCpuSeconds(pid) - cpu);
        }
        rows.push(
          {
            name: `whisper ${shape} hears ${seconds} s at 48 kHz, ${threads} threads: wall`,
            value: roundTo(percentile(walls, 0.5) / 1000, 2),
            unit: 's',
          },
          {
            name: `whisper ${shape} hears ${seconds} s: wall per audio second`,
            value: roundTo(percentile(walls, 0.5) / 1000 / seconds, 2),
            unit: 's',
          },
          {
            name: `whisper ${shape} hears ${seconds} s: CPU per audio second`,
            value: roundTo(percentile(cpus, 0.5) / seconds, 2),
            unit: 's',
          },
        );
      }
      rows.push(...(await whisperCppRows(shape, modelPath, threads)), {
        name: `whisper ${shape} recognizer peak RSS`,
        value: roundTo(processMemoryMb(pid).peak, 0),
        unit: 'MB',
      });
      return rows;
    } finally {
      recognizer.kill();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Words a spoken command comes to, in whisper tokens with the prompt's: what a real model decodes. */
const COMMAND_TOKENS = 20;

/**
 * whisper.cpp's own bench on the same file (one 30 s window encoded, then 256 single-token
 * decodes): the ceiling per phase, and what a real model's short command costs (one encode, about
 * COMMAND_TOKENS decodes) where a random model decodes its window's whole 224 tokens.
 */
async function whisperCppRows(
  shape: WhisperShapeName,
  modelPath: string,
  threads: number,
): Promise<BenchRow[]> {
  const { initWhisper } = (await import('@fugood/whisper.node')) as unknown as {
    initWhisper(options: { filePath: string; useGpu: boolean }): Promise<{
      bench(threads: number): Promise<{ encodeMs: number; decodeMs: number }>;
      release(): Promise<void>;
    }>;
  };
  const context = await initWhisper({ filePath: modelPath, useGpu: false });
  try {
    const { encodeMs, decodeMs } = await context.bench(threads);
    return [
      {
        name: `whisper.cpp bench ${shape}: encode one 30 s window`,
        value: roundTo(encodeMs, 0),
        unit: 'ms',
      },
      {
        name: `whisper.cpp bench ${shape}: decode one token`,
        value: roundTo(decodeMs, 1),
        unit: 'ms',
      },
      {
        name: `whisper ${shape} a spoken command (1 window, ${COMMAND_TOKENS} tokens), from those`,
        value: roundTo((encodeMs + COMMAND_TOKENS * decodeMs) / 1000, 2),
        unit: 's',
      },
    ];
  } finally {
    await context.release();
  }
}

export async function runSttBench(shape: WhisperShapeName = DEFAULT_SHAPE): Promise<BenchRow[]> {
  return [...resampleRows(), ...(await recognitionRows(shape))];
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const shape = (process.argv[2] ?? DEFAULT_SHAPE) as WhisperShapeName;
  console.log(formatBenchTable(await runSttBench(shape)));
}
