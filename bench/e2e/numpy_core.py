"""The `um metrics --no-classwise` set in vectorised numpy: the competitor of bench/e2e/run.mjs.

Usage: python3 numpy_core.py PROBS.npy LABELS.npy [--logits] [--set eight|core]  -> one JSON object on stdout.

`--set core` (default) computes what `um metrics --no-classwise --json` prints: accuracy, ECE, MCE, RMSCE, UCE, AECE,
AMCE, Brier, NLL, mean entropy, AUROC, AUPR, AURC, E-AURC. `--set eight` computes only the eight metrics the issue
names (ECE, MCE, UCE, Brier, NLL, AUROC, AURC, mean entropy). The conventions are um's defaults (src/evaluate/
evaluate.ts), so the values must agree with um's within 1e-9 relative:
- B = 15; equal-width bin b = min(⌊B·p⌋, B − 1) in float64 (p = 1 in the last bin); empty bins skipped; top label by
  argmax (first index on ties); UCE bins the normalized entropy H/ln C against the top-1 error.
- RMSCE: equal-mass bins of the confidence, cuts at round(k·N/B) (half up) moved to the nearer end of a block of tied
  values (the upper end when equally near), coinciding cuts merged; √(Σ_b (n_b/N)·gap_b²).
- AECE/AMCE: Ding et al.'s adaptive bins (z = 1.645, 40 remaining, gap 0.05), ties never split (src/binning/dingBins.ts).
- AUROC (correct vs confidence), AUPR (errors vs 1 − confidence, sklearn's step AP) and AURC (mean selective risk over
  the N coverages, ties ordered at random: a tied block contributes its errors linearly); E-AURC = AURC − that of the
  perfect ranking. Ties are one block everywhere.
- Brier = mean Σ_k (p_k − 1[k = y])², NLL = −mean ln p_y (never clipped), entropies in nats; float64 throughout.
- Logits (`--logits`): p = exp(z − max)/Σ exp(z − max) and ln p_y = (z_y − max) − ln Σ exp(z − max), in float64.
Rows are processed in blocks of about 2^21 entries, so no float64 copy of the whole matrix is made for probabilities.
"""
import json
import sys

import numpy as np

BINS = 15
BLOCK_ENTRIES = 1 << 21


