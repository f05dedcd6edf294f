// Writes a whisper.cpp ggml model file of random weights: what the tests and the bench load
// through the real addon instead of downloading a model. Random weights transcribe gibberish,
// at the speed of a real model of the same shape (speed does not depend on the weights' values).
//   npx tsx infra/tools/write-whisper-model.ts <file> [test|tiny.en|base.en]
import { open } from 'node:fs/promises';
import { argv, exit } from 'node:process';
import { pathToFileURL } from 'node:url';
import { randomSource } from './seeded-random';

/** The hyperparameters of a whisper.cpp model file, in the order its header holds them. */
export interface WhisperShape {
  readonly vocabulary: number;
  readonly audioContext: number;
  readonly audioState: number;
  readonly audioHeads: number;
  readonly audioLayers: number;
  readonly textContext: number;
  readonly textState: number;
  readonly textHeads: number;
  readonly textLayers: number;
  readonly mels: number;
  /** How the weight matrices are stored: half floats, or ggml's 5-bit Q5_1 blocks. */
  readonly weights: 'f16' | 'q5_1';
}

/**
 * `tiny.en` and `base.en` as OpenAI published them, in half floats or quantized to Q5_1 as
 * whisper.cpp publishes the pinned ones (`ggml-base.en-q5_1.bin`); `test` is the smallest file
 * whisper.cpp loads and runs (6.8 MB, most of it the token embedding: the English vocabulary's
 * size is fixed, because whisper.cpp places its special tokens at fixed ids).
 */
export const WHISPER_SHAPES = {
  test: shape({ state: 64, heads: 2, layers: 1 }, 'f16'),
  'tiny.en': shape({ state: 384, heads: 6, layers: 4 }, 'f16'),
  'tiny.en-q5_1': shape({ state: 384, heads: 6, layers: 4 }, 'q5_1'),
  'base.en': shape({ state: 512, heads: 8, layers: 6 }, 'f16'),
  'base.en-q5_1': shape({ state: 512, heads: 8, layers: 6 }, 'q5_1'),
} as const satisfies Record<string, WhisperShape>;
export type WhisperShapeName = keyof typeof WHISPER_SHAPES;

function shape(
  size: { state: number; heads: number; layers: number },
  weights: WhisperShape['weights'],
): WhisperShape {
  return {
    vocabulary: 51_864,
    audioContext: 1_500,
    audioState: size.state,
    audioHeads: size.heads,
    audioLayers: size.layers,
    textContext: 448,
    textState: size.state,
    textHeads: size.heads,
    textLayers: size.layers,
    mels: 80,
    weights,
  };
}

const GGML_MAGIC = 0x67_67_6d_6c;
/** ggml's file types, with its quantization version (2) in the thousands as whisper.cpp writes it. */
const FTYPES = { f16: 1, q5_1: 2_009 } as const;
const F32 = 0;
const F16 = 1;
const Q5_1 = 7;
/** Q5_1: blocks of 32 weights, each a half-float scale and minimum, 32 high bits, 16 nibble bytes. */
const Q5_1_BLOCK = { weights: 32, bytes: 24 } as const;
/** Whisper's STFT: 400-sample frames, so 201 frequency bins. */
const FFT_BINS = 201;
/** Token ids below this are text; whisper.cpp's English special tokens start here. */
const TEXT_TOKENS = 50_256;

interface Tensor {
  readonly name: string;
  /** ggml's order: the fastest-varying dimension first. */
  readonly dims: readonly number[];
  /** F16 stands for the model's weight type (Q5_1 in a quantized model) where `weight` is set. */
  readonly type: typeof F32 | typeof F16;
  /** A weight matrix: stored in the model's weight type. */
  readonly weight?: boolean;
  readonly fill: 'random' | 'ones' | 'zeros';
}

