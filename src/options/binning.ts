import { checkCount } from '../errors/checkCount.js';
import { fail } from '../errors/fail.js';
import { presets, type Preset, type PresetName } from '../presets/presets.js';
import type { BinningSpec, Closed, DingOptions, EqualMassMethod, EqualWidthRule, Precision } from '../binning/types.js';

/** The binning schemes a metric can use. */
export type BinningScheme = 'equal-width' | 'equal-mass' | 'ding' | 'distinct';

/** User-given bin edges e_0 < e_1 < … < e_B. */
export interface EdgeBinning {
  readonly edges: readonly number[];
  /** Which side of each bin is closed (default `'left'`: [e_b, e_{b+1}), the last bin closed on both sides). */
  readonly closed?: Closed;
}

/** Options shared by every binned metric, diagram and table. */
export interface BinningOptions {
  /** Compatibility preset supplying the defaults below (default `'default'`, this library's conventions). */
  preset?: PresetName;
  /** Number of bins B (default: the preset's, 15 for `'default'`). Ignored by `'ding'` and explicit edges. */
  bins?: number;
  /**
   * Binning scheme, or explicit edges. Default depends on the metric (equal-width for ECE). `'distinct'` gives each
   * distinct score its own bin (discrete outputs).
   */
  binning?: BinningScheme | EdgeBinning;
  /** Equal-width rule; fields given here override the preset's rule. */
  equalWidth?: Partial<EqualWidthRule>;
  /** Equal-mass construction (default: the preset's, `'quantile'` for `'default'`). */
  equalMass?: EqualMassMethod;
  /** Parameters of Ding et al.'s adaptive binning (defaults z = 1.645, minRemaining = 40, minGap = 0.05). */
  ding?: Partial<DingOptions>;
  /** Arithmetic precision (default: the preset's). */
  precision?: Precision;
}

/** The options a binning resolves to, as recorded in results (`config`). Plain JSON. */
export type BinningConfig =
  | { preset: PresetName; binning: 'equal-width'; bins: number; equalWidth: EqualWidthRule; precision: Precision }
  | { preset: PresetName; binning: 'equal-mass'; bins: number; equalMass: EqualMassMethod; precision: Precision }
  | { preset: PresetName; binning: 'ding'; ding: DingOptions; precision: Precision }
  | { preset: PresetName; binning: 'distinct'; precision: Precision }
  | { preset: PresetName; binning: 'edges'; edges: number[]; closed: Closed; precision: Precision };

export const DEFAULT_DING: DingOptions = Object.freeze({ z: 1.645, minRemaining: 40, minGap: 0.05 });

const EQUAL_MASS: readonly EqualMassMethod[] = [
  'quantile',
  'uncertainty-metrics',
  'verified-calibration',
  'netcal',
  'sklearn',
];

/** Options that only some schemes use; giving one to another scheme is an error rather than silently ignored. */
const APPLIES: Record<'bins' | 'equalWidth' | 'equalMass' | 'ding', readonly string[]> = {
  bins: ['equal-width', 'equal-mass'],
  equalWidth: ['equal-width'],
  equalMass: ['equal-mass'],
  ding: ['ding'],
};

function rejectInapplicable(fn: string, options: BinningOptions, scheme: string): void {
  for (const [key, schemes] of Object.entries(APPLIES)) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && !schemes.includes(scheme)) {
      fail(
        'UM_OPTION',
        fn,
        `options.${key}`,
        `be omitted with ${scheme} binning (it only applies to ${schemes.join(' or ')} binning)`,
        {
          value,
        },
      );
    }
  }
}

/** Looks up a preset by name, or throws `UM_OPTION`. */
export function presetOf(fn: string, name: unknown): Preset {
  const key = name ?? 'default';
  if (typeof key !== 'string' || !Object.hasOwn(presets, key)) {
    fail(
      'UM_OPTION',
      fn,
      'options.preset',
      `be one of ${Object.keys(presets)
        .map((k) => `'${k}'`)
        .join(', ')}`,
      {
        value: name,
      },
    );
  }
  return presets[key as PresetName];
}

