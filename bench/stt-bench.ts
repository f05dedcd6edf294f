// The embedded recognizer of `npm start`: what resampling the node's recording costs, and what
// hearing a 3 s and a 7 s recording costs with each engine on random-weight models of the
// defaults' exact shapes (speed does not depend on the weights' values): Moonshine tiny on
// sherpa-onnx (its decoder scripted to say a command's number of tokens, and to its limit), then
// whisper.cpp tiny.en (a random model writes its window's whole 224 tokens, where a real one stops
// after the words said: an upper bound; whisper.cpp's own bench gives the command's cost).
// Printed, not asserted. `npx tsx bench/stt-bench.ts [whisper shape]` or
// `npm run bench -- --only stt`.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  commandWords,
  MOONSHINE_SHAPES,
  writeMoonshineModel,
} from '../infra/tools/write-moonshine-model';
import {
  WHISPER_SHAPES,
  type WhisperShapeName,
  writeRandomWhisperModel,
} from '../infra/tools/write-whisper-model';
import { recognizerInput } from '../shared/adapters/speech/recognizer-input';
import { RecognizerProcess } from '../shared/adapters/speech/recognizer-process';
import type { Recording } from '../shared/ports/speech';
import { nodeRecording } from '../test/support/speech-audio';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

/** whisper.cpp's default model's shape (tiny.en, Q5_1: PINNED_MODELS.speech). */
const DEFAULT_SHAPE: WhisperShapeName = 'tiny.en-q5_1';
const LENGTHS_SECONDS = [3, 7] as const;
const RESAMPLES = 9;
/** One each: on 2 shared cores a random whisper model writes its 224 tokens for tens of seconds. */
const RECOGNITIONS = 1;

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

/** CPU and wall time of hearing `recording` `runs` times in one recognizer process, back to back. */
async function hearOn(
  recognizer: RecognizerProcess,
  recording: Recording,
  runs: number,
): Promise<{ wallSeconds: number; cpuSeconds: number; text: string }> {
  const pid = recognizer.pid ?? 0;
  const walls: number[] = [];
  const cpus: number[] = [];
  let text = '';
  for (let run = 0; run < runs; run += 1) {
    const cpu = processCpuSeconds(pid);
    const start = performance.now();
    text = (await recognizer.recognize(recording, 2_000)).text ?? '(past 2,000 characters)';
    walls.push((performance.now() - start) / 1000);
    cpus.push(processCpuSeconds(pid) - cpu);
  }
  return { wallSeconds: percentile(walls, 0.5), cpuSeconds: percentile(cpus, 0.5), text };
}

/** The rows of one recording length heard by one engine. */
function hearingRows(
  label: string,
  seconds: number,
  heard: { wallSeconds: number; cpuSeconds: number },
  runs: number,
): BenchRow[] {
  const of = runs === 1 ? '1 run' : `median of ${runs}`;
  return [
    {
      name: `${label} hears ${seconds} s at 48 kHz: wall (${of})`,
      value: roundTo(heard.wallSeconds, 2),
      unit: 's',
    },
    {
      name: `${label} hears ${seconds} s: CPU per audio second`,
      value: roundTo(heard.cpuSeconds / seconds, 3),
      unit: 's',
    },
  ];
}

/** Tokens a spoken command comes to per second: about 2.5 words a second, 1.2 tokens a word. */
const COMMAND_TOKENS_PER_SECOND = 3;
/** Moonshine's decoder stops at 6 tokens a second of audio (sherpa-onnx's greedy search). */
const MOONSHINE_MAX_TOKENS_PER_SECOND = 6;
const SHERPA_RUNS = 5;

/**
 * Moonshine tiny on sherpa-onnx, random int8 weights in the published shape, one model per
 * recording length whose decoder says a command's number of tokens (a real model stops after the
 * words said), and, as the upper bound, one that talks to the decoder's limit.
 */
