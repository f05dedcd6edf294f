/**
 * The process that hears for EmbeddedSpeechToText (recognizer-process.ts forks it):
 * 1. loads the model its first argument describes (a RecognizerModel as JSON: Moonshine on
 *    sherpa-onnx, or a whisper.cpp file), once, with the threads of its second, and says it is
 *    ready;
 * 2. for each recording it is sent: mixes it to mono, resamples it to 16 kHz, recognizes it,
 *    and answers with the text (null past its limit: a bounded message either way).
 * Its own process, so the deadline can end a recognition for real (neither addon can stop one
 * once it runs) and the server's event loop never waits on it.
 */
import { performance } from 'node:perf_hooks';
import {
  loadRecognizerEngine,
  type RecognizerEngine,
  type RecognizerModel,
} from './recognizer-engines';
import { recognizerInput } from './recognizer-input';
import type { RecognizerReply, RecognizerRequest } from './recognizer-process';
import { transcriptWithinLimit } from './transcript-limit';

const [modelArgument = '{}', threadsArgument = '1'] = process.argv.slice(2);

function send(reply: RecognizerReply): void {
  process.send?.(reply);
}

async function recognize(engine: RecognizerEngine, request: RecognizerRequest): Promise<void> {
  const resampleStart = performance.now();
  const samples = recognizerInput(request.recording);
  const resampleMs = performance.now() - resampleStart;
  const recognizeStart = performance.now();
  const text = await engine.recognize(samples);
  send({
    kind: 'recognized',
    id: request.id,
    text: transcriptWithinLimit(text, request.maxCharacters),
    samples: samples.length,
    resampleMs,
    recognizeMs: performance.now() - recognizeStart,
  });
}

async function main(): Promise<void> {
  // The server went away: nothing is left to hear for.
  process.on('disconnect', () => process.exit(0));
  const loadStart = performance.now();
  let engine: RecognizerEngine;
  try {
    engine = await loadRecognizerEngine(
      JSON.parse(modelArgument) as RecognizerModel,
      Number(threadsArgument),
    );
  } catch (error) {
    send({ kind: 'load_failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  // One recording at a time: the parent sends the next only after this one's answer.
  process.on('message', (request: RecognizerRequest) => {
    recognize(engine, request).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send({ kind: 'failed', id: request.id, message });
    });
  });
  send({ kind: 'ready', loadMs: performance.now() - loadStart });
}

await main();
