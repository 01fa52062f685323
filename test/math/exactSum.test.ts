import { describe, expect, it } from 'vitest';
import { DenseSums } from '../../src/math/denseSums.js';
import { bitLength, ExactSum, pow2, roundScaled, scaledOf } from '../../src/math/exactSum.js';
import { movePairs, PairSum, pushPair } from '../../src/math/pairSum.js';
import { Fsum } from '../helpers/fsum.js';
import { createRng } from '../../src/random/rng.js';

const rng = (seed: number) => {
  const g = createRng('test', seed);
  return () => g.uniform();
};

/** Doubles of every kind: tiny, subnormal, huge, negative, exact ties, cancellation. */
function hostileValues(seed: number, n: number): number[] {
  const r = rng(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(r() * 8);
    const sign = r() < 0.3 ? -1 : 1;
    switch (kind) {
      case 0:
        out.push(sign * r());
        break;
      case 1:
        out.push(sign * r() * pow2(-1074 + Math.floor(r() * 60)));
        break;
      case 2:
        out.push(sign * r() * pow2(Math.floor(r() * 2000) - 1000));
        break;
      case 3:
        out.push(sign * 1e300 * (1 + r()));
        break;
      case 4:
        out.push(sign * pow2(-53 - Math.floor(r() * 20)));
        break;
      case 5:
        out.push(Math.round(r() * 1000) * sign);
        break;
      case 6:
        out.push(-0);
        break;
      default:
        out.push(sign * (r() < 0.5 ? Number.MIN_VALUE : 1 + Number.EPSILON));
    }
  }
  return out;
}

function shuffled(values: number[], seed: number): number[] {
  const r = rng(seed);
  const a = [...values];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j] as number, a[i] as number];
  }
  return a;
}

function fsum(values: number[]): number {
  const f = new Fsum();
  for (const v of values) f.add(v);
  return f.value();
}

describe('ExactSum', () => {
  it('rounds exact ties to even and a tie plus the smallest double away from it', () => {
    const sum = (...xs: number[]) => {
      const s = new ExactSum();
      for (const x of xs) s.add(x);
      return s.value();
    };
    expect(sum(1, pow2(-53))).toBe(1);
    expect(sum(1, pow2(-53), Number.MIN_VALUE)).toBe(1 + pow2(-52));
    expect(sum(1 + pow2(-52), pow2(-53))).toBe(1 + 2 * pow2(-52));
    expect(sum(0.1, 0.2)).toBe(0.30000000000000004);
    expect(sum(1e308, 1e308)).toBe(Infinity);
    expect(sum(1e308, 1e308, -1e308)).toBe(1e308);
    expect(sum(Number.MAX_VALUE, pow2(970))).toBe(Infinity); // a tie at the top rounds to even: up to 2^1024
    expect(sum(Number.MAX_VALUE, pow2(969))).toBe(Number.MAX_VALUE);
    expect(sum(Number.MIN_VALUE, Number.MIN_VALUE)).toBe(2 * Number.MIN_VALUE);
    expect(sum(Infinity, 1)).toBe(Infinity);
    expect(sum(Infinity, -Infinity)).toBeNaN();
    expect(sum()).toBe(0);
  });

  it('equals Shewchuk’s fsum on hostile values, in any order and any grouping', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const values = hostileValues(seed, 200);
      const expected = fsum(values);
      const a = new ExactSum();
      for (const v of shuffled(values, seed + 100)) a.add(v);
      expect(a.value()).toBe(expected);
      // split in three parts, merged in another order
      const parts = [new ExactSum(), new ExactSum(), new ExactSum()];
      values.forEach((v, i) => (parts[i % 3] as ExactSum).add(v));
      const merged = new ExactSum();
      for (const p of [parts[2], parts[0], parts[1]] as ExactSum[]) merged.addSum(p);
      expect(merged.value()).toBe(expected);
    }
  });

  it('round-trips through JSON and rejects malformed JSON', () => {
    const s = new ExactSum();
    for (const v of hostileValues(7, 100)) s.add(v);
    const back = ExactSum.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    expect(back).toBeInstanceOf(ExactSum);
    expect((back as ExactSum).value()).toBe(s.value());
    for (const bad of [
      null,
      5,
      {},
      { scaled: 'xyz', special: 0 },
      { scaled: '1', special: 1 },
      { scaled: 'f'.repeat(600), special: 0 },
      { scaled: '1', special: 'inf' },
    ]) {
      expect(typeof ExactSum.fromJSON(bad)).toBe('string');
    }
  });

  it('bitLength is the number of binary digits: around every power of two to 2^2200 (past each shift of 960 bits)', () => {
    for (let k = 1; k <= 2200; k++) {
      const p = 1n << BigInt(k);
      // just below, at and above 2^k; 2^k − 1 rounds up to 2^k as a double; and a mid-length value
      for (const a of [p - 1n, p, p + 1n, (p * 3n) / 2n, p + (p >> 60n) - 1n])
        expect(bitLength(a), `2^${k} neighbour`).toBe(a.toString(2).length);
    }
  });

  it('scales and rounds single doubles exactly', () => {
    for (const x of hostileValues(3, 300)) expect(roundScaled(scaledOf(x))).toBe(x === 0 ? 0 : x);
  });
});

