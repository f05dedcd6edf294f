// An ONNX model written by hand: a graph builder and the protobuf encoding of onnx.proto's
// ModelProto (the fields onnxruntime reads), for the test and bench models of the embedded
// recognizer (write-moonshine-model.ts). No ONNX package needed, nothing downloaded.

/** onnx.proto's TensorProto.DataType values used here. */
export const OnnxType = { float: 1, uint8: 2, int8: 3, int32: 6, int64: 7 } as const;
type OnnxTypeCode = (typeof OnnxType)[keyof typeof OnnxType];

/** A dimension of a graph input or output: a size, or a name for a size known at run time. */
type Dimension = number | string;

interface Tensor {
  readonly name: string;
  readonly type: OnnxTypeCode;
  readonly dims: readonly number[];
  readonly raw: Uint8Array;
}

type Attribute =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'float'; readonly value: number };

interface Node {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes: Readonly<Record<string, Attribute>>;
}

interface ValueInfo {
  readonly name: string;
  readonly type: OnnxTypeCode;
  readonly shape: readonly Dimension[];
}

export const int = (value: number): Attribute => ({ kind: 'int', value });
export const ints = (value: readonly number[]): Attribute => ({ kind: 'ints', value });
export const float = (value: number): Attribute => ({ kind: 'float', value });

/** A graph built node by node; every value a node makes gets a fresh name. */
export class OnnxGraph {
  readonly #nodes: Node[] = [];
  readonly #initializers: Tensor[] = [];
  readonly #inputs: ValueInfo[] = [];
  readonly #outputs: ValueInfo[] = [];
  #next = 0;

  input(name: string, type: OnnxTypeCode, shape: readonly Dimension[]): string {
    this.#inputs.push({ name, type, shape });
    return name;
  }

  /** Names `value` as the graph output `name` (through an Identity node). */
  output(name: string, value: string, type: OnnxTypeCode, shape: readonly Dimension[]): void {
    this.#nodes.push({ op: 'Identity', inputs: [value], outputs: [name], attributes: {} });
    this.#outputs.push({ name, type, shape });
  }

  /** A constant tensor of 32-bit floats. */
  floats(dims: readonly number[], values: Float32Array): string {
    return this.#constant(OnnxType.float, dims, new Uint8Array(values.buffer));
  }

  int8s(dims: readonly number[], values: Int8Array): string {
    return this.#constant(OnnxType.int8, dims, new Uint8Array(values.buffer));
  }

  int64s(dims: readonly number[], values: readonly number[]): string {
    const bytes = new BigInt64Array(values.map((value) => BigInt(value)));
    return this.#constant(OnnxType.int64, dims, new Uint8Array(bytes.buffer));
  }

  /** One node with one output; returns the output's name. */
  op(op: string, inputs: readonly string[], attributes: Record<string, Attribute> = {}): string {
    return this.ops(op, inputs, 1, attributes)[0] as string;
  }

  /** One node with `outputs` outputs. */
  ops(
    op: string,
    inputs: readonly string[],
    outputs: number,
    attributes: Record<string, Attribute> = {},
  ): string[] {
    const names = Array.from({ length: outputs }, () => this.#name(op));
    this.#nodes.push({ op, inputs, outputs: names, attributes });
    return names;
  }

  /** The model file's bytes: opset 17, with `metadata` as the model's metadata properties. */
  encode(metadata: Readonly<Record<string, string>> = {}): Uint8Array {
    const graph = sub([
      ...this.#nodes.map((node) => [1, encodeNode(node)] as const),
      [2, text('jcc')],
      ...this.#initializers.map((tensor) => [5, encodeTensor(tensor)] as const),
      ...this.#inputs.map((value) => [11, encodeValueInfo(value)] as const),
      ...this.#outputs.map((value) => [12, encodeValueInfo(value)] as const),
    ]);
    const opset = sub([[2, varint(17)]]);
    const properties = Object.entries(metadata).map(
      ([key, value]) =>
        [
          14,
          sub([
            [1, text(key)],
            [2, text(value)],
          ]),
        ] as const,
    );
    return message([
      [1, varint(8)],
      [2, text('jcc-serverless')],
      [7, graph],
      [8, opset],
      ...properties,
    ]);
  }

  #constant(type: OnnxTypeCode, dims: readonly number[], raw: Uint8Array): string {
    const name = this.#name('const');
    this.#initializers.push({ name, type, dims, raw });
    return name;
  }

