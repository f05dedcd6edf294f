// Writes a Moonshine model as sherpa-onnx loads it (preprocess.onnx, encode.int8.onnx,
// uncached_decode.int8.onnx, cached_decode.int8.onnx, tokens.txt) with random weights: what the
// tests and the bench load through the real addon instead of downloading a model. The graphs
// have Moonshine's inputs, outputs and cost: convolutions that take 16 kHz audio to one frame
// per 384 samples, pre-norm transformer layers with int8 weights (onnxruntime's dynamic
// quantization, as the published files), a decoder that keeps its attention cache in states.
// Random weights would say random tokens, so the decoder's logits carry a script: the words the
// model says, one per step, then the end token (or the last word again and again, to the
// decoder's length limit). Speed does not depend on the weights' values.
//   npx tsx infra/tools/write-moonshine-model.ts <folder> [test|tiny]
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { argv, exit } from 'node:process';
import { pathToFileURL } from 'node:url';
import {
  MOONSHINE_FILE_NAMES,
  type MoonshineModelFiles,
} from '../../shared/adapters/speech/recognizer-engines';
import { float, int, ints, OnnxGraph, OnnxType } from './onnx-graph';
import { randomSource } from './seeded-random';

/** The sizes of a Moonshine model. */
export interface MoonshineShape {
  /** Width of the encoder and decoder. */
  readonly width: number;
  readonly encoderLayers: number;
  readonly decoderLayers: number;
  /** Width of the feed-forward layers. */
  readonly feedForward: number;
  readonly vocabulary: number;
}

/**
 * `tiny` is Moonshine tiny (27M parameters: width 288, 6 + 6 layers, feed-forward 4x, 32,768
 * tokens), the published `sherpa-onnx-moonshine-tiny-en-int8`; `test` the smallest that keeps
 * every part (a few hundred kB).
 */
export const MOONSHINE_SHAPES = {
  test: { width: 16, encoderLayers: 1, decoderLayers: 1, feedForward: 32, vocabulary: 64 },
  tiny: { width: 288, encoderLayers: 6, decoderLayers: 6, feedForward: 1_152, vocabulary: 32_768 },
} as const satisfies Record<string, MoonshineShape>;
export type MoonshineShapeName = keyof typeof MOONSHINE_SHAPES;

/** What the model says whatever it hears: these words, then the end (or the last word on). */
export interface MoonshineScript {
  readonly words: readonly string[];
  readonly loops?: boolean;
}

/** The files of a Moonshine model, as sherpa-onnx's `moonshine` config and `tokens` name them. */
/** Moonshine's special tokens: 0 unknown, 1 the start, 2 the end; the script's words follow. */
const END_TOKEN = 2;
/** A script's token beats any logit random weights make. */
const SCRIPT_LOGIT = 1e4;
/** The preprocessor's convolutions: 127 samples by 64, then 7 by 3, then 3 by 2 (384 in all). */
const CONVOLUTIONS = [
  { kernel: 127, stride: 64 },
  { kernel: 7, stride: 3 },
  { kernel: 3, stride: 2 },
] as const;

/** Builds the layers every graph shares, with weights drawn from one random source. */
class Layers {
  constructor(
    readonly graph: OnnxGraph,
    readonly random: () => number,
  ) {}

  /** Weights uniform in ±1/√fanIn (a standard initialisation: activations stay near 1). */
  weights(count: number, fanIn: number): Float32Array {
    const bound = 1 / Math.sqrt(fanIn);
    const values = new Float32Array(count);
    for (let index = 0; index < count; index += 1) values[index] = (this.random() * 2 - 1) * bound;
    return values;
  }

  /** x · W, W int8, x quantized per call: the graph onnxruntime's quantize_dynamic writes. */
  linear(x: string, inputs: number, outputs: number): string {
    const g = this.graph;
    const weights = new Int8Array(inputs * outputs);
    for (let index = 0; index < weights.length; index += 1) {
      weights[index] = Math.floor(this.random() * 255) - 127;
    }
    const weightScale = 1 / (127 * Math.sqrt(inputs));
    const [quantized = '', scale = '', zeroPoint = ''] = g.ops('DynamicQuantizeLinear', [x], 3);
    const product = g.op('MatMulInteger', [
      quantized,
      g.int8s([inputs, outputs], weights),
      zeroPoint,
    ]);
    const scaled = g.op('Mul', [g.op('Cast', [product], { to: int(OnnxType.float) }), scale]);
    return g.op('Mul', [scaled, g.floats([], Float32Array.of(weightScale))]);
  }

  norm(x: string, width: number): string {
    return this.graph.op(
      'LayerNormalization',
      [x, this.graph.floats([width], new Float32Array(width).fill(1))],
      { axis: int(-1), epsilon: float(1e-5) },
    );
  }

