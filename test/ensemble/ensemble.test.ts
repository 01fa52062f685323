import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  averagePairwiseDiversity,
  cosineDistance,
  disagreement,
  doubleFault,
  ensembleNll,
  ensembleVariance,
  gibbsNll,
  knowledgeUncertainty,
  lpDistance,
  mcIntegrate,
  modelUncertainty,
  pairwiseKl,
  toEnsemble,
  varianceBound,
} from '../../src/index.js';
import { createRng } from '../../src/random/rng.js';
import { loadCase } from '../helpers/conformance.js';

/** Random ensemble [S][N][C] of softmax(N(0, 2) + member noise). */
function randomEnsemble(
  seed: number,
  s: number,
  n: number,
  c: number,
  noise = 1,
): { members: number[][][]; labels: number[] } {
  const rng = createRng('test', seed);
  const base = Array.from({ length: n }, () => Array.from({ length: c }, () => 2 * rng.normal()));
  const members = Array.from({ length: s }, () =>
    base.map((row) => {
      const z = row.map((v) => v + noise * rng.normal());
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((v) => v / sum);
    }),
  );
  return { members, labels: base.map(() => rng.integer(c)) };
}

describe('model uncertainty', () => {
  it('mutual information ≥ 0, total = expected data + mutual information', () => {
    for (const [seed, s, noise] of [
      [1, 5, 1],
      [2, 3, 0.01],
      [3, 10, 3],
    ] as const) {
      const { members } = randomEnsemble(seed, s, 200, 6, noise);
      const u = modelUncertainty(members);
      for (let i = 0; i < 200; i++) {
        expect(u.mutualInformation[i]).toBeGreaterThanOrEqual(0);
        expect((u.expectedData[i] as number) + (u.mutualInformation[i] as number)).toBeCloseTo(
          u.total[i] as number,
          13,
        );
      }
    }
  });
  it('mutual information is exactly 0 for identical members (the conformance case and random rows)', () => {
    const c = loadCase('ens_m5_n20_c2_identical');
    const members = Array.from({ length: 5 }, (_, s) => (c.member_probs as number[][][]).map((r) => r[s] as number[]));
    expect(Array.from(modelUncertainty(members).mutualInformation).every((v) => v === 0)).toBe(true);
    const { members: one } = randomEnsemble(4, 1, 50, 4);
    const copies = [one[0], one[0], one[0]] as number[][][];
    expect(Array.from(modelUncertainty(copies).mutualInformation).every((v) => v === 0)).toBe(true);
  });
  it('uncertainty_metrics model_uncertainty on its logits example (reference_values §12.2)', () => {
    const logits = [
      [
        [2, 0.5, -1],
        [1.5, 1, -0.5],
        [0, 2, 0],
      ],
      [
        [0.1, 0.2, 0.3],
        [0.3, 0.2, 0.1],
        [0.2, 0.2, 0.2],
      ],
    ]; // [N, k, C]
    const members = [0, 1, 2].map((s) => logits.map((r) => r[s] as number[]));
    const u = modelUncertainty(members, { input: 'logits' });
    [0.18119574668029137, 0.0022154511378880137].forEach((v, i) => expect(u.mutualInformation[i]).toBeCloseTo(v, 14));
    [0.9050654394999451, 1.0986110597964076].forEach((v, i) => expect(u.total[i]).toBeCloseTo(v, 14));
    [0.7238696928196537, 1.0963956086585196].forEach((v, i) => expect(u.expectedData[i]).toBeCloseTo(v, 14));
    expect(ensembleNll([0, 2], members, { input: 'logits' })).toBeCloseTo(0.9067210725160242, 14);
    expect(gibbsNll([0, 2], members, { input: 'logits' })).toBeCloseTo(1.0563851612746051, 14);
  });
  it('torch-uncertainty: two opposite near-one-hot members give ln 2; agreeing members 0', () => {
    expect(modelUncertainty([[[1e-8, 1 - 1e-8]], [[1 - 1e-8, 1e-8]]]).mutualInformation[0]).toBeCloseTo(Math.LN2, 5);
    expect(modelUncertainty([[[0.9, 0.1]], [[0.9, 0.1]]]).mutualInformation[0]).toBe(0);
  });
});

