"""The full `um metrics --json` default set in vectorised numpy: numpy_core.py's metrics plus the class-wise SCE,
ACE and TACE (all N·C probabilities, binned class by class, averaged over the C classes as uncertainty_metrics does).

Usage: python3 numpy_full.py PROBS.npy LABELS.npy [--logits]  -> one JSON object on stdout.

Class-wise conventions (um's defaults; src/calibration/{sce,ace,tace}.ts):
- Class k bins column k of the probabilities against the outcome 1[y = k]; per class Σ_b (n_bk/m_k)·|gap_bk| with m_k
  the entries it keeps; the result is the mean over all C classes (a class with no entry counts 0).
- SCE: equal-width bins min(⌊B·p⌋, B − 1) in float64, every entry kept (exact zeros too; uncertainty_metrics drops
  p = 0, which changes nothing here: the benchmark data has no exact zero).
- ACE: um's equal-mass bins (see numpy_core.quantile_bins) of each column, every entry kept.
- TACE: the same over the entries p > 0.01 of each column (strict, compared in float64).

How: one transposed copy of the matrix, each class's column sorted in place (np.sort along rows, in C), so every bin
of every class is a contiguous slice; cut positions are computed for all classes at once (SCE: a vectorised binary
search for the first entry with ⌊B·p⌋ ≥ j; ACE/TACE: round(j·m/B), moved off ties for the few classes with a tie at a
cut); the score sums of every bin of every class come from one np.add.reduceat in float64 and the label counts from
one bincount of the N label entries. No Python loop over classes or entries.
"""
import json
import sys

import numpy as np

from numpy_core import BINS, core_metrics, load, row_stats


def first_at_least(sorted_rows, j):
    """For every row of ascending `sorted_rows`, the first position whose ⌊B·p⌋ (float64) is ≥ j: vectorised bisection."""
    c, n = sorted_rows.shape
    lo = np.zeros(c, dtype=np.int64)
    hi = np.full(c, n, dtype=np.int64)
    k = np.arange(c)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        val = sorted_rows[k, np.minimum(mid, n - 1)].astype(np.float64)
        below = active & (np.floor(BINS * val) < j)
        lo = np.where(below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)


def snap_rows(sorted_rows, start, cuts):
    """um's quantile cuts moved off blocks of ties; `cuts` holds absolute positions per class (C × (B − 1))."""
    c, n = sorted_rows.shape
    k = np.arange(c)[:, None]
    inside = (cuts > start[:, None]) & (cuts < n)
    prev = sorted_rows[k, np.clip(cuts - 1, 0, n - 1)]
    here = sorted_rows[k, np.clip(cuts, 0, n - 1)]
    for ki, j in zip(*np.nonzero(inside & (prev == here))):
        row = sorted_rows[ki]
        r = cuts[ki, j]
        s = int(np.searchsorted(row, row[r], 'left'))
        e = int(np.searchsorted(row, row[r], 'right'))
        cuts[ki, j] = s if r - s < e - r else e
    return cuts


def classwise_error(sorted_rows, start, cuts, label_value, labels, kept_label):
    """(1/C)·Σ_k Σ_b (n_bk/m_k)·|o_bk/n_bk − s_bk/n_bk| for bins [start_k, cut_1, …, cut_{B−1}, N) of each class."""
    c, n = sorted_rows.shape
    bounds = np.concatenate([start[:, None], np.maximum(cuts, start[:, None]), np.full((c, 1), n)], axis=1)
    bounds = np.maximum.accumulate(bounds, axis=1)
    count = np.diff(bounds, axis=1).astype(np.float64)  # C × B
    # score sums: one reduceat over the flattened sorted rows; segments = the dropped prefix of each class (if any)
    # and every non-empty bin, so the segment starts are strictly increasing and cover the whole array
    offset = (np.arange(c) * n)[:, None]
    seg_start = np.concatenate([offset, offset + bounds[:, :-1]], axis=1)  # C × (1 + B)
    seg_len = np.concatenate([start[:, None], count], axis=1)
    nonempty = seg_len > 0
    sums = np.zeros(seg_start.shape)
    sums[nonempty] = np.add.reduceat(sorted_rows.reshape(-1), seg_start[nonempty], dtype=np.float64)
    score_sum = sums[:, 1:]
    # outcome sums: bin of each label entry p_{i, y_i} among its own class's cut values (a cut sits between two
    # different values, so "position ≥ cut" ⇔ "value ≥ value at the cut")
    cut_value = np.where(cuts < n, sorted_rows[np.arange(c)[:, None], np.minimum(cuts, n - 1)].astype(np.float64), np.inf)
    bin_of = (label_value[kept_label, None] >= cut_value[labels[kept_label]]).sum(axis=1)
    outcome_sum = np.bincount(labels[kept_label] * BINS + bin_of, minlength=c * BINS).reshape(c, BINS).astype(np.float64)
    m = n - start
    ok = count > 0
    safe = np.where(ok, count, 1.0)
    per_bin = np.where(ok, count / np.maximum(m, 1)[:, None] * np.abs(outcome_sum / safe - score_sum / safe), 0.0)
    return float(per_bin.sum(axis=1).sum() / c)


def classwise_metrics(probs, labels, threshold=0.01):
    n, c = probs.shape
    sorted_rows = np.ascontiguousarray(probs.T)
    sorted_rows.sort(axis=1)
    label_value = probs[np.arange(n), labels].astype(np.float64)
    everything = np.ones(n, dtype=bool)
    zero = np.zeros(c, dtype=np.int64)
    j = np.arange(1, BINS)
    sce_cuts = np.stack([first_at_least(sorted_rows, jj) for jj in j], axis=1)
    out = {'sce': classwise_error(sorted_rows, zero, sce_cuts, label_value, labels, everything)}
    ace_cuts = snap_rows(sorted_rows, zero, np.broadcast_to((2 * j * n + BINS) // (2 * BINS), (c, BINS - 1)).copy())
    out['ace'] = classwise_error(sorted_rows, zero, ace_cuts, label_value, labels, everything)
    start = (sorted_rows <= np.float64(threshold)).sum(axis=1)
    m = (n - start)[:, None]
    tace_cuts = snap_rows(sorted_rows, start, start[:, None] + (2 * j[None, :] * m + BINS) // (2 * BINS))
    out['tace'] = classwise_error(sorted_rows, start, tace_cuts, label_value, labels, label_value > threshold)
    return out


if __name__ == '__main__':
    scores, labels, logits = load(sys.argv)
    stats = row_stats(scores, labels, logits, keep_probs=True)
    result = core_metrics(scores, labels, logits, 'core', stats)
    result.update(classwise_metrics(stats[-1], labels))
    print(json.dumps(result))
