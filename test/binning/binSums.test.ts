import { afterAll, describe, expect, it } from 'vitest';
import { addToBinSums, emptyBinSums, mergeBinSums, type BinSums } from '../../src/binning/binSums.js';
import { useKernels } from '../../src/kernels/rowStats.js';
import { createRng } from '../../src/random/rng.js';
import { Fsum } from '../helpers/fsum.js';

// addToBinSums hands whole typed columns of 0/1 outcomes to the class-column sums (float32 window sums, the float64
// kernel, the dense bank when weighted); other inputs take its counting sort. Both must keep every bin's exact count,
// Σw, Σw·s and Σw·o: checked against Python's fsum algorithm (an independent exact sum) entry by entry.

type Weights = 'none' | 'whole' | 'fractional' | 'huge' | 'tiny';

function data(seed: number, n: number, f32: boolean, weights: Weights) {
  const rng = createRng('test', seed);
  const pool = [0, 1, 0.5, 1 / 3, 2 ** -1074, 1e-300, 2 ** -30, 1 - 2 ** -53, 0.1, 0.1 + 2 ** -56];
  const raw = Array.from({ length: n }, () => {
    const u = rng.uniform();
    if (u < 0.3) return pool[Math.floor(rng.uniform() * pool.length)] as number; // ties and extremes
    if (u < 0.4) return 0.25 + (Math.floor(rng.uniform() * 5) - 2) * 2 ** -54; // near-ties
    return rng.uniform();
  });
  const scores = f32 ? Float32Array.from(raw) : Float64Array.from(raw);
  const outcomes = Float64Array.from(raw, () => (rng.uniform() < 0.6 ? 1 : 0));
  const w =
    weights === 'none'
      ? undefined
      : Float64Array.from(raw, () => {
          const u = rng.uniform();
          if (weights === 'whole') return Math.floor(u * 5);
          if (weights === 'fractional') return u * 3;
          if (weights === 'huge') return u < 0.5 ? 1e200 * u : u;
          return u < 0.5 ? 1e-300 * u : u;
        });
  return { scores, outcomes, weights: w };
}

function reference(
  numBins: number,
  index: Int32Array,
  scores: ArrayLike<number>,
  outcomes: Float64Array,
  w?: Float64Array,
) {
  const bins = Array.from({ length: numBins }, () => ({ count: 0, w: new Fsum(), s: new Fsum(), o: new Fsum() }));
  for (let i = 0; i < index.length; i++) {
    const b = bins[index[i] as number] as (typeof bins)[number];
    const wi = w === undefined ? 1 : (w[i] as number);
    b.count++;
    b.w.add(wi);
    b.s.add(wi * (scores[i] as number));
    b.o.add(wi * (outcomes[i] as number));
  }
  return bins.map((b) => [b.count, b.w.value(), b.s.value(), b.o.value()]);
}

const read = (s: BinSums) =>
  Array.from(s.count, (c, b) => [c, s.weight.value(b), s.score.value(b), s.outcome.value(b)]);

afterAll(() => void useKernels('wasm'));

describe('addToBinSums', () => {
  let seed = 1;
  for (const backend of ['wasm', 'reference'] as const)
    for (const f32 of [true, false])
      for (const weights of ['none', 'whole', 'fractional', 'huge', 'tiny'] as const)
        it(`${backend}, ${f32 ? 'float32' : 'float64'} scores, weights ${weights}: exact per bin`, () => {
          useKernels(backend);
          // 65 bins: past BIN_SUMS_MAX, so typed columns too take the counting sort
          for (const [n, numBins] of [
            [1, 1],
            [40, 3],
            [3000, 15],
            [3000, 65],
          ] as const) {
            const { scores, outcomes, weights: w } = data(seed++, n, f32, weights);
            const rng = createRng('test', seed++);
            const index = Int32Array.from(scores, () => Math.floor(rng.uniform() * numBins));
            const fast = emptyBinSums(numBins);
            addToBinSums(fast, index, scores, outcomes, w);
            const want = reference(numBins, index, scores, outcomes, w);
            expect(read(fast)).toEqual(want);
            // plain arrays take the counting sort: the same bits
            const slow = emptyBinSums(numBins);
            addToBinSums(slow, Array.from(index), Array.from(scores), Array.from(outcomes), w && Array.from(w));
            expect(read(slow)).toEqual(want);
          }
        });

  it('outcomes other than 0 and 1 keep their exact sums (the counting sort)', () => {
    const { scores, weights } = data(99, 500, false, 'fractional');
    const rng = createRng('test', 100);
    const outcomes = Float64Array.from(scores, () => (rng.uniform() < 0.1 ? 0.37 : rng.uniform() < 0.5 ? 1 : 0));
    const index = Int32Array.from(scores, () => Math.floor(rng.uniform() * 10));
    const sums = emptyBinSums(10);
    addToBinSums(sums, index, scores, outcomes, weights);
    expect(read(sums)).toEqual(reference(10, index, scores, outcomes, weights));
  });
});

describe('BinExactSums', () => {
  it("makes a bin's sum only when something is added to it; split, merged and read, the same exact sums", () => {
    // the count bound allows 2^20 bins: an object per bin, made up front, was most of ECE's time with that many (GC)
    const numBins = 512;
    for (let seed = 1; seed <= 4; seed++) {
      const { scores, outcomes, weights } = data(seed + 200, 300, false, seed % 2 === 0 ? 'fractional' : 'none');
      const rng = createRng('test', seed + 300);
      // half the entries in three bins (ties), the others spread thinly
      const index = Int32Array.from(scores, () => Math.floor(rng.uniform() * (rng.uniform() < 0.5 ? 3 : numBins)));
      const half = 150;
      const a = emptyBinSums(numBins);
      const b = emptyBinSums(numBins);
      const part = (from: number, to?: number) =>
        [
          index.subarray(from, to),
          scores.subarray(from, to),
          outcomes.subarray(from, to),
          weights?.subarray(from, to),
        ] as const;
      addToBinSums(a, ...part(0, half));
      addToBinSums(b, ...part(half));
      mergeBinSums(a, b);
      expect(read(a), `seed ${seed}`).toEqual(reference(numBins, index, scores, outcomes, weights));
      // the bins nothing was added to read one shared empty sum (no object was made for them); the others their own
      const used = new Set(index);
      const untouched = Array.from({ length: numBins }, (_, k) => k).filter((k) => !used.has(k));
      const empty = a.weight.read(untouched[0] as number);
      for (const k of untouched) for (const sums of [a.weight, a.score, a.outcome]) expect(sums.read(k)).toBe(empty);
      for (const k of used) expect(a.weight.read(k)).not.toBe(empty);
    }
  });
});