function oneOf<T extends string>(fn: string, argument: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    fail('UM_OPTION', fn, argument, `be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, { value });
  }
  return value as T;
}

function positiveNumber(fn: string, argument: string, value: unknown, allowZero: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    fail('UM_OPTION', fn, argument, allowZero ? 'be a finite number ≥ 0' : 'be a finite number > 0', { value });
  }
  return value;
}

/**
 * Resolves binning options against the preset into a {@link BinningSpec} and its JSON {@link BinningConfig}.
 * `defaultScheme` is the metric's own scheme when `options.binning` is absent.
 */
export function resolveBinning(
  fn: string,
  options: BinningOptions,
  defaultScheme: BinningScheme,
): { spec: BinningSpec; config: BinningConfig; preset: Preset; precision: Precision } {
  const preset = presetOf(fn, options.preset);
  const precision = oneOf(fn, 'options.precision', options.precision ?? preset.precision, ['float64', 'float32']);
  const binning = options.binning ?? defaultScheme;
  if (typeof binning === 'object' && binning !== null) {
    const edges = (binning as EdgeBinning).edges;
    if (!Array.isArray(edges) || edges.length < 2) {
      fail('UM_OPTION', fn, 'options.binning.edges', 'be an array of at least 2 increasing numbers', { value: edges });
    }
    for (let i = 0; i < edges.length; i++) {
      const e: unknown = edges[i];
      if (typeof e !== 'number' || !Number.isFinite(e) || (i > 0 && e <= (edges[i - 1] as number))) {
        fail('UM_OPTION', fn, 'options.binning.edges', 'be finite and strictly increasing', { index: [i], value: e });
      }
    }
    rejectInapplicable(fn, options, 'edges');
    const closed = oneOf(fn, 'options.binning.closed', (binning as EdgeBinning).closed ?? 'left', ['left', 'right']);
    const copy = [...edges];
    return {
      spec: { scheme: 'edges', edges: copy, closed },
      config: { preset: preset.name, binning: 'edges', edges: copy, closed, precision },
      preset,
      precision,
    };
  }
  const scheme = oneOf(fn, 'options.binning', binning, ['equal-width', 'equal-mass', 'ding', 'distinct']);
  rejectInapplicable(fn, options, scheme);
  if (scheme === 'distinct') {
    return {
      spec: { scheme: 'distinct' },
      config: { preset: preset.name, binning: 'distinct', precision },
      preset,
      precision,
    };
  }
  if (scheme === 'ding') {
    const d = options.ding ?? {};
    const ding: DingOptions = {
      z: positiveNumber(fn, 'options.ding.z', d.z ?? DEFAULT_DING.z, false),
      minRemaining: positiveNumber(fn, 'options.ding.minRemaining', d.minRemaining ?? DEFAULT_DING.minRemaining, true),
      minGap: positiveNumber(fn, 'options.ding.minGap', d.minGap ?? DEFAULT_DING.minGap, true),
    };
    return {
      spec: { scheme: 'ding', ding },
      config: { preset: preset.name, binning: 'ding', ding, precision },
      preset,
      precision,
    };
  }
  const bins = options.bins ?? preset.bins;
  checkCount(fn, 'options.bins', bins);
  if (scheme === 'equal-mass') {
    const method = oneOf(fn, 'options.equalMass', options.equalMass ?? preset.equalMass, EQUAL_MASS);
    return {
      spec: { scheme: 'equal-mass', bins, method },
      config: { preset: preset.name, binning: 'equal-mass', bins, equalMass: method, precision },
      preset,
      precision,
    };
  }
  const given = options.equalWidth ?? {};
  const rule: EqualWidthRule = {
    index: oneOf(fn, 'options.equalWidth.index', given.index ?? preset.equalWidth.index, ['floor', 'divide', 'edges']),
    edges: oneOf(fn, 'options.equalWidth.edges', given.edges ?? preset.equalWidth.edges, ['exact', 'numpy', 'torch']),
    closed: oneOf(fn, 'options.equalWidth.closed', given.closed ?? preset.equalWidth.closed, ['left', 'right']),
    one: oneOf(fn, 'options.equalWidth.one', given.one ?? preset.equalWidth.one, ['last-bin', 'own-bin']),
  };
  if (rule.index === 'edges' && rule.closed === 'right' && rule.one === 'own-bin') {
    fail(
      'UM_OPTION',
      fn,
      'options.equalWidth.one',
      `be 'last-bin' with right-closed bins (p = 1 already closes the last bin)`,
      {
        value: rule.one,
      },
    );
  }
  return {
    spec: { scheme: 'equal-width', bins, rule, precision },
    config: { preset: preset.name, binning: 'equal-width', bins, equalWidth: rule, precision },
    preset,
    precision,
  };
}