def row_stats(scores, labels, logits, keep_probs=False):
    """Per-row confidence, argmax, p_y, ln p_y, Σp² and entropy (float64), one pass over row blocks.

    With `keep_probs` also returns the float64 probabilities (logits input; probabilities are returned as given)."""
    n, c = scores.shape
    conf = np.empty(n)
    pred = np.empty(n, dtype=np.int64)
    py = np.empty(n)
    log_py = np.empty(n)
    sq = np.empty(n)
    ent = np.empty(n)
    probs = np.empty((n, c)) if keep_probs and logits else scores
    step = max(1, BLOCK_ENTRIES // c)
    for i0 in range(0, n, step):
        i1 = min(n, i0 + step)
        rows = np.arange(i1 - i0)
        y = labels[i0:i1]
        q = scores[i0:i1].astype(np.float64)
        if logits:
            m = q.max(axis=1, keepdims=True)
            q -= m
            shifted_y = q[rows, y]
            np.exp(q, out=q)
            s = q.sum(axis=1, keepdims=True)
            q /= s
            log_py[i0:i1] = shifted_y - np.log(s[:, 0])
            py[i0:i1] = q[rows, y]
            if keep_probs:
                probs[i0:i1] = q
        else:
            py[i0:i1] = q[rows, y]
            log_py[i0:i1] = np.log(py[i0:i1])
        pred[i0:i1] = q.argmax(axis=1)
        conf[i0:i1] = q[rows, pred[i0:i1]]
        sq[i0:i1] = np.einsum('ij,ij->i', q, q)
        lq = np.zeros_like(q)
        np.log(q, out=lq, where=q > 0)  # 0·ln 0 = 0
        ent[i0:i1] = -np.einsum('ij,ij->i', q, lq)
    return conf, pred, py, log_py, sq, ent, probs


def equal_width_bins(score, outcome):
    """Counts, score sums and outcome sums of the B equal-width bins min(⌊B·s⌋, B − 1)."""
    b = np.clip(np.floor(BINS * score), 0, BINS - 1).astype(np.int64)
    return (np.bincount(b, minlength=BINS).astype(np.float64), np.bincount(b, weights=score, minlength=BINS),
            np.bincount(b, weights=outcome, minlength=BINS))


def gaps(count, ssum, osum, total):
    """Fractions and gaps (mean outcome − mean score) of the non-empty bins."""
    keep = count > 0
    n = count[keep]
    return n / total, osum[keep] / n - ssum[keep] / n


def l1(count, ssum, osum, total):
    f, g = gaps(count, ssum, osum, total)
    return float(np.sum(f * np.abs(g)))


def sup(count, ssum, osum, total):
    return float(np.max(np.abs(gaps(count, ssum, osum, total)[1])))


def snap(v, r):
    """A cut at sorted position r moved off a block of equal values to its nearer end (the upper end when equal)."""
    if r <= 0 or r >= len(v) or v[r - 1] != v[r]:
        return r
    s = int(np.searchsorted(v, v[r], 'left'))
    e = int(np.searchsorted(v, v[r], 'right'))
    return s if r - s < e - r else e


def bounds_from_cuts(n, cuts):
    """Bin bounds [0, cuts…, n] with cuts outside (0, n) and repeated cuts dropped."""
    kept = []
    for r in cuts:
        if 0 < r < n and (not kept or r != kept[-1]):
            kept.append(r)
    return np.array([0, *kept, n], dtype=np.int64)


def sums_over(v, o, bounds):
    """Counts and sums of v and o over the sorted slices [bounds[j], bounds[j + 1]) (all non-empty)."""
    starts = bounds[:-1]
    return np.diff(bounds).astype(np.float64), np.add.reduceat(v, starts), np.add.reduceat(o, starts)


def quantile_bins(v, o):
    """um's equal-mass bins ('quantile') of ascending v: counts, score sums, outcome sums."""
    n = len(v)
    cuts = [snap(v, (2 * k * n + BINS) // (2 * BINS)) for k in range(1, BINS)]
    return sums_over(v, o, bounds_from_cuts(n, cuts))


def ding_bins(v, o, z=1.645, min_remaining=40, min_gap=0.05):
    """Ding et al.'s adaptive bins of ascending v as src/binning/dingBins.ts builds them (ties never split)."""
    n = len(v)
    r = v[::-1]  # descending
    gmin = r[-1]
    # a new bin may open before sample i only while more than min_remaining samples remain and the current bin's
    # minimum r[i − 1] exceeds the global minimum by more than min_gap (both hold for i up to `limit`)
    limit = min(n - min_remaining - 1, int(np.count_nonzero(r - gmin > min_gap)))
    counts = []
    s = 0
    while True:
        # first i > s where the bin [s, i) holds more than its target ¼(z/(r_s − r_{i−1}))², at a block start
        i = None
        lo, width = s + 1, 256
        while lo <= limit:
            hi = min(limit, lo + width)
            cand = np.arange(lo, hi + 1)
            d = r[s] - r[cand - 1]
            with np.errstate(divide='ignore'):
                target = np.where(d > 0, 0.25 * (z / d) ** 2, np.inf)
            ok = (cand - s > target) & (r[cand] != r[cand - 1])
            if ok.any():
                i = int(cand[np.argmax(ok)])
                break
            lo, width = hi + 1, width * 2
        if i is None:
            counts.append(n - s)
            break
        counts.append(i - s)
        s = i
    d = r[s] - r[n - 1]
    target = 0.25 * (z / d) ** 2 if d > 0 else np.inf
    last = len(counts) - 1
    if last > 0 and np.isfinite(target) and target - counts[last] > 0:
        needed = target - counts[last]
        moved = 0
        for b in range(last):
            extract = max(0, min(int(needed * counts[last] / n), counts[b] - 1))
            counts[b] -= extract
            moved += extract
        counts[last] += moved
    cuts = sorted(set(snap(v, n - pos) for pos in np.cumsum(counts[:-1])))
    return sums_over(v, o, bounds_from_cuts(n, cuts))


def blocks(v, o):
    """Blocks of tied values of ascending v: counts and positives (outcome sums), ascending."""
    n = len(v)
    starts = np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1])))
    return np.diff(np.append(starts, n)).astype(np.float64), np.add.reduceat(o, starts)


