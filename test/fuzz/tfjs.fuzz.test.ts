/**
 * API fuzz of the TensorFlow.js entry point (uncertainty-metrics/tfjs, ~0.5 s to load): every function and the
 * TemperatureScaling layer's constructor on mutated calls of their documentation examples — the generic mutations
 * of test/fuzz/generate.ts, plus tensors replaced by tensors of other data (NaN, ±Infinity, huge), ranks and dtypes.
 * Same pass criterion as api.fuzz.test.ts; a tensor result is read with arraySync().
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import { presets, setWarningHandler } from '../../src/index.js';
import * as tfjs from '../../src/tfjs/index.js';
import { judge } from './check.js';
import { recordSeeds, type Seed } from './corpus.js';
import {
  caseSeed,
  describe as show,
  hostile,
  mutateCall,
  mutateValue,
  Rand,
  SPECIAL_NUMBERS,
  vocabulary,
  type Vocabulary,
} from './generate.js';

const ITERATIONS = Number(process.env.UM_FUZZ_ITERATIONS ?? 1);
const SEED = Number(process.env.UM_FUZZ_SEED ?? 15);
const CASES = 16;
const presetNames = Object.keys(presets);

let seeds = new Map<string, Seed[]>();
let words: Vocabulary;
beforeAll(async () => {
  const quiet = setWarningHandler(() => {});
  const r = await recordSeeds({
    'uncertainty-metrics': core as unknown as Record<string, unknown>,
    'uncertainty-metrics/tfjs': tfjs as unknown as Record<string, unknown>,
    '@tensorflow/tfjs': tf as unknown as Record<string, unknown>,
  });
  setWarningHandler(quiet);
  expect(r.failed).toEqual([]);
  seeds = r.seeds;
  words = vocabulary(
    [...seeds.values()].flat().map((s) => s.args),
    presetNames,
  );
}, 60_000);

const isTensor = (x: unknown): x is tf.Tensor => x instanceof tf.Tensor;

/** A tensor replaced: other values (special numbers), another rank or dtype, or plain data. */
function mutateTensor(r: Rand, t: tf.Tensor): unknown {
  const data = t.arraySync() as unknown;
  switch (r.int(5)) {
    case 0: {
      const flat = Array.from(t.dataSync());
      if (flat.length > 0) flat[r.int(flat.length)] = r.pick(SPECIAL_NUMBERS);
      return tf.tensor(flat, t.shape, t.dtype === 'int32' ? 'float32' : t.dtype);
    }
    case 1:
      return tf.tensor(Array.from(t.dataSync()), [t.size]);
    case 2:
      return tf.tensor(Array.from(t.dataSync()), t.shape, r.pick(['int32', 'bool', 'float32'] as const));
    case 3:
      return data;
    default: {
      const m = mutateValue(r, data, 0, words);
      try {
        return tf.tensor(m as number[]);
      } catch {
        return m;
      }
    }
  }
}

const FUNCTIONS = Object.entries(tfjs).filter(([, v]) => typeof v === 'function') as [
  string,
  (...a: unknown[]) => unknown,
][];

describe('tfjs fuzz: every function of uncertainty-metrics/tfjs on mutated valid calls', () => {
  it(`${FUNCTIONS.length} functions and classes`, async () => {
    const problems: string[] = [];
    for (const [name, f] of FUNCTIONS) {
      const list = seeds.get(name) ?? [];
      const isClass = /^[A-Z]/.test(name);
      // the layer is fuzzed through its constructor (its examples construct it with no arguments)
      const seedsOf = isClass ? [{ args: [{ initial: 1 }] }] : list;
      expect(seedsOf.length, `${name} has an example call`).toBeGreaterThan(0);
      for (let i = 0; i < Math.ceil(CASES * ITERATIONS); i++) {
        const r = new Rand(caseSeed(SEED, `tfjs:${name}`, i));
        const args = mutateCall(r, r.pick(seedsOf).args, words, presetNames).map((a) =>
          isTensor(a) && r.chance(0.5) ? mutateTensor(r, a) : a === undefined && r.chance(0.1) ? hostile(r) : a,
        );
        const call = isClass ? (...a: unknown[]) => new (f as unknown as new (...x: unknown[]) => unknown)(...a) : f;
        const o = await judge(name, call, args, { after: (x) => (isTensor(x) ? x.arraySync() : isClass ? {} : x) });
        if (o.problems.length > 0)
          problems.push(
            `${name}(${args.map((a) => (isTensor(a) ? `tensor${JSON.stringify(a.shape)}:${a.dtype}` : show(a))).join(', ')}) [seed ${SEED}, case ${i}]: ${o.problems.join('; ')}`,
          );
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
