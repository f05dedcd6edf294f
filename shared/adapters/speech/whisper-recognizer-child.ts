/**
 * The process that hears for EmbeddedWhisperSpeechToText (whisper-recognizer-process.ts forks it):
 * 1. loads the whisper.cpp model named by its first argument, once, and says it is ready;
 * 2. for each recording it is sent: mixes it to mono, resamples it to 16 kHz, recognizes it with
 *    the threads of its second argument, and answers with the text, capped.
 * Its own process, so the deadline can end a recognition for real (the addon cannot stop one
 * once whisper.cpp runs it) and the server's event loop never waits on it.
 */
import { performance } from 'node:perf_hooks';
import { recognizerInput, toPcm16 } from './recognizer-input';
import { capTranscript } from './transcript-cap';
import type { RecognizerReply, RecognizerRequest } from './whisper-recognizer-process';

interface WhisperContext {
  transcribeData(
    pcm16: ArrayBuffer,
    options: Record<string, unknown>,
  ): { promise: Promise<{ result: string }> };
}

const [modelPath = '', threadsArgument = '1'] = process.argv.slice(2);

function send(reply: RecognizerReply): void {
  process.send?.(reply);
}

async function loadModel(): Promise<WhisperContext> {
  const { initWhisper } = (await import('@fugood/whisper.node')) as unknown as {
    initWhisper(options: { filePath: string; useGpu: boolean }): Promise<WhisperContext>;
  };
  return initWhisper({ filePath: modelPath, useGpu: false });
}

async function recognize(context: WhisperContext, request: RecognizerRequest): Promise<void> {
  const resampleStart = performance.now();
  const samples = recognizerInput(request.recording);
  const pcm = toPcm16(samples);
  const resampleMs = performance.now() - resampleStart;
  const recognizeStart = performance.now();
  const { promise } = context.transcribeData(pcm.buffer as ArrayBuffer, {
    language: 'en',
    maxThreads: Number(threadsArgument),
    // No fallback to higher temperatures (each would decode the window again) and no text of a
    // previous window as a prompt: one decoding per 30 s window, a model that loops stops at the
    // window's token limit.
    temperatureInc: 0,
    maxContext: 0,
  });
  const { result } = await promise;
  send({
    kind: 'recognized',
    id: request.id,
    text: capTranscript(result, request.maxCharacters),
    samples: samples.length,
    resampleMs,
    recognizeMs: performance.now() - recognizeStart,
  });
}

async function main(): Promise<void> {
  // The server went away: nothing is left to hear for.
  process.on('disconnect', () => process.exit(0));
  const loadStart = performance.now();
  let context: WhisperContext;
  try {
    context = await loadModel();
  } catch (error) {
    send({ kind: 'load_failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  // One recording at a time: the parent sends the next only after this one's answer.
  process.on('message', (request: RecognizerRequest) => {
    recognize(context, request).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send({ kind: 'failed', id: request.id, message });
    });
  });
  send({ kind: 'ready', loadMs: performance.now() - loadStart });
}

await main();
