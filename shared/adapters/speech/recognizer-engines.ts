import { toPcm16 } from './recognizer-input';

/** The files of a Moonshine model as sherpa-onnx loads it (its `moonshine` config and `tokens`). */
export interface MoonshineModelFiles {
  readonly preprocessor: string;
  readonly encoder: string;
  readonly uncachedDecoder: string;
  readonly cachedDecoder: string;
  readonly tokens: string;
}

/** The files' names in a Moonshine model's folder, as sherpa-onnx publishes its int8 models. */
export const MOONSHINE_FILE_NAMES: MoonshineModelFiles = {
  preprocessor: 'preprocess.onnx',
  encoder: 'encode.int8.onnx',
  uncachedDecoder: 'uncached_decode.int8.onnx',
  cachedDecoder: 'cached_decode.int8.onnx',
  tokens: 'tokens.txt',
};

/**
 * What the recognizer process loads: Moonshine on sherpa-onnx (onnxruntime, which picks the
 * CPU's AVX2/AVX-512 code at run time; the default), or a whisper.cpp ggml file on
 * @fugood/whisper.node (no AVX code in its prebuilt addon).
 */
export type RecognizerModel =
  | { readonly engine: 'sherpa'; readonly moonshine: MoonshineModelFiles }
  | { readonly engine: 'whisper'; readonly path: string };

/** A loaded model that hears 16 kHz mono samples, one recording at a time. */
export interface RecognizerEngine {
  recognize(samples: Float32Array): Promise<string>;
}

/** Loads `model` with `threads` compute threads; rejects when the model does not load. */
export function loadRecognizerEngine(
  model: RecognizerModel,
  threads: number,
): Promise<RecognizerEngine> {
  return model.engine === 'sherpa'
    ? loadSherpaMoonshine(model.moonshine, threads)
    : loadWhisperCpp(model.path, threads);
}

async function loadSherpaMoonshine(
  files: MoonshineModelFiles,
  threads: number,
): Promise<RecognizerEngine> {
  // A CommonJS package: its exports are the default export (typed in sherpa-onnx-node.d.ts).
  const { OfflineRecognizer } = (await import('sherpa-onnx-node')).default;
  const { tokens, ...moonshine } = files;
  const recognizer = await OfflineRecognizer.createAsync({
    featConfig: { sampleRate: 16_000, featureDim: 80 },
    modelConfig: { moonshine, tokens, numThreads: threads, provider: 'cpu', debug: 0 },
    decodingMethod: 'greedy_search',
  });
  return {
    async recognize(samples) {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate: 16_000 });
      // Moonshine's tokens start with a space (`▁word`): the text does too.
      return (await recognizer.decodeAsync(stream)).text.trim();
    },
  };
}

interface WhisperContext {
  transcribeData(
    pcm16: ArrayBuffer,
    options: Record<string, unknown>,
  ): { promise: Promise<{ result: string }> };
}

async function loadWhisperCpp(path: string, threads: number): Promise<RecognizerEngine> {
  const { initWhisper } = (await import('@fugood/whisper.node')) as unknown as {
    initWhisper(options: { filePath: string; useGpu: boolean }): Promise<WhisperContext>;
  };
  const context = await initWhisper({ filePath: path, useGpu: false });
  return {
    async recognize(samples) {
      const pcm = toPcm16(samples);
      const { promise } = context.transcribeData(pcm.buffer as ArrayBuffer, {
        language: 'en',
        maxThreads: threads,
        // No fallback to higher temperatures (each would decode the window again) and no text of
        // a previous window as a prompt: one decoding per 30 s window, a model that loops stops
        // at the window's token limit.
        temperatureInc: 0,
        maxContext: 0,
      });
      return (await promise).result;
    },
  };
}