def auroc(cnt, pos):
    """Mann–Whitney AUROC of correct (positive) vs confidence over ascending tie blocks, ties counted ½."""
    p = pos.sum()
    q = cnt.sum() - p
    above = p - np.cumsum(pos)  # positives in more confident blocks
    return float(np.sum((cnt - pos) * (above + pos / 2)) / (p * q))


def aupr_errors(cnt, pos):
    """Average precision of the errors ranked by uncertainty: from the least confident block up, one point per block."""
    err = cnt - pos
    hits = np.cumsum(err)
    kept = np.cumsum(cnt)
    m = err > 0
    return float(np.sum(err[m] / err.sum() * (hits[m] / kept[m])))


def aurc(cnt, pos):
    """(1/N)·Σ_k err̄(k)/k, err̄(k) the expected errors among the k most confident (ties in random order)."""
    c = cnt[::-1]
    e = (cnt - pos)[::-1]
    n = int(c.sum())
    start = np.cumsum(c) - c
    base = np.cumsum(e) - e
    bid = np.repeat(np.arange(len(c)), c.astype(np.int64))
    k = np.arange(1, n + 1, dtype=np.float64)
    errs = base[bid] + (k - start[bid]) * (e / c)[bid]
    return float(np.sum(errs / k) / n)


def oracle_aurc(n, correct):
    """AURC of the perfect ranking: the correct predictions first."""
    k = np.arange(correct + 1, n + 1, dtype=np.float64)
    return float(np.sum((k - correct) / k) / n)


def core_metrics(scores, labels, logits, which='core', stats=None):
    n, c = scores.shape
    conf, pred, py, log_py, sq, ent, _ = stats if stats is not None else row_stats(scores, labels, logits)
    correct = (pred == labels).astype(np.float64)
    out = {'n': n, 'numClasses': c}
    ew = equal_width_bins(conf, correct)
    out['ece'] = l1(*ew, n)
    out['mce'] = sup(*ew, n)
    out['uce'] = l1(*equal_width_bins(ent / np.log(c), 1.0 - correct), n)
    out['brier'] = float(np.mean(sq - 2 * py + 1))
    out['nll'] = float(-np.mean(log_py))
    out['meanEntropy'] = float(np.mean(ent))
    order = np.argsort(conf)
    v = conf[order]
    o = correct[order]
    cnt, pos = blocks(v, o)
    out['auroc'] = auroc(cnt, pos)
    out['aurc'] = aurc(cnt, pos)
    if which == 'eight':
        return out
    right = int(correct.sum())
    out['accuracy'] = right / n
    f, g = gaps(*quantile_bins(v, o), n)
    out['rmsce'] = float(np.sqrt(np.sum(f * g * g)))
    dg = ding_bins(v, o)
    out['aece'] = l1(*dg, n)
    out['amce'] = sup(*dg, n)
    out['aupr'] = aupr_errors(cnt, pos)
    out['eaurc'] = out['aurc'] - oracle_aurc(n, right)
    return out


def load(argv):
    probs = np.load(argv[1])
    labels = np.load(argv[2]).astype(np.int64, copy=False)
    return probs, labels, '--logits' in argv


if __name__ == '__main__':
    scores, labels, logits = load(sys.argv)
    which = sys.argv[sys.argv.index('--set') + 1] if '--set' in sys.argv else 'core'
    print(json.dumps(core_metrics(scores, labels, logits, which)))