describe('DenseSums', () => {
  it('equals fsum for every sum of the bank, across folds (more than 2^20 adds)', () => {
    const bank = new DenseSums(3);
    const refs = [new Fsum(), new Fsum(), new Fsum()];
    const r = rng(11);
    const values = hostileValues(12, 5000);
    for (let i = 0; i < 1_100_000; i++) {
      const k = i % 3;
      // mostly probabilities, some hostile values
      const x = i % 50 === 0 ? (values[i % values.length] as number) : r();
      bank.add(k, x);
      (refs[k] as Fsum).add(x);
    }
    for (let k = 0; k < 3; k++) {
      const out = new ExactSum();
      bank.foldInto(k, out);
      expect(out.value()).toBe((refs[k] as Fsum).value());
      // folded and cleared: adding it again gives the same value
      const again = new ExactSum();
      bank.foldInto(k, again);
      expect(again.value()).toBe(0);
    }
  });

  it('keeps non-finite values apart', () => {
    const bank = new DenseSums(1);
    bank.add(0, 2);
    bank.add(0, Infinity);
    const out = new ExactSum();
    bank.foldInto(0, out);
    expect(out.value()).toBe(Infinity);
  });
});

/** The JSON an ExactSum gives for Σ values, written from the BigInt of the sum alone (the form before a double part). */
function referenceJson(values: readonly number[]): { scaled: string; special: number | string } {
  let scaled = 0n;
  let special = 0;
  for (const v of values) {
    if (Number.isFinite(v)) scaled += scaledOf(v);
    else special += v;
  }
  const sp = Number.isFinite(special) ? special : String(special);
  if (scaled === 0n) return { scaled: '0', special: sp };
  const hex = (scaled < 0n ? -scaled : scaled).toString(16);
  const zeros = hex.length - hex.replace(/0+$/, '').length;
  return {
    scaled: `${scaled < 0n ? '-' : ''}${hex.slice(0, hex.length - zeros)}${zeros === 0 ? '' : `p${zeros * 4}`}`,
    special: sp,
  };
}

/** Sums that stay exact in a double for a while (whole numbers, one scale), then leave it, with hostile values. */
function mostlyExact(seed: number, n: number): number[] {
  const r = rng(seed);
  const hostile = hostileValues(seed + 1, n);
  return Array.from({ length: n }, (_, i) => {
    const u = r();
    if (u < 0.4) return Math.floor(r() * 1000) - 300;
    if (u < 0.6) return Math.floor(r() * 2 ** 20) * 2 ** -30;
    if (u < 0.7) return 2 ** 52 + Math.floor(r() * 8); // exact until the sum passes 2^53
    if (u < 0.8) return -(2 ** 52);
    return hostile[i] as number;
  });
}

describe('ExactSum: the double part', () => {
  it('values, merges and JSON equal the BigInt-only sum, whatever goes to the double part', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const values = mostlyExact(seed, seed < 20 ? 30 : 300);
      const finite = values.filter((v) => Number.isFinite(v));
      const a = new ExactSum();
      values.forEach((v, i) =>
        i % 5 === 0 && Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? a.addInteger(v) : a.add(v),
      );
      expect(a.value(), `seed ${seed}`).toBe(fsum(values));
      expect(a.toJSON(), `seed ${seed} JSON`).toEqual(referenceJson(values));
      // three parts merged, one of them emptied and refilled
      const parts = [new ExactSum(), new ExactSum(), new ExactSum()];
      values.forEach((v, i) => (parts[i % 3] as ExactSum).add(v));
      (parts[1] as ExactSum).clear();
      values.forEach((v, i) => i % 3 === 1 && (parts[1] as ExactSum).add(v));
      const merged = new ExactSum();
      for (const p of [parts[1], parts[2], parts[0]] as ExactSum[]) merged.addSum(p);
      expect(merged.toJSON(), `seed ${seed} merged`).toEqual(referenceJson(values));
      expect(merged.isZero()).toBe(finite.every((v) => v === 0) && finite.length === values.length);
    }
  });

  it('is zero when its exact total is, however the pair holds it', () => {
    // 1, 2^−60, −1, −2^−60 leave the pair (−2^−60, 2^−60): zero, as after a JSON round trip
    const s = new ExactSum();
    for (const v of [1, 2 ** -60, -1, -(2 ** -60)]) s.add(v);
    expect([s.isZero(), (ExactSum.fromJSON(s.toJSON()) as ExactSum).isZero(), s.value()]).toEqual([true, true, 0]);
    s.add(2 ** -1074);
    expect(s.isZero()).toBe(false);
  });

  it('a bank folds as doubles only when the cells add exactly (whole numbers, few scales), else through the BigInt', () => {
    for (let seed = 1; seed <= 20; seed++) {
      // below 2^977 the cells are summed in a pair of doubles: whole numbers, a few scales (1 + 2^−60) fold exactly
      // in it, a wider spread (with 3·2^−70 and tenths) moves the pair to the BigInt; cells beyond exponent 2000
      // (values ≥ 2^977) always go through the BigInt
      const values =
        seed % 2 === 0
          ? mostlyExact(seed + 50, 400).filter((v) => Math.abs(v) < 2 ** 970)
          : [...mostlyExact(seed + 50, 40).filter((v) => Math.abs(v) < 1e6), 1, 2 ** -60, 3 * 2 ** -70, 0.1, 0.7];
      if (seed % 4 === 0) values.push(2 ** 990, -(2 ** 980) * 3);
      const bank = new DenseSums(2);
      values.forEach((v, i) => bank.add(i % 2, v));
      const total = new ExactSum();
      bank.foldInto(0, total);
      bank.foldInto(1, total);
      expect(total.value(), `seed ${seed}`).toBe(fsum(values));
      expect(total.toJSON(), `seed ${seed} JSON`).toEqual(referenceJson(values));
    }
  });
});

