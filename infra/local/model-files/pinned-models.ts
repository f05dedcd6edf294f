import { type HubFile, hubReference } from './hub-file';

/** A pinned file: its digest and size are part of the code, so a changed upstream file fails. */
export interface PinnedModel extends HubFile {
  readonly sha256: string;
  readonly sizeBytes: number;
}

/**
 * The models `npm start` fetches when no other is named, pinned by SHA-256 and size as the hub
 * publishes them (their LFS pointers; sources in docs/decisions/2026-11-26-model-files.md).
 */
export const PINNED_MODELS = {
  /** Qwen3-1.7B in Q4_K_M (Apache-2.0): the best tool caller of the small models on a CPU. */
  language: {
    repo: 'unsloth/Qwen3-1.7B-GGUF',
    file: 'Qwen3-1.7B-Q4_K_M.gguf',
    sha256: 'b139949c5bd74937ad8ed8c8cf3d9ffb1e99c866c823204dc42c0d91fa181897',
    sizeBytes: 1_107_409_472,
  },
  /** Qwen3-0.6B in Q8_0 (Apache-2.0), from Qwen's own repository: for small machines. */
  languageSmall: {
    repo: 'Qwen/Qwen3-0.6B-GGUF',
    file: 'Qwen3-0.6B-Q8_0.gguf',
    sha256: '9465e63a22add5354d9bb4b99e90117043c7124007664907259bd16d043bb031',
    sizeBytes: 639_446_688,
  },
  /**
   * Whisper tiny.en in Q5_1 (MIT), whisper.cpp's ggml format: English speech in. The default:
   * the prebuilt addon has no AVX code, so base.en's encoder cost about 4x tiny.en's here
   * (docs/decisions/2026-11-26-embedded-speech-recognition.md).
   */
  speech: {
    repo: 'ggerganov/whisper.cpp',
    file: 'ggml-tiny.en-q5_1.bin',
    sha256: 'c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b',
    sizeBytes: 32_166_155,
  },
  /** Whisper base.en in Q5_1 (MIT): fewer mistakes, about 4x tiny.en's work. */
  speechBase: {
    repo: 'ggerganov/whisper.cpp',
    file: 'ggml-base.en-q5_1.bin',
    sha256: '4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f',
    sizeBytes: 59_721_011,
  },
} as const satisfies Record<string, PinnedModel>;

/**
 * Moonshine tiny, English (MIT, Useful Sensors), quantized to int8 as sherpa-onnx publishes it:
 * the five files of one folder, the default speech model of `npm start` (sherpa-onnx engine).
 * Digests and sizes as the hub publishes them (sources in
 * docs/decisions/2026-11-26-speech-recognizer-moonshine.md).
 */
const MOONSHINE_REPO = 'csukuangfj/sherpa-onnx-moonshine-tiny-en-int8';
export const PINNED_MOONSHINE: readonly PinnedModel[] = [
  {
    repo: MOONSHINE_REPO,
    file: 'preprocess.onnx',
    sha256: 'f33addce61a143460fe753b5ee5b7db255e5140b5b779c065b94f6c83ff0bf4e',
    sizeBytes: 6_800_738,
  },
  {
    repo: MOONSHINE_REPO,
    file: 'encode.int8.onnx',
    sha256: '8774dfba578de027ec6595c2c654a0836434489bc963a0db124a7f181f571acb',
    sizeBytes: 18_249_187,
  },
  {
    repo: MOONSHINE_REPO,
    file: 'uncached_decode.int8.onnx',
    sha256: '216737000dd5881a17aa043f6bbd286add33e4c3b0ae257153e2ec15438bdc41',
    sizeBytes: 53_216_096,
  },
  {
    repo: MOONSHINE_REPO,
    file: 'cached_decode.int8.onnx',
    sha256: '2aff28bba6a03d8dcf5c9feac45462629bae37317442299f28115ad09da773f6',
    sizeBytes: 45_264_830,
  },
  {
    repo: MOONSHINE_REPO,
    file: 'tokens.txt',
    sha256: '1165c2aeb9f72f457a83be2d459a09054f27490acd9b41bd43794dfd25e296ea',
    sizeBytes: 436_688,
  },
];

/**
 * The speech model STT_MODEL names when it is unset, by engine (STT_ENGINE), as the setting
 * would name it: Moonshine's folder (its files at the repository's root) for sherpa-onnx, the
 * pinned tiny.en for whisper.cpp.
 */
export const DEFAULT_SPEECH_MODELS = {
  sherpa: `hf:${MOONSHINE_REPO}`,
  whisper: hubReference(PINNED_MODELS.speech),
} as const;

const EVERY_PIN: readonly PinnedModel[] = [...Object.values(PINNED_MODELS), ...PINNED_MOONSHINE];

/**
 * The pin of the hub file `file` names (its repository and path), however it was named; undefined
 * for a file that is not pinned.
 */
export function pinOf(file: HubFile): PinnedModel | undefined {
  return EVERY_PIN.find((pinned) => pinned.repo === file.repo && pinned.file === file.file);
}