/** Every tensor whisper.cpp's loader expects, in its shapes and types (f16 weights, f32 rest). */
function tensorsOf(model: WhisperShape): Tensor[] {
  const tensors: Tensor[] = [];
  const add = (name: string, dims: number[], type: Tensor['type'], fill: Tensor['fill']) =>
    tensors.push({ name, dims, type, fill });
  const weight = (name: string, dims: number[]) =>
    tensors.push({ name, dims, type: F16, fill: 'random', weight: true });
  const norm = (name: string, width: number) => {
    add(`${name}.weight`, [width], F32, 'ones');
    add(`${name}.bias`, [width], F32, 'zeros');
  };
  const matrix = (name: string, width: number, bias: boolean) => {
    weight(`${name}.weight`, [width, width]);
    if (bias) add(`${name}.bias`, [width], F32, 'random');
  };
  const block = (prefix: string, width: number, attentions: readonly string[]) => {
    norm(`${prefix}.mlp_ln`, width);
    weight(`${prefix}.mlp.0.weight`, [width, 4 * width]);
    add(`${prefix}.mlp.0.bias`, [4 * width], F32, 'random');
    weight(`${prefix}.mlp.2.weight`, [4 * width, width]);
    add(`${prefix}.mlp.2.bias`, [width], F32, 'random');
    for (const attention of attentions) {
      norm(`${prefix}.${attention}_ln`, width);
      matrix(`${prefix}.${attention}.query`, width, true);
      matrix(`${prefix}.${attention}.key`, width, false);
      matrix(`${prefix}.${attention}.value`, width, true);
      matrix(`${prefix}.${attention}.out`, width, true);
    }
  };
  const audio = model.audioState;
  add('encoder.positional_embedding', [audio, model.audioContext], F32, 'random');
  add('encoder.conv1.weight', [3, model.mels, audio], F16, 'random');
  add('encoder.conv1.bias', [1, audio], F32, 'random');
  add('encoder.conv2.weight', [3, audio, audio], F16, 'random');
  add('encoder.conv2.bias', [1, audio], F32, 'random');
  norm('encoder.ln_post', audio);
  for (let layer = 0; layer < model.audioLayers; layer += 1) {
    block(`encoder.blocks.${layer}`, audio, ['attn']);
  }
  const text = model.textState;
  add('decoder.positional_embedding', [text, model.textContext], F32, 'random');
  weight('decoder.token_embedding.weight', [text, model.vocabulary]);
  norm('decoder.ln', text);
  for (let layer = 0; layer < model.textLayers; layer += 1) {
    block(`decoder.blocks.${layer}`, text, ['attn', 'cross_attn']);
  }
  return tensors;
}

/** IEEE half precision bits of `value` (normal range only: the weights are small). */
function halfBits(value: number): number {
  const floats = new Float32Array([value]);
  const bits = new Uint32Array(floats.buffer)[0] ?? 0;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7c00;
  return sign | (exponent << 10) | ((bits >>> 13) & 0x3ff);
}

/**
 * Readable gibberish: letters, then syllables, some with the leading space of a word. Id 220 is
 * the lone space, as in the real vocabulary: whisper.cpp looks that token up by its text.
 */
function tokenText(id: number): string {
  if (id === 220) return ' ';
  if (id < 26) return String.fromCharCode(97 + id);
  const consonants = 'bcdfghjklmnprstvwz';
  const vowels = 'aeiou';
  const syllable = (n: number) =>
    `${consonants[n % consonants.length]}${vowels[Math.floor(n / consonants.length) % vowels.length]}`;
  const word = `${syllable(id)}${syllable(Math.floor(id / 90))}`;
  return id % 3 === 0 ? ` ${word}` : word;
}

/** The header, mel filters and vocabulary that come before the tensors. */
function preamble(model: WhisperShape, random: () => number): Buffer {
  const header = Buffer.alloc(4 * 12);
  const fields = [
    GGML_MAGIC,
    model.vocabulary,
    model.audioContext,
    model.audioState,
    model.audioHeads,
    model.audioLayers,
    model.textContext,
    model.textState,
    model.textHeads,
    model.textLayers,
    model.mels,
    FTYPES[model.weights],
  ];
  fields.forEach((value, index) => {
    header.writeInt32LE(value, index * 4);
  });
  const filters = Buffer.alloc(8 + model.mels * FFT_BINS * 4);
  filters.writeInt32LE(model.mels, 0);
  filters.writeInt32LE(FFT_BINS, 4);
  for (let index = 0; index < model.mels * FFT_BINS; index += 1) {
    filters.writeFloatLE(random() * 0.02, 8 + index * 4);
  }
  const words = Array.from({ length: TEXT_TOKENS }, (_, id) => Buffer.from(tokenText(id)));
  const vocabulary = Buffer.alloc(4 + words.reduce((sum, word) => sum + 4 + word.length, 0));
  vocabulary.writeInt32LE(TEXT_TOKENS, 0);
  let at = 4;
  for (const word of words) {
    vocabulary.writeUInt32LE(word.length, at);
    word.copy(vocabulary, at + 4);
    at += 4 + word.length;
  }
  return Buffer.concat([header, filters, vocabulary]);
}