describe('ensemble NLL', () => {
  it('never exceeds the Gibbs NLL (Jensen)', () => {
    for (const seed of [5, 6, 7]) {
      const { members, labels } = randomEnsemble(seed, 4, 300, 5, 1.5);
      expect(ensembleNll(labels, members)).toBeLessThanOrEqual(gibbsNll(labels, members));
    }
  });
  it('equals the NLL of mcIntegrate, and stays exact from logits', () => {
    const { members, labels } = randomEnsemble(8, 3, 100, 4);
    const mean = mcIntegrate(members);
    const direct = labels.reduce((a, y, i) => a - Math.log(mean.data[i * 4 + y] as number), 0) / labels.length;
    expect(ensembleNll(labels, members)).toBeCloseTo(direct, 14);
    const logits = members.map((m) => m.map((r) => r.map(Math.log)));
    expect(ensembleNll(labels, logits, { input: 'logits' })).toBeCloseTo(direct, 13);
    const fromLogits = mcIntegrate(logits, { input: 'logits' });
    fromLogits.data.forEach((p, j) => expect(Math.log(p)).toBeCloseTo(fromLogits.logData?.[j] as number, 12));
  });
});

describe('diversity (uncertainty_metrics and torch-uncertainty values)', () => {
  const sm = (r: number[]) => {
    const e = r.map(Math.exp);
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / s);
  };
  const a = [sm([1, 2, 3]), sm([3, 2, 1])];
  const b = [sm([1, 3, 2]), sm([3, 1, 2])];
  it('KL per example [0.4205124847200242, 0.15469789788441718], cosine similarity 0.8033836849678968, disagreement 0.5', () => {
    expect(pairwiseKl([a, b])).toBeCloseTo((0.4205124847200242 + 0.15469789788441718) / 2, 14);
    const d = averagePairwiseDiversity([a, b]);
    expect(d.cosineSimilarity).toBeCloseTo(0.8033836849678968, 14);
    expect(cosineDistance([a, b])).toBeCloseTo(1 - 0.8033836849678968, 14);
    expect(d.disagreement).toBe(0.5);
    expect(disagreement([a, b])).toBe(0.5);
  });
  it('disagreement of [[0, 1]] vs [[1, 0]] is 1, of identical members 0, of three members 2/3', () => {
    expect(disagreement([[[0, 1]], [[1, 0]]])).toBe(1);
    expect(disagreement([[[1, 0]], [[1, 0]]])).toBe(0);
    expect(disagreement([[[0, 1]], [[0, 1]], [[1, 0]]])).toBeCloseTo(2 / 3, 15);
  });
  it('KL to a zero probability is Infinity with a warning; clip bounds it', () => {
    const seen: string[] = [];
    expect(pairwiseKl([[[0.5, 0.5]], [[1, 0]]], { onWarning: (w) => seen.push(w.code) })).toBe(Infinity);
    expect(seen).toEqual(['UM_W_INFINITE']);
    expect(pairwiseKl([[[0.5, 0.5]], [[1, 0]]], { clip: 1e-7 })).toBeCloseTo(
      0.5 * Math.log(0.5 / 1e-7) + 0.5 * Math.log(0.5),
      10,
    );
  });
  it('L^p distance and double fault', () => {
    expect(lpDistance([[[0.2, 0.8]], [[0.5, 0.5]]], { p: 2 })).toBeCloseTo(Math.sqrt(0.18), 15);
    // a member that never errs has no first faults; both wrong on row 0
    expect(
      doubleFault(
        [0, 1],
        [
          [
            [0.1, 0.9],
            [0.2, 0.8],
          ],
          [
            [0.3, 0.7],
            [0.4, 0.6],
          ],
        ],
      ),
    ).toBe(1);
    expect(
      doubleFault(
        [1, 1],
        [
          [
            [0.1, 0.9],
            [0.2, 0.8],
          ],
          [
            [0.3, 0.7],
            [0.4, 0.6],
          ],
        ],
      ),
    ).toBe(0);
  });
  it("variance bound: uncertainty_metrics' test case (its rows do not sum to 1)", () => {
    const probs = [
      [
        [0.5, 0.4, 0.1],
        [0.1, 0.1, 0.8],
      ],
      [
        [0.3, 0.3, 0.4],
        [0.1, 0, 0.9],
      ],
      [
        [0.8, 0.1, 0.1],
        [0, 0.6, 0.3],
      ],
      [
        [0.5, 0.1, 0.1],
        [0.1, 0.2, 0.7],
      ],
    ];
    expect(() => varianceBound([0, 2], probs)).toThrow(/must sum to 1/);
    const v = varianceBound([0, 2], probs, { sumTolerance: 0.31 });
    // numpy evaluation of the formula: 0.028461974344135804; the test asserts its own value with atol 1e-5
    expect(v).toBeCloseTo(0.028461974344135804, 15);
    expect(Math.abs(v - 0.02847173996913581)).toBeLessThan(1e-5);
  });
});

