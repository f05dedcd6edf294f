// The embedded synthesizer of `npm start` (CMU Flite under node:wasi): what compiling it costs
// once, and what one sentence costs. Printed, not asserted. `npx tsx bench/flite-bench.ts`.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  compileFliteModule,
  EmbeddedFliteTextToSpeech,
} from '../shared/adapters/speech/embedded-flite-text-to-speech';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';
import { timed } from './timed';

const COMPILES = 5;
const SENTENCES = 9;
/** A typical one-sentence spoken answer. */
const SENTENCE = 'Tomorrow will be sunny, with a high of twenty one degrees.';

/** Milliseconds of one synthesis, all chunks read; and the seconds of audio it made. */
async function speakOnce(tts: EmbeddedFliteTextToSpeech): Promise<{ ms: number; seconds: number }> {
  const { ms, value: bytes } = await timed(async () => {
    const speech = await tts.synthesize(SENTENCE, { timeoutMs: 60_000 });
    let total = 0;
    for await (const chunk of speech.chunks) total += chunk.length;
    return total;
  });
  return { ms, seconds: bytes / 32_000 };
}

/** `count` runs of 24 of `character`, apart: Flite reads each character of such a run as a word. */
function runs(character: string, count = 5): string {
  return Array.from({ length: count }, () => character.repeat(24)).join(' ');
}

/** Long texts within the speak limit: what one costs per second of audio, off the main thread. */
const LONG_TEXTS: readonly (readonly [string, string])[] = [
  ['3,000 digits', '7'.repeat(3_000)],
  ['3,000 characters of prose', `${SENTENCE} `.repeat(60).slice(0, 3_000)],
  ['3,000 dots', '.'.repeat(3_000)],
  // Sentences of one character: each was a Flite run of its own before pieces were packed.
  ['1,500 sentences of one dot', '. '.repeat(1_500)],
  ['750 sentences of "Hi."', 'Hi. '.repeat(750)],
  // Runs of symbols each read as a word (up to 0.64 s a character): the piece that passed the
  // limit was made whole and thrown away (2.07 s of CPU for this text).
  ['"Hi.", 59 s of equals signs, then ampersands', `Hi. ${runs('=')}. ${runs('&')}`],
  ['3,000 characters of underscores in runs of 24', `Hi. ${runs('_', 119)}`.slice(0, 3_000)],
];

/**
 * CPU of the whole process (the synthesizer's thread included) per second of audio, and the
 * longest the main thread's event loop waited meanwhile (how much other requests were held).
 */
async function longTextRows(): Promise<BenchRow[]> {
  const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt' });
  const rows: BenchRow[] = [];
  for (const [name, text] of LONG_TEXTS) {
    let worstLagMs = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      worstLagMs = Math.max(worstLagMs, now - last - 10);
      last = now;
    }, 10);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const speech = await tts.synthesize(text, { timeoutMs: 120_000 });
    let bytes = 0;
    for await (const chunk of speech.chunks) bytes += chunk.length;
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    clearInterval(probe);
    const seconds = bytes / 32_000;
    const cpuMs = (used.user + used.system) / 1000;
    rows.push(
      {
        name: `flite ${name}: audio (cut at the spoken limit)`,
        value: roundTo(seconds, 1),
        unit: 's',
      },
      { name: `flite ${name}: wall time`, value: roundTo(wallMs, 0), unit: 'ms' },
      {
        name: `flite ${name}: CPU per second of audio`,
        value: roundTo(cpuMs / Math.max(seconds, 0.001), 1),
        unit: 'ms',
      },
      { name: `flite ${name}: longest event-loop wait`, value: roundTo(worstLagMs, 0), unit: 'ms' },
    );
  }
  return rows;
}

export async function runFliteBench(): Promise<BenchRow[]> {
  const compiles: number[] = [];
  for (let run = 0; run < COMPILES; run += 1) compiles.push((await timed(compileFliteModule)).ms);
  const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt' });
  // The first sentence also compiles the functions it runs (V8 compiles WebAssembly lazily).
  const first = await speakOnce(tts);
  const sentences: { ms: number; seconds: number }[] = [];
  for (let run = 0; run < SENTENCES; run += 1) sentences.push(await speakOnce(tts));
  const sentenceMs = percentile(
    sentences.map((sentence) => sentence.ms),
    0.5,
  );
  const audioSeconds = sentences[0]?.seconds ?? 0;
  return [
    {
      name: `flite compile (median of ${COMPILES})`,
      value: roundTo(percentile(compiles, 0.5), 1),
      unit: 'ms',
    },
    { name: 'flite first sentence after the compile', value: roundTo(first.ms, 1), unit: 'ms' },
    {
      name: `flite one sentence (median of ${SENTENCES})`,
      value: roundTo(sentenceMs, 1),
      unit: 'ms',
    },
    { name: 'flite audio of that sentence', value: roundTo(audioSeconds, 2), unit: 's' },
    {
      name: 'flite speed (audio time / synthesis time)',
      value: roundTo((audioSeconds * 1000) / sentenceMs, 1),
      unit: 'x',
    },
    ...(await longTextRows()),
  ];
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runFliteBench()));
}
