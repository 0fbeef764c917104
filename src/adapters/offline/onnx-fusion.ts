import { onnx } from 'onnx-proto';

/** What fuseAffineActivations rewrote: each count is a group of nodes made one (or two). */
export interface Fusions {
  /** A scalar × and + after a Conv, taken into its weights and bias. */
  affineAfterConv: number;
  /** x · clip(x + 3, 0, 6) / 6 made x · HardSigmoid(x). */
  hardSwish: number;
  /** A scalar × and + before a 1×1 Conv without padding, taken into its weights and bias. */
  affineBeforeConv: number;
}

/**
 * PaddleOCR's exported graphs (paddle2onnx, PP-LCNetV3 backbone) spell every activation as separate
 * elementwise nodes: Conv → × scale → + bias (a learnable affine) → hard-swish written as
 * x · clip(x + 3, 0, 6) / 6 → × scale → + bias → the next Conv. onnxruntime's optimiser fuses none of
 * them, and they took 28 % of the recognition model's time on the 2-core bench machine. This rewrites
 * the same arithmetic with fewer nodes:
 * - a scalar × s + b after a Conv whose output nothing else reads goes into its weights (W·s) and
 *   bias (bias·s + b);
 * - x · clip(x + 3, 0, 6) / 6 becomes x · HardSigmoid(x) with alpha 1/6 and beta 1/2;
 * - a scalar × s + b before a 1×1 Conv without padding goes into its weights (W·s) and bias
 *   (bias + b·ΣW); before a padded Conv it stays, since the padding's zeros would no longer be zeros.
 * Only float32 constants read by one node are changed. Outputs stay equal to float rounding
 * (test/unit/onnx-fusion.test.ts compares both PP-OCRv4 models before and after).
 */
