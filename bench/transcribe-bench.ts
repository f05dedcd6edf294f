// Speech in through Amazon Transcribe streaming: how long a finished 3 s and 7 s recording (the
// node's 48 kHz mono) take through the adapter at the pace Transcribe's best practices ask (100 ms
// events at real time), against the scripted Transcribe on loopback, which answers as soon as the
// audio ends: AWS's own time to its final result comes on top. And the adapter's CPU for it
// (PCM, event signing, decoding; the scripted server runs in the same process, so its decoding is
// counted too: an upper bound). Printed, not asserted.
// `npx tsx bench/transcribe-bench.ts` or `npm run bench -- --only transcribe`.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { TRANSCRIBE_CHUNK_MS } from '../shared/adapters/speech/transcribe-audio';
import { TranscribeSpeechToText } from '../shared/adapters/speech/transcribe-speech-to-text';
import { startScriptedTranscribeServer } from '../test/support/scripted-transcribe-server';
import { TEST_AWS_CREDENTIALS } from '../test/support/sigv4-verifier';
import { nodeRecording } from '../test/support/speech-audio';
import type { BenchRow } from './bench-row';
import { percentile, roundTo } from './engine/percentile';
import { formatBenchTable } from './format-table';

const LENGTHS_SECONDS = [3, 7] as const;
const RUNS = 3;
const REGION = 'eu-west-1';

export async function runTranscribeBench(): Promise<BenchRow[]> {
  const server = await startScriptedTranscribeServer({
    region: REGION,
    service: 'transcribe',
    credentials: TEST_AWS_CREDENTIALS,
  });
  const adapter = new TranscribeSpeechToText({
    region: REGION,
    languageCode: 'en-US',
    maxCharacters: 2_000,
    endpoint: server.endpoint,
    credentials: TEST_AWS_CREDENTIALS,
  });
  const rows: BenchRow[] = [];
  try {
    for (const seconds of LENGTHS_SECONDS) {
      const recording = nodeRecording(seconds);
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        server.enqueue({
          kind: 'results',
          events: [[{ text: 'set a timer for ten minutes', partial: false }]],
        });
        const startedCpu = process.cpuUsage();
        const started = performance.now();
        const transcript = await adapter.transcribe(recording, { timeoutMs: 60_000 });
        wall.push(performance.now() - started);
        const used = process.cpuUsage(startedCpu);
        cpu.push((used.user + used.system) / 1_000);
        if (transcript.text === '') throw new Error('the scripted Transcribe sent no text');
      }
      const problems = server.requests.flatMap((request) => request.signatureProblem ?? []);
      if (problems.length > 0) throw new Error(`signatures refused: ${problems.join('; ')}`);
      server.reset();
      rows.push(
        {
          name: `Transcribe, ${seconds} s recording at real time: to the transcript (loopback, median of ${RUNS})`,
          value: roundTo(percentile(wall, 0.5), 0),
          unit: 'ms',
        },
        {
          // The last 100 ms event is due 100 ms before the audio's end.
          name: `Transcribe, ${seconds} s recording: after its last event was due (median)`,
          value: roundTo(percentile(wall, 0.5) - (seconds * 1_000 - TRANSCRIBE_CHUNK_MS), 0),
          unit: 'ms',
        },
        {
          name: `Transcribe, ${seconds} s recording: the adapter's CPU (median)`,
          value: roundTo(percentile(cpu, 0.5), 1),
          unit: 'ms',
        },
      );
    }
  } finally {
    await server.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatBenchTable(await runTranscribeBench()));
}