async function sherpaRows(folder: string, threads: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cases = [
    ...LENGTHS_SECONDS.map((seconds) => ({
      seconds,
      label: 'sherpa-onnx Moonshine tiny',
      script: { words: commandWords(seconds * COMMAND_TOKENS_PER_SECOND) },
    })),
    {
      seconds: 7,
      label: `sherpa-onnx Moonshine tiny, ${7 * MOONSHINE_MAX_TOKENS_PER_SECOND} tokens (its limit)`,
      script: { words: commandWords(1), loops: true },
    },
  ];
  for (const [index, { seconds, label, script }] of cases.entries()) {
    const modelFolder = join(folder, `moonshine-${index}`);
    const { files, bytes } = await writeMoonshineModel(modelFolder, MOONSHINE_SHAPES.tiny, script);
    const startedAt = performance.now();
    const recognizer = new RecognizerProcess({ engine: 'sherpa', moonshine: files }, threads);
    try {
      const loadMs = await recognizer.ready();
      const startMs = performance.now() - startedAt;
      if (index === 0) {
        rows.push(
          // What a recording waits for when the process must be started again (the deadline
          // ended the last one): the process's start and the model's load, both in that process.
          {
            name: 'sherpa-onnx Moonshine tiny recognizer process start to ready',
            value: roundTo(startMs, 0),
            unit: 'ms',
          },
          {
            name: 'sherpa-onnx Moonshine tiny recognizer process CPU to ready',
            value: roundTo(processCpuSeconds(recognizer.pid ?? 0) * 1_000, 0),
            unit: 'ms',
          },
          {
            name: 'sherpa-onnx Moonshine tiny (random int8 weights) files',
            value: roundTo(bytes / 1e6, 1),
            unit: 'MB',
          },
          {
            name: 'sherpa-onnx Moonshine tiny load (recognizer process)',
            value: roundTo(loadMs, 0),
            unit: 'ms',
          },
          {
            name: 'sherpa-onnx Moonshine tiny recognizer RSS after load',
            value: roundTo(processMemoryMb(recognizer.pid ?? 0).rss, 0),
            unit: 'MB',
          },
        );
      }
      const recording = nodeRecording(seconds);
      await recognizer.recognize(recording, 2_000);
      const heard = await hearOn(recognizer, recording, SHERPA_RUNS);
      rows.push(...hearingRows(`${label}, ${threads} threads,`, seconds, heard, SHERPA_RUNS));
      if (index === cases.length - 1) {
        rows.push({
          name: 'sherpa-onnx Moonshine tiny recognizer peak RSS',
          value: roundTo(processMemoryMb(recognizer.pid ?? 0).peak, 0),
          unit: 'MB',
        });
      }
    } finally {
      recognizer.kill();
      await rm(modelFolder, { recursive: true, force: true });
    }
  }
  return rows;
}

/** whisper.cpp on a random-weight model of `shape`: one recognition a length (each writes 224 tokens). */
async function whisperRows(
  folder: string,
  shape: WhisperShapeName,
  threads: number,
): Promise<BenchRow[]> {
  const modelPath = join(folder, `ggml-random-${shape}.bin`);
  const bytes = await writeRandomWhisperModel(modelPath, WHISPER_SHAPES[shape]);
  const recognizer = new RecognizerProcess({ engine: 'whisper', path: modelPath }, threads);
  const pid = recognizer.pid ?? 0;
  try {
    const loadMs = await recognizer.ready();
    const rows: BenchRow[] = [
      {
        name: `whisper ${shape} (random weights) file`,
        value: roundTo(bytes / 1e6, 1),
        unit: 'MB',
      },
      { name: `whisper ${shape} load (recognizer process)`, value: roundTo(loadMs, 0), unit: 'ms' },
      {
        name: `whisper ${shape} recognizer RSS after load`,
        value: roundTo(processMemoryMb(pid).rss, 0),
        unit: 'MB',
      },
    ];
    for (const seconds of LENGTHS_SECONDS) {
      const heard = await hearOn(recognizer, nodeRecording(seconds), RECOGNITIONS);
      rows.push(
        ...hearingRows(
          `whisper ${shape}, ${threads} threads, 224 tokens,`,
          seconds,
          heard,
          RECOGNITIONS,
        ),
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
}

async function recognitionRows(shape: WhisperShapeName): Promise<BenchRow[]> {
  const folder = await mkdtemp(join(tmpdir(), 'jcc-stt-bench-'));
  // What npm start gives either engine: the machine's cores, at most 8.
  const threads = Math.min(8, availableParallelism());
  try {
    return [...(await sherpaRows(folder, threads)), ...(await whisperRows(folder, shape, threads))];
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