  #name(prefix: string): string {
    this.#next += 1;
    return `${prefix}_${this.#next}`;
  }
}

// Protobuf's wire format: a field is a key (number << 3 | wire type) and its value. Varints are
// wire type 0, 32-bit values 5, length-delimited bytes (strings, messages) 2.
type Field = readonly [number, Encoded];
interface Encoded {
  readonly wireType: 0 | 2 | 5;
  readonly bytes: Uint8Array;
}

function varintBytes(value: number | bigint): Uint8Array {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return Uint8Array.from(bytes);
}

const varint = (value: number): Encoded => ({ wireType: 0, bytes: varintBytes(value) });
const text = (value: string): Encoded => ({
  wireType: 2,
  bytes: new TextEncoder().encode(value),
});
const bytesField = (value: Uint8Array): Encoded => ({ wireType: 2, bytes: value });
const float32 = (value: number): Encoded => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return { wireType: 5, bytes };
};

function message(fields: readonly Field[]): Uint8Array {
  return nested(fields).bytes;
}

function nested(fields: readonly Field[]): Encoded {
  const parts: Uint8Array[] = [];
  for (const [number, value] of fields) {
    parts.push(varintBytes((number << 3) | value.wireType));
    if (value.wireType === 2) parts.push(varintBytes(value.bytes.length));
    parts.push(value.bytes);
  }
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { wireType: 2, bytes };
}

const sub = (fields: readonly Field[]): Encoded => nested(fields);

function encodeNode(node: Node): Encoded {
  return sub([
    ...node.inputs.map((input) => [1, text(input)] as const),
    ...node.outputs.map((output) => [2, text(output)] as const),
    [3, text(node.outputs[0] ?? node.op)],
    [4, text(node.op)],
    ...Object.entries(node.attributes).map(
      ([name, attribute]) => [5, encodeAttribute(name, attribute)] as const,
    ),
  ]);
}

/** AttributeProto: name 1, f 2, i 3, ints 8, type 20 (FLOAT 1, INT 2, INTS 7). */
function encodeAttribute(name: string, attribute: Attribute): Encoded {
  switch (attribute.kind) {
    case 'int':
      return sub([
        [1, text(name)],
        [3, varint(attribute.value)],
        [20, varint(2)],
      ]);
    case 'float':
      return sub([
        [1, text(name)],
        [2, float32(attribute.value)],
        [20, varint(1)],
      ]);
    case 'ints':
      return sub([
        [1, text(name)],
        ...attribute.value.map((value) => [8, varint(value)] as const),
        [20, varint(7)],
      ]);
  }
}

/** TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian, as ONNX stores it). */
function encodeTensor(tensor: Tensor): Encoded {
  return sub([
    ...tensor.dims.map((dim) => [1, varint(dim)] as const),
    [2, varint(tensor.type)],
    [8, text(tensor.name)],
    [9, bytesField(tensor.raw)],
  ]);
}

/** ValueInfoProto { name 1, type 2: TypeProto { tensor_type 1: { elem_type 1, shape 2 } } }. */
function encodeValueInfo(value: ValueInfo): Encoded {
  const dims = value.shape.map(
    (dim) => [1, sub([typeof dim === 'number' ? [1, varint(dim)] : [2, text(dim)]])] as const,
  );
  const tensorType = sub([
    [1, varint(value.type)],
    [2, sub(dims)],
  ]);
  return sub([
    [1, text(value.name)],
    [2, sub([[1, tensorType]])],
  ]);
}
