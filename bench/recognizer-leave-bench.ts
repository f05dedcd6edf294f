// What a client that leaves mid-recognition costs `npm start`'s embedded recognizer, for each
// engine on random-weight models of the defaults' exact shapes (Moonshine tiny on sherpa-onnx, its
// decoder scripted to a command's number of tokens; whisper.cpp tiny.en, which writes its window's
// 224 tokens: an upper bound). Against it, what starting the recognizer process again costs. A
// recording is sent to the warm process, its caller leaves LEAVE_AFTER_MS later and a 1 s
// recording is sent at once: the CPU the recognizer processes spend from the leave to that next
// answer, and how long the next recording took, set beside the same 1 s recording heard alone.
// Printed, not asserted. `npx tsx bench/recognizer-leave-bench.ts [sherpa|whisper]` or
// `npm run bench -- --only leave`.
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
import { WHISPER_SHAPES, writeRandomWhisperModel } from '../infra/tools/write-whisper-model';
import { EmbeddedSpeechToText } from '../shared/adapters/speech/embedded-speech-to-text';
import type { RecognizerModel } from '../shared/adapters/speech/recognizer-engines';
import { RecognizerProcess } from '../shared/adapters/speech/recognizer-process';
import { nodeRecording } from '../test/support/speech-audio';
import type { BenchRow } from './bench-row';
import { roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

const LEAVE_AFTER_MS = 200;
const LONG = { timeoutMs: 600_000 };

/** CPU seconds a process has used (user + system), from /proc; null once it is gone. */
function processCpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * The CPU every recognizer process the adapter starts spends while `work` runs: each read every
 * 10 ms, so a process killed meanwhile is counted to its last reading.
 */
async function recognizerCpu<T>(
  processes: readonly RecognizerProcess[],
  work: () => Promise<T>,
): Promise<{ cpuSeconds: number; value: T }> {
  const first = new Map<RecognizerProcess, number>();
  const last = new Map<RecognizerProcess, number>();
  const read = () => {
    for (const process of processes) {
      const cpu = processCpuSeconds(process.pid);
      if (cpu === null) continue;
      if (!first.has(process)) first.set(process, cpu);
      last.set(process, cpu);
    }
  };
  read();
  const poll = setInterval(read, 10);
  try {
    const value = await work();
    read();
    let cpuSeconds = 0;
    for (const [process, cpu] of last) cpuSeconds += cpu - (first.get(process) ?? cpu);
    return { cpuSeconds, value };
  } finally {
    clearInterval(poll);
  }
}

interface Engine {
  readonly label: string;
  readonly model: RecognizerModel;
  readonly lengths: readonly number[];
}

async function engineRows(engine: Engine, threads: number): Promise<BenchRow[]> {
  const processes: RecognizerProcess[] = [];
  const startedAt: number[] = [];
  const stt = new EmbeddedSpeechToText({
    model: engine.model,
    maxCharacters: 2_000,
    threads,
    queueLimit: 1,
    startProcess: (model, count) => {
      startedAt.push(performance.now());
      const process = new RecognizerProcess(model, count);
      processes.push(process);
      return process;
    },
  });
  const rows: BenchRow[] = [];
  const row = (name: string, value: number, unit: string) =>
    rows.push({ name: `${engine.label}: ${name}`, value, unit });
  try {
    const { cpuSeconds: loadCpu } = await recognizerCpu(processes, () => stt.warm());
    row('process start to ready (wall)', roundTo(performance.now() - (startedAt[0] ?? 0), 0), 'ms');
    row('process start to ready (CPU)', roundTo(loadCpu * 1_000, 0), 'ms');
    const short = nodeRecording(1);
    await stt.recognize(short, LONG);
    const alone = performance.now();
    const { cpuSeconds: shortCpu } = await recognizerCpu(processes, () =>
      stt.recognize(short, LONG),
    );
    row('a 1 s recording alone (wall)', roundTo(performance.now() - alone, 0), 'ms');
    row('a 1 s recording alone (CPU)', roundTo(shortCpu * 1_000, 0), 'ms');
    for (const seconds of engine.lengths) {
      const whole = performance.now();
      const { cpuSeconds: wholeCpu } = await recognizerCpu(processes, () =>
        stt.recognize(nodeRecording(seconds), LONG),
      );
      row(
        `a ${seconds} s recording heard whole (wall)`,
        roundTo(performance.now() - whole, 0),
        'ms',
      );
      row(`a ${seconds} s recording heard whole (CPU)`, roundTo(wholeCpu * 1_000, 0), 'ms');
      const before = processes.length;
      const caller = new AbortController();
      const left = stt
        .recognize(nodeRecording(seconds), { ...LONG, signal: caller.signal })
        .catch(() => 'left');
      await new Promise((wait) => setTimeout(wait, LEAVE_AFTER_MS));
      const { cpuSeconds, value: nextMs } = await recognizerCpu(processes, async () => {
        const leftAt = performance.now();
        caller.abort();
        await left;
        await stt.recognize(short, LONG);
        return performance.now() - leftAt;
      });
      const label = `caller of ${seconds} s leaves after ${LEAVE_AFTER_MS} ms`;
      row(`${label}: the next 1 s recording's answer (wall)`, roundTo(nextMs, 0), 'ms');
      row(`${label}: recognizer CPU to that answer`, roundTo(cpuSeconds * 1_000, 0), 'ms');
      row(`${label}: processes started again`, processes.length - before, '');
    }
    return rows;
  } finally {
    stt.close();
  }
}

export async function runRecognizerLeaveBench(
  engines: readonly ('sherpa' | 'whisper')[] = ['sherpa', 'whisper'],
): Promise<BenchRow[]> {
  const folder = await mkdtemp(join(tmpdir(), 'jcc-leave-bench-'));
  const threads = Math.min(8, availableParallelism());
  const rows: BenchRow[] = [];
  try {
    if (engines.includes('sherpa')) {
      const { files } = await writeMoonshineModel(
        join(folder, 'moonshine'),
        MOONSHINE_SHAPES.tiny,
        {
          words: commandWords(20),
        },
      );
      const model = { engine: 'sherpa', moonshine: files } as const;
      const label = `Moonshine tiny, ${threads} threads`;
      rows.push(...(await engineRows({ label, model, lengths: [7, 30] }, threads)));
    }
    if (engines.includes('whisper')) {
      const path = join(folder, 'ggml-random-tiny.en-q5_1.bin');
      await writeRandomWhisperModel(path, WHISPER_SHAPES['tiny.en-q5_1']);
      const label = `whisper tiny.en-q5_1, ${threads} threads`;
      rows.push(
        ...(await engineRows({ label, model: { engine: 'whisper', path }, lengths: [7] }, threads)),
      );
    }
    return rows;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const only = process.argv[2] as 'sherpa' | 'whisper' | undefined;
  console.log(
    formatBenchTable(await runRecognizerLeaveBench(only === undefined ? undefined : [only])),
  );
}