describe('ensemble variance', () => {
  const ref = JSON.parse(readFileSync(new URL('../fixtures/ensembleVariance.json', import.meta.url), 'utf8')) as {
    wide: { members: number[][][]; ddof1: number[]; ddof0: number[] };
    tall: { members: number[][][]; ddof1: number[] };
  };
  it('equals numpy’s matrix 2-norm of the member covariance (S < C and S > C)', () => {
    ensembleVariance(ref.wide.members).forEach((v, i) => expect(v).toBeCloseTo(ref.wide.ddof1[i] as number, 14));
    ensembleVariance(ref.wide.members, { ddof: 0 }).forEach((v, i) =>
      expect(v).toBeCloseTo(ref.wide.ddof0[i] as number, 14),
    );
    ensembleVariance(ref.tall.members).forEach((v, i) => expect(v).toBeCloseTo(ref.tall.ddof1[i] as number, 14));
  });
  it('is 0 for identical members', () => {
    expect(Array.from(ensembleVariance([[[0.3, 0.7]], [[0.3, 0.7]]]))).toEqual([0]);
  });
});

describe('knowledge uncertainty of a Dirichlet', () => {
  it('Dir(1, 1): total ln 2, expected data ½', () => {
    const u = knowledgeUncertainty([[1, 1]]);
    expect(u.total[0]).toBeCloseTo(Math.LN2, 15);
    expect(u.expectedData[0]).toBeCloseTo(0.5, 14);
  });
  it('matches a Monte-Carlo estimate of E[H(π)] and falls to 0 as the Dirichlet concentrates', () => {
    const rng = createRng('test', 11);
    const alpha = [2, 0.5, 3.5];
    let mc = 0;
    let mc2 = 0;
    const draws = 20000;
    for (let t = 0; t < draws; t++) {
      const g = alpha.map((a) => rng.gamma(a));
      const s = g.reduce((x, y) => x + y, 0);
      const h = -g.reduce((acc, v) => (v > 0 ? acc + (v / s) * Math.log(v / s) : acc), 0);
      mc += h;
      mc2 += h * h;
    }
    const mean = mc / draws;
    const se = Math.sqrt((mc2 / draws - mean * mean) / draws);
    expect(Math.abs((knowledgeUncertainty([alpha]).expectedData[0] as number) - mean)).toBeLessThan(4 * se);
    const big = knowledgeUncertainty([[2000, 500, 3500]]).mutualInformation[0] as number;
    expect(big).toBeLessThan(2e-4);
    expect(big).toBeGreaterThan(0);
  });
});

describe('ensemble input', () => {
  it('flat [S, N, C] arrays, member arrays of Float32Array and nested arrays agree', () => {
    const { members } = randomEnsemble(12, 3, 10, 4);
    const flat = Float64Array.from(members.flat(2));
    const a = modelUncertainty(members).total;
    expect(Array.from(modelUncertainty(flat, { numMembers: 3, numClasses: 4 }).total)).toEqual(Array.from(a));
    const f32 = members.map((m) => Float32Array.from(m.flat()));
    const b = modelUncertainty(f32, { numClasses: 4 }).total;
    b.forEach((v, i) => expect(v).toBeCloseTo(a[i] as number, 6));
    const e = toEnsemble(members);
    expect(toEnsemble(e)).toBe(e);
    expect(Array.from(modelUncertainty(e).total)).toEqual(Array.from(a));
  });
});
