import type { Store } from '../accumulate/store.js';
import type { MetricDefinition } from '../engine/definition.js';
import { BINNING_KEYS } from '../errors/checkOptions.js';
import type { SelectionSpec } from '../select/selectPairs.js';
import { binnedRequest, combineGroups, groupedGridBound, rawErrors } from './binnedStores.js';
import { resolveCalibration, type FixedStructure, type ResolvedCalibration } from './options.js';

/**
 * The general calibration error and its named members — the one table of what each member fixes and defaults
 * (ECE = equal-width bins, l1, top label, one group; …; TACE = ACE above 0.01). Every function, state, `evaluate`
 * entry and CLI row of these metrics reads it.
 */
export const CALIBRATION_MEMBERS = {
  gce: { fixed: {}, defaults: {} },
  ece: { fixed: { binning: 'equal-width', norm: 'l1', target: 'top-label', groupBy: 'none' }, defaults: {} },
  mce: { fixed: { binning: 'equal-width', norm: 'max', target: 'top-label', groupBy: 'none' }, defaults: {} },
  rmsce: { fixed: { binning: 'equal-mass', norm: 'l2', target: 'top-label', groupBy: 'none' }, defaults: {} },
  sce: { fixed: { binning: 'equal-width', norm: 'l1', target: 'all-classes', groupBy: 'class' }, defaults: {} },
  ace: { fixed: { binning: 'equal-mass', norm: 'l1', target: 'all-classes', groupBy: 'class' }, defaults: {} },
  tace: {
    fixed: { binning: 'equal-mass', norm: 'l1', target: 'all-classes', groupBy: 'class' },
    defaults: { threshold: 0.01 },
  },
  aece: { fixed: { binning: 'ding', norm: 'l1', target: 'top-label', groupBy: 'none' }, defaults: {} },
  amce: { fixed: { binning: 'ding', norm: 'max', target: 'top-label', groupBy: 'none' }, defaults: {} },
} as const satisfies Record<string, { fixed: FixedStructure; defaults: { threshold?: number | null } }>;

/** The general calibration error or one of its named members. */
export type CalibrationMember = keyof typeof CALIBRATION_MEMBERS;

/** Option keys of every member (a member rejects values that contradict what it fixes). */
export const CALIBRATION_KEYS = [
  ...BINNING_KEYS,
  'norm',
  'target',
  'groupBy',
  'topLabel',
  'classConditional',
  'threshold',
] as const;

/** Whether a member takes a bin count (Ding's adaptive bins size themselves). */
export function takesBins(member: CalibrationMember): boolean {
  const fixed: FixedStructure = CALIBRATION_MEMBERS[member].fixed;
  return fixed.binning !== 'ding';
}

/** The pairs a resolved calibration error bins. */
export function calibrationSelection(cfg: ResolvedCalibration): SelectionSpec {
  return {
    target: cfg.topLabel ? 'top-label' : 'all-classes',
    groupBy: cfg.classConditional ? 'class' : 'none',
    threshold: cfg.threshold,
    precision: cfg.precision,
  };
}

function what(cfg: ResolvedCalibration): string {
  return cfg.threshold === null ? 'no entries' : `entries with p > ${cfg.threshold}`;
}

/** The definition of a member of the calibration-error family. */
export function calibrationDefinition(name: CalibrationMember): MetricDefinition<ResolvedCalibration, number> {
  const member = CALIBRATION_MEMBERS[name];
  return {
    name,
    keys: CALIBRATION_KEYS,
    resolve: (fn, options) => resolveCalibration(fn, options, member.fixed, member.defaults),
    requests: (fn, cfg, mode, cellBits) => [
      binnedRequest(fn, name, calibrationSelection(cfg), cfg.spec, cfg.norm, mode, cellBits),
    ],
    finish: (cfg, [store], ctx) =>
      combineGroups(ctx.fn, rawErrors(ctx.fn, store as Store, cfg.spec, cfg.norm), cfg.norm, 'all', what(cfg)),
    bound: (cfg, [store], ctx) => groupedGridBound(ctx.fn, store as Store, cfg.spec, 'all'),
  };
}