export function fuseAffineActivations(bytes: Uint8Array): { model: Uint8Array; fusions: Fusions } {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph;
  if (!graph) return { model: bytes, fusions: { affineAfterConv: 0, hardSwish: 0, affineBeforeConv: 0 } };
  const nodes = graph.node as onnx.NodeProto[];
  const constants = new Map<string, onnx.ITensorProto>();
  for (const node of nodes) {
    const value = node.opType === 'Constant' ? node.attribute?.find((a) => a.name === 'value')?.t : undefined;
    if (value && node.output?.[0]) constants.set(node.output[0], value);
  }
  for (const tensor of graph.initializer ?? []) if (tensor.name) constants.set(tensor.name, tensor);
  const readers = new Map<string, onnx.NodeProto[]>();
  for (const node of nodes) for (const input of node.input ?? []) readers.set(input, [...(readers.get(input) ?? []), node]);
  const outputs = new Set((graph.output ?? []).map((o) => o.name));
  /** The one node reading `name`, when exactly one does and it is not a graph output. */
  const onlyReader = (name: string | undefined, opType: string): onnx.NodeProto | undefined => {
    const list = name === undefined || outputs.has(name) ? [] : (readers.get(name) ?? []);
    return list.length === 1 && list[0]?.opType === opType ? list[0] : undefined;
  };
  /** A float32 constant's values, when `name` is one and only one node reads it (so it may change). */
  const owned = (name: string | undefined): { tensor: onnx.ITensorProto; values: Float32Array } | undefined => {
    const tensor = name === undefined ? undefined : constants.get(name);
    if (!tensor || tensor.dataType !== onnx.TensorProto.DataType.FLOAT || (readers.get(name as string) ?? []).length !== 1) return undefined;
    return { tensor, values: floats(tensor) };
  };
  const scalar = (name: string | undefined): number | undefined => {
    const tensor = name === undefined ? undefined : constants.get(name);
    if (!tensor || tensor.dataType !== onnx.TensorProto.DataType.FLOAT) return undefined;
    const values = floats(tensor);
    return values.length === 1 ? values[0] : undefined;
  };
  /** `node`'s other input than `name`, as a scalar constant. */
  const otherScalar = (node: onnx.NodeProto, name: string): number | undefined => {
    const inputs = node.input ?? [];
    return inputs.length === 2 ? scalar(inputs[0] === name ? inputs[1] : inputs[0]) : undefined;
  };
  /** A scalar × s then + b read from `name` (× s + b, s and b constants): the two nodes and values. */
  const affineFrom = (name: string | undefined) => {
    const mul = onlyReader(name, 'Mul');
    const s = mul && name !== undefined ? otherScalar(mul, name) : undefined;
    const add = mul ? onlyReader(mul.output?.[0], 'Add') : undefined;
    const b = add && mul ? otherScalar(add, mul.output?.[0] as string) : undefined;
    return mul && add && s !== undefined && b !== undefined ? { mul, add, s, b } : undefined;
  };
  const dropped = new Set<onnx.NodeProto>();
  const added: onnx.NodeProto[] = [];
  /** The Conv's bias, created (zeros) when it has none. */
  const biasOf = (conv: onnx.NodeProto, channels: number) => {
    const inputs = conv.input as string[];
    if (inputs[2]) return owned(inputs[2]);
    const name = `${conv.name || inputs[1]}_fused_bias`;
    const tensor = onnx.TensorProto.create({ name, dims: [channels], dataType: onnx.TensorProto.DataType.FLOAT });
    added.push(onnx.NodeProto.create({ opType: 'Constant', output: [name], attribute: [onnx.AttributeProto.create({ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: tensor })] }));
    inputs[2] = name;
    readers.set(name, [conv]);
    constants.set(name, tensor);
    return { tensor, values: new Float32Array(channels) };
  };
  const fusions: Fusions = { affineAfterConv: 0, hardSwish: 0, affineBeforeConv: 0 };

  for (const conv of nodes) {
    if (conv.opType !== 'Conv') continue;
    const affine = affineFrom(conv.output?.[0]);
    const weights = owned(conv.input?.[1]);
    if (!affine || !weights) continue;
    const channels = Number(weights.tensor.dims?.[0]);
    const bias = biasOf(conv, channels);
    if (!bias || bias.values.length !== channels) continue;
    setFloats(weights.tensor, weights.values.map((v) => v * affine.s));
    setFloats(bias.tensor, bias.values.map((v) => v * affine.s + affine.b));
    (conv.output as string[])[0] = affine.add.output?.[0] as string;
    dropped.add(affine.mul).add(affine.add);
    fusions.affineAfterConv++;
  }

  for (const add of nodes) {
    if (add.opType !== 'Add' || (add.input ?? []).length !== 2) continue;
    const [a, b] = add.input as [string, string];
    const x = scalar(b) === 3 ? a : scalar(a) === 3 ? b : undefined;
    const clip = onlyReader(add.output?.[0], 'Clip');
    if (x === undefined || !clip) continue;
    const attribute = (name: string) => clip.attribute?.find((t) => t.name === name)?.f;
    const low = attribute('min') ?? scalar(clip.input?.[1]);
    const high = attribute('max') ?? scalar(clip.input?.[2]);
    const mul = onlyReader(clip.output?.[0], 'Mul');
    const div = mul ? onlyReader(mul.output?.[0], 'Div') : undefined;
    if (low !== 0 || high !== 6 || !mul?.input?.includes(x) || !div || div.input?.[0] !== mul.output?.[0] || scalar(div.input?.[1]) !== 6) continue;
    add.opType = 'HardSigmoid';
    add.input = [x];
    add.attribute = [
      onnx.AttributeProto.create({ name: 'alpha', type: onnx.AttributeProto.AttributeType.FLOAT, f: 1 / 6 }),
      onnx.AttributeProto.create({ name: 'beta', type: onnx.AttributeProto.AttributeType.FLOAT, f: 0.5 }),
    ];
    mul.input = [x, add.output?.[0] as string];
    mul.output = [div.output?.[0] as string];
    dropped.add(clip).add(div);
    fusions.hardSwish++;
  }

  for (const mul of nodes) {
    if (mul.opType !== 'Mul' || dropped.has(mul) || (mul.input ?? []).length !== 2) continue;
    const x = (mul.input as string[]).find((i) => scalar(i) === undefined);
    const affine = x === undefined ? undefined : affineFrom(x);
    if (!affine || affine.mul !== mul) continue;
    const conv = onlyReader(affine.add.output?.[0], 'Conv');
    const weights = owned(conv?.input?.[1]);
    const dims = (weights?.tensor.dims ?? []).map(Number);
    const padded = conv?.attribute?.some((a) => (a.name === 'pads' && (a.ints ?? []).some((p) => Number(p) !== 0)) || (a.name === 'auto_pad' && a.s && a.s.length > 0 && new TextDecoder().decode(a.s) !== 'NOTSET' && new TextDecoder().decode(a.s) !== 'VALID'));
    if (!conv || conv.input?.[0] !== affine.add.output?.[0] || !weights || dims.length !== 4 || dims[2] !== 1 || dims[3] !== 1 || padded) continue;
    const [channels = 0, per = 0] = dims;
    const bias = biasOf(conv, channels);
    if (!bias || bias.values.length !== channels) continue;
    const w = weights.values;
    const b = bias.values.slice();
    for (let o = 0; o < channels; o++) {
      let sum = 0;
      for (let i = 0; i < per; i++) {
        sum += w[o * per + i] as number;
        w[o * per + i] = (w[o * per + i] as number) * affine.s;
      }
      b[o] = (b[o] as number) + affine.b * sum;
    }
    setFloats(weights.tensor, w);
    setFloats(bias.tensor, b);
    (conv.input as string[])[0] = x as string;
    dropped.add(affine.mul).add(affine.add);
    fusions.affineBeforeConv++;
  }

  const kept = [...added, ...nodes.filter((n) => !dropped.has(n))];
  const read = new Set([...kept.flatMap((n) => n.input ?? []), ...outputs]);
  graph.node = kept.filter((n) => n.opType !== 'Constant' || read.has(n.output?.[0] ?? ''));
  return { model: onnx.ModelProto.encode(model).finish(), fusions };
}

function floats(tensor: onnx.ITensorProto): Float32Array {
  const raw = tensor.rawData;
  if (raw && raw.length > 0) return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  return Float32Array.from(tensor.floatData ?? []);
}

function setFloats(tensor: onnx.ITensorProto, values: Float32Array): void {
  tensor.rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  tensor.floatData = [];
}