  /** softmax(q·kᵀ/√width)·v; one head holds the work of Moonshine's eight. */
  attention(query: string, key: string, value: string, width: number): string {
    const g = this.graph;
    const scores = g.op('MatMul', [query, g.op('Transpose', [key], { perm: ints([0, 2, 1]) })]);
    const scaled = g.op('Mul', [scores, g.floats([], Float32Array.of(1 / Math.sqrt(width)))]);
    return g.op('MatMul', [g.op('Softmax', [scaled], { axis: int(-1) }), value]);
  }

  /** The encoder's feed-forward layer; the decoder's is gated (twice the first projection). */
  feedForward(x: string, shape: MoonshineShape, gated: boolean): string {
    const h = this.norm(x, shape.width);
    let hidden = this.graph.op('Relu', [this.linear(h, shape.width, shape.feedForward)]);
    if (gated) {
      hidden = this.graph.op('Mul', [hidden, this.linear(h, shape.width, shape.feedForward)]);
    }
    return this.linear(hidden, shape.feedForward, shape.width);
  }
}

function preprocessor(shape: MoonshineShape, random: () => number): Uint8Array {
  const g = new OnnxGraph();
  const layers = new Layers(g, random);
  const audio = g.input('audio', OnnxType.float, [1, 'samples']);
  let x = g.op('Unsqueeze', [audio, g.int64s([1], [1])]);
  const channels = [1, shape.width, 2 * shape.width, shape.width];
  CONVOLUTIONS.forEach(({ kernel, stride }, index) => {
    const [inputs = 1, outputs = 1] = [channels[index], channels[index + 1]];
    const weights = g.floats(
      [outputs, inputs, kernel],
      layers.weights(outputs * inputs * kernel, inputs * kernel),
    );
    x = g.op('Conv', [x, weights], { kernel_shape: ints([kernel]), strides: ints([stride]) });
    x = g.op(index === 0 ? 'Tanh' : 'Relu', [x]);
  });
  const features = g.op('Transpose', [x], { perm: ints([0, 2, 1]) });
  g.output('features', features, OnnxType.float, [1, 'frames', shape.width]);
  return g.encode();
}

function encoder(shape: MoonshineShape, random: () => number): Uint8Array {
  const g = new OnnxGraph();
  const layers = new Layers(g, random);
  let x = g.input('features', OnnxType.float, [1, 'frames', shape.width]);
  g.input('features_len', OnnxType.int32, [1]);
  for (let layer = 0; layer < shape.encoderLayers; layer += 1) {
    const h = layers.norm(x, shape.width);
    const [q = '', k = '', v = ''] = [0, 1, 2].map(() =>
      layers.linear(h, shape.width, shape.width),
    );
    const attended = layers.linear(
      layers.attention(q, k, v, shape.width),
      shape.width,
      shape.width,
    );
    x = g.op('Add', [x, attended]);
    x = g.op('Add', [x, layers.feedForward(x, shape, false)]);
  }
  g.output('encoder_out', layers.norm(x, shape.width), OnnxType.float, [1, 'frames', shape.width]);
  return g.encode();
}

/** The token ids of the script's words (each word one token, `▁word` in tokens.txt). */
function scriptTokens(script: MoonshineScript): { ids: number[]; table: string[] } {
  const table = ['<unk>', '<s>', '</s>'];
  const ids = script.words.map((word) => {
    const token = `▁${word}`;
    const known = table.indexOf(token);
    if (known >= 0) return known;
    table.push(token);
    return table.length - 1;
  });
  return { ids, table };
}

/**
 * The decoder, uncached (the first step: the start token, cross-attention keys and values made
 * from the encoder's output) or cached (each later step: the states the step before returned).
 * States, per layer: self-attention keys and values so far, cross-attention keys and values.
 */
