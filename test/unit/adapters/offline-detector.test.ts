import { detector, withTypedArrays } from '../../../src/adapters/offline/engines';

/**
 * The direct line detector (engines.ts): the input tensor and the thresholded map it hands to the OCR
 * package's line splitting, as the package's Detection.run makes them (the real paths are compared
 * page by page by scripts/bench/extraction/recognition-check.ts).
 */
class FakeImage {
  constructor(readonly raw: { data: Uint8Array; width: number; height: number }) {}
  get data() { return this.raw.data; }
  get width() { return this.raw.width; }
  get height() { return this.raw.height; }
  static resized: { width: number; height: number }[] = [];
  static async open(): Promise<FakeImage> {
    return new FakeImage({ data: new Uint8Array(50 * 20 * 4), width: 50, height: 20 });
  }
  async resize(size: { width: number; height: number }): Promise<FakeImage> {
    FakeImage.resized.push(size);
    // Pixel i: R = i % 256, G = 1, B = 2 (RGBA).
    const data = new Uint8Array(size.width * size.height * 4);
    for (let i = 0; i < size.width * size.height; i++) data.set([i % 256, 1, 2, 255], 4 * i);
    return new FakeImage({ data, width: size.width, height: size.height });
  }
}

describe('line detection without per-pixel arrays', () => {
  it('letterboxes to multiples of 32, feeds B, G, R planes of value / 255, and thresholds the map at 0.03', async () => {
    const fed: { data: Float32Array; dims: number[] }[] = [];
    const ort = { Tensor: class { constructor(readonly type: string, readonly data: Float32Array, readonly dims: number[]) { fed.push({ data, dims }); } } } as never;
    const session = {
      inputNames: ['x'],
      outputNames: ['y'],
      run: async () => ({ y: { data: Float32Array.from([0.01, 0.03, 0.031, 0.9]), dims: [1, 1, 2, 2] } }),
    };
    let given: { map: FakeImage; image: FakeImage } | undefined;
    const detect = detector(ort, session, FakeImage as never, async (map, image) => {
      given = { map: map as unknown as FakeImage, image: image as unknown as FakeImage };
      return [];
    });
    await detect(Buffer.from(''));
    expect(FakeImage.resized).toEqual([{ width: 64, height: 32 }]);
    const [input] = fed;
    expect(input?.dims).toEqual([1, 3, 32, 64]);
    const n = 64 * 32;
    expect(input?.data[0]).toBeCloseTo(2 / 255, 7);
    expect(input?.data[n]).toBeCloseTo(1 / 255, 7);
    expect(input?.data[2 * n + 7]).toBeCloseTo(7 / 255, 7);
    expect([...(given?.map.data ?? [])]).toEqual([0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255]);
    expect([given?.map.width, given?.map.height]).toEqual([2, 2]);
    expect(given?.image.width).toBe(64);
  });
});

describe("the package's line recognition with typed arrays", () => {
  it('decodes a batch as the package does (last line first), greedy CTC without blanks and repeats', () => {
    const recognition: Record<string, unknown> = {};
    withTypedArrays(recognition, ['A', 'B']);
    const decode = recognition.decodeText as (o: { data: Float32Array; dims: number[] }) => { text: string; mean: number }[];
    // Two lines of four steps over classes blank, A, B. First: A A blank B -> "AB"; second: B blank B A -> "BBA".
    const first = [0.1, 0.8, 0.1, 0.2, 0.7, 0.1, 0.9, 0.05, 0.05, 0.1, 0.3, 0.6];
    const second = [0.1, 0.2, 0.7, 0.9, 0.05, 0.05, 0.2, 0.1, 0.7, 0.3, 0.6, 0.1];
    const lines = decode({ data: Float32Array.from([...first, ...second]), dims: [2, 4, 3] });
    expect(lines.map((l) => l.text)).toEqual(['BBA', 'AB']);
    expect(lines[1]?.mean).toBeCloseTo((Math.fround(0.8) + Math.fround(0.6)) / 2, 6);
    const input = (recognition.imageToInput as (i: { data: Uint8Array; width: number; height: number }) => { data: Float32Array })({ data: Uint8Array.from([10, 20, 30, 255, 40, 50, 60, 255]), width: 2, height: 1 });
    expect([...input.data].map((v) => Math.round(v * 255))).toEqual([30, 60, 20, 50, 10, 40]);
  });
});