describe('ExactSum: the pair of doubles', () => {
  /** Sums a pair holds (products of small whole weights and probabilities, a few scales) and ones it cannot. */
  function pairish(seed: number, n: number): number[] {
    const r = rng(seed);
    const scale = 2 ** -Math.floor(r() * 80);
    return Array.from({ length: n }, () => {
      const u = r();
      if (u < 0.6) return Math.floor(r() * 7) * r(); // a resample's weight × a probability
      if (u < 0.75) return -r() * scale;
      if (u < 0.85) return (1 + Number.EPSILON * Math.floor(r() * 4)) * 2 ** (Math.floor(r() * 120) - 60);
      if (u < 0.9) return pow2(-53 - Math.floor(r() * 60));
      return r() * pow2(Math.floor(r() * 2000) - 1000); // beyond any pair now and then
    });
  }

  it('values, merges and JSON equal the BigInt-only sum for sums that fit two doubles, ties included', () => {
    const cases: number[][] = [
      [1, pow2(-53)], // an exact tie between two doubles: to even
      [1, pow2(-53), pow2(-106)], // just above the tie: up
      [1 + pow2(-52), pow2(-53)], // a tie rounding up to even
      [1, -pow2(-54), -pow2(-108)],
      [2 ** 60, 1, -(2 ** 60)], // cancelled back to what the low double holds
      [0.1, 0.2, 0.3, -0.6],
    ];
    for (let seed = 1; seed <= 60; seed++) cases.push(pairish(seed, seed < 30 ? 8 : 200));
    cases.forEach((values, c) => {
      const a = new ExactSum();
      for (const v of values) a.add(v);
      expect(a.value(), `case ${c}`).toBe(fsum(values));
      expect(a.toJSON(), `case ${c} JSON`).toEqual(referenceJson(values));
      const parts = [new ExactSum(), new ExactSum()];
      values.forEach((v, i) => (parts[i % 2] as ExactSum).add(v));
      const merged = new ExactSum();
      merged.addSum(parts[1] as ExactSum);
      merged.addSum(parts[0] as ExactSum);
      expect(merged.value(), `case ${c} merged`).toBe(fsum(values));
      // a bank's fold (tried as a pair first) gives the same sum
      const bank = new DenseSums(1);
      for (const v of values) bank.add(0, v);
      const folded = new ExactSum();
      bank.foldInto(0, folded);
      expect(folded.toJSON(), `case ${c} folded`).toEqual(referenceJson(values));
      expect(folded.value(), `case ${c} folded`).toBe(fsum(values));
    });
  });

  it('a chain of pairs (PairSum.push) keeps every term: the BigInt-only sum for hostile and pair-sized values', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const values = seed % 2 === 0 ? hostileValues(seed + 300, 300) : pairish(seed + 300, 300);
      if (seed % 5 === 0) values.push(Infinity, 1, -Infinity);
      const chain = new PairSum();
      const target = new ExactSum();
      for (const v of values) chain.push(v, target);
      chain.moveTo(target);
      expect(target.toJSON(), `seed ${seed}`).toEqual(referenceJson(values));
      if (seed % 5 !== 0) expect(target.value(), `seed ${seed}`).toBe(fsum(values));
      else expect(target.value()).toBeNaN();
    }
  });

  it('arrays of pair chains (pushPair, per bin) keep every term of every bin', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const values = seed % 2 === 0 ? hostileValues(seed + 400, 400) : pairish(seed + 400, 400);
      const bins = 1 + (seed % 6);
      const targets = Array.from({ length: bins }, () => new ExactSum());
      const hi = new Float64Array(bins);
      const lo = new Float64Array(bins);
      const byBin = { at: (b: number) => targets[b] as ExactSum };
      values.forEach((v, i) => pushPair(hi, lo, (i * 7) % bins, v, byBin));
      movePairs(hi, lo, byBin);
      targets.forEach((t, b) => {
        const own = values.filter((_, i) => (i * 7) % bins === b);
        expect(t.toJSON(), `seed ${seed} bin ${b}`).toEqual(referenceJson(own));
      });
    }
  });
});