function decoder(
  shape: MoonshineShape,
  script: MoonshineScript,
  cached: boolean,
  random: () => number,
): Uint8Array {
  const g = new OnnxGraph();
  const layers = new Layers(g, random);
  const { width, vocabulary } = shape;
  const tokens = g.input('tokens', OnnxType.int32, [1, 1]);
  const encoderOut = g.input('encoder_out', OnnxType.float, [1, 'frames', width]);
  const seqLen = g.input('seq_len', OnnxType.int32, [1]);
  const stateShape = (length: string) => [1, length, width];
  /** One layer's states: its inputs (cached) or the names of the values it returns. */
  const layerStates = (layer: number) => [
    { name: `self_k_${layer}`, length: 'past' },
    { name: `self_v_${layer}`, length: 'past' },
    { name: `cross_k_${layer}`, length: 'frames' },
    { name: `cross_v_${layer}`, length: 'frames' },
  ];
  const embedding = g.floats([vocabulary, width], layers.weights(vocabulary * width, 1));
  let x = g.op('Gather', [embedding, tokens]);
  const returned: { name: string; length: string; value: string }[] = [];
  for (let layer = 0; layer < shape.decoderLayers; layer += 1) {
    const states = layerStates(layer);
    const past = cached
      ? states.map((state) => g.input(`in_${state.name}`, OnnxType.float, stateShape(state.length)))
      : [];
    const h = layers.norm(x, width);
    const [q = '', k = '', v = ''] = [0, 1, 2].map(() => layers.linear(h, width, width));
    const selfK = cached ? g.op('Concat', [past[0] ?? '', k], { axis: int(1) }) : k;
    const selfV = cached ? g.op('Concat', [past[1] ?? '', v], { axis: int(1) }) : v;
    x = g.op('Add', [x, layers.linear(layers.attention(q, selfK, selfV, width), width, width)]);
    const crossQ = layers.linear(layers.norm(x, width), width, width);
    const crossK = cached ? (past[2] ?? '') : layers.linear(encoderOut, width, width);
    const crossV = cached ? (past[3] ?? '') : layers.linear(encoderOut, width, width);
    const crossed = layers.attention(crossQ, crossK, crossV, width);
    x = g.op('Add', [x, layers.linear(crossed, width, width)]);
    x = g.op('Add', [x, layers.feedForward(x, shape, true)]);
    [selfK, selfV, crossK, crossV].forEach((value, index) => {
      const state = states[index];
      if (state !== undefined) returned.push({ ...state, value });
    });
  }
  const logits = layers.linear(layers.norm(x, width), width, vocabulary);
  const scripted = g.op('Add', [logits, scriptBias(g, shape, script, seqLen)]);
  g.output('logits', scripted, OnnxType.float, [1, 1, vocabulary]);
  for (const state of returned) {
    g.output(`out_${state.name}`, state.value, OnnxType.float, stateShape(state.length));
  }
  return g.encode();
}

/**
 * The script's logits for this step: row `seq_len - 1` of a table holding one token per step,
 * then the end token (or, for a looping script, the last word's row again).
 */
function scriptBias(
  g: OnnxGraph,
  shape: MoonshineShape,
  script: MoonshineScript,
  seqLen: string,
): string {
  const { ids } = scriptTokens(script);
  const steps = script.loops === true ? ids : [...ids, END_TOKEN];
  const table = new Float32Array(steps.length * shape.vocabulary);
  steps.forEach((token, step) => {
    table[step * shape.vocabulary + token] = SCRIPT_LOGIT;
  });
  const step = g.op('Min', [
    g.op('Sub', [g.op('Cast', [seqLen], { to: int(OnnxType.int64) }), g.int64s([], [1])]),
    g.int64s([], [steps.length - 1]),
  ]);
  const row = g.op('Gather', [g.floats([steps.length, shape.vocabulary], table), step]);
  return g.op('Unsqueeze', [row, g.int64s([1], [0])]);
}

/**
 * Writes a Moonshine model of `shape` that says `script` into `folder` (made if missing);
 * returns its files' paths and their size in bytes.
 */
export async function writeMoonshineModel(
  folder: string,
  shape: MoonshineShape,
  script: MoonshineScript,
  seed = 1,
): Promise<{ files: MoonshineModelFiles; bytes: number }> {
  const { table } = scriptTokens(script);
  if (table.length > shape.vocabulary) {
    throw new RangeError(`a script of ${table.length} tokens needs a larger vocabulary`);
  }
  const random = randomSource(seed);
  const contents: Record<keyof MoonshineModelFiles, Uint8Array | string> = {
    preprocessor: preprocessor(shape, random),
    encoder: encoder(shape, random),
    uncachedDecoder: decoder(shape, script, false, random),
    cachedDecoder: decoder(shape, script, true, random),
    tokens: table.map((token, id) => `${token} ${id}\n`).join(''),
  };
  await mkdir(folder, { recursive: true });
  const files = { ...MOONSHINE_FILE_NAMES };
  let bytes = 0;
  for (const key of Object.keys(contents) as (keyof MoonshineModelFiles)[]) {
    files[key] = join(folder, MOONSHINE_FILE_NAMES[key]);
    await writeFile(files[key], contents[key]);
    bytes += Buffer.byteLength(contents[key]);
  }
  return { files, bytes };
}

/** Spoken command words, for a script of `count` words. */
export function commandWords(count: number): string[] {
  const phrase = ['turn', 'on', 'the', 'kitchen', 'lights', 'and', 'set', 'a', 'timer', 'for'];
  return Array.from({ length: count }, (_, index) => phrase[index % phrase.length] ?? 'the');
}

async function main(): Promise<void> {
  const [folder, name = 'test'] = argv.slice(2);
  if (folder === undefined || !Object.hasOwn(MOONSHINE_SHAPES, name)) {
    console.error(
      `usage: npx tsx infra/tools/write-moonshine-model.ts <folder> [${Object.keys(MOONSHINE_SHAPES).join('|')}]`,
    );
    exit(2);
  }
  const { bytes } = await writeMoonshineModel(
    folder,
    MOONSHINE_SHAPES[name as MoonshineShapeName],
    { words: commandWords(5) },
  );
  console.log(`wrote ${folder}: a random-weight Moonshine ${name} model, ${bytes} bytes`);
}

if (import.meta.url === pathToFileURL(argv[1] ?? '').href) await main();