function tensorBytes(
  tensor: Tensor,
  weights: WhisperShape['weights'],
  random: () => number,
  halves: Uint16Array,
): Buffer {
  const quantized = tensor.weight === true && weights === 'q5_1';
  const name = Buffer.from(tensor.name);
  const head = Buffer.alloc(12 + 4 * tensor.dims.length);
  head.writeInt32LE(tensor.dims.length, 0);
  head.writeInt32LE(name.length, 4);
  head.writeInt32LE(quantized ? Q5_1 : tensor.type, 8);
  tensor.dims.forEach((size, index) => {
    head.writeInt32LE(size, 12 + 4 * index);
  });
  const count = tensor.dims.reduce((product, size) => product * size, 1);
  if (quantized) return Buffer.concat([head, name, q5_1Blocks(count, random)]);
  const data = Buffer.alloc(count * (tensor.type === F16 ? 2 : 4));
  const constant = tensor.fill === 'ones' ? 1 : 0;
  for (let index = 0; index < count; index += 1) {
    if (tensor.type === F16) {
      const bits = tensor.fill === 'random' ? halves[Math.floor(random() * halves.length)] : 0;
      data.writeUInt16LE(bits ?? 0, index * 2);
    } else {
      const value = tensor.fill === 'random' ? (random() - 0.5) * 0.1 : constant;
      data.writeFloatLE(value, index * 4);
    }
  }
  return Buffer.concat([head, name, data]);
}

/** Random Q5_1 blocks whose weights fall within ±0.05, as the half-float ones do. */
function q5_1Blocks(count: number, random: () => number): Buffer {
  const blocks = count / Q5_1_BLOCK.weights;
  const data = Buffer.alloc(blocks * Q5_1_BLOCK.bytes);
  const scale = halfBits(0.1 / 31);
  const minimum = halfBits(-0.05);
  for (let block = 0; block < blocks; block += 1) {
    const at = block * Q5_1_BLOCK.bytes;
    data.writeUInt16LE(scale, at);
    data.writeUInt16LE(minimum, at + 2);
    for (let byte = 4; byte < Q5_1_BLOCK.bytes; byte += 1) {
      data[at + byte] = Math.floor(random() * 256);
    }
  }
  return data;
}

/** Writes a model of `shape` with random weights to `path`; returns its size in bytes. */
export async function writeRandomWhisperModel(
  path: string,
  shape: WhisperShape,
  seed = 1,
): Promise<number> {
  const random = randomSource(seed);
  // Weights drawn from a table of half-precision values (uniform, ±0.05) keep the writing fast.
  const halves = Uint16Array.from({ length: 4_096 }, () => halfBits((random() - 0.5) * 0.1));
  const file = await open(path, 'w');
  let bytes = 0;
  try {
    const parts = [preamble(shape, random)];
    for (const part of parts) bytes += (await file.write(part)).bytesWritten;
    for (const tensor of tensorsOf(shape)) {
      const bytesOfTensor = tensorBytes(tensor, shape.weights, random, halves);
      bytes += (await file.write(bytesOfTensor)).bytesWritten;
    }
  } finally {
    await file.close();
  }
  return bytes;
}

async function main(): Promise<void> {
  const [path, name = 'test'] = argv.slice(2);
  if (path === undefined || !Object.hasOwn(WHISPER_SHAPES, name)) {
    console.error(
      `usage: npx tsx infra/tools/write-whisper-model.ts <file> [${Object.keys(WHISPER_SHAPES).join('|')}]`,
    );
    exit(2);
  }
  const bytes = await writeRandomWhisperModel(path, WHISPER_SHAPES[name as WhisperShapeName]);
  console.log(`wrote ${path}: a random-weight whisper ${name} model, ${bytes} bytes`);
}

if (import.meta.url === pathToFileURL(argv[1] ?? '').href) await main();
