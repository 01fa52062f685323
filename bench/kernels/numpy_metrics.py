"""Vectorised numpy versions of the `um metrics` set, timed on the same seeded data as bench/kernels/run.mjs.

Usage: python3 numpy_metrics.py N C DTYPE REPEATS BASE  -> prints one JSON object {name: {ms, value}}.
Each function is what a numpy user would write: whole-array operations, no Python loops over rows. The keys match
the names run.mjs prints. The "um metrics set" computes ECE, MCE, UCE, Brier, NLL, AUROC, AURC and mean entropy
together, sharing the max/argmax/entropy intermediates as a careful numpy user would.
"""
import json
import sys
import time

import numpy as np


def top(p, y):
    conf = p.max(axis=1).astype(np.float64)
    correct = (p.argmax(axis=1) == y).astype(np.float64)
    return conf, correct


def binned(score, outcome, bins=15):
    b = np.minimum((score * bins).astype(np.int64), bins - 1)
    n = np.bincount(b, minlength=bins)
    s = np.bincount(b, weights=score, minlength=bins)
    o = np.bincount(b, weights=outcome, minlength=bins)
    return n, s, o


def ece_of(conf, correct):
    n, s, o = binned(conf, correct)
    return float(np.abs(o - s).sum() / len(conf))


def mce_of(conf, correct):
    n, s, o = binned(conf, correct)
    keep = n > 0
    return float(np.max(np.abs(o[keep] - s[keep]) / n[keep]))


def entropy_rows(p):
    with np.errstate(divide='ignore', invalid='ignore'):
        t = np.where(p > 0, p * np.log(p), 0.0)
    return -t.sum(axis=1, dtype=np.float64)


def uce_of(h_norm, correct):
    n, s, o = binned(h_norm, 1.0 - correct)
    return float(np.abs(o - s).sum() / len(h_norm))


def brier(p, y):
    # Σ_k (p_k − 1[k = y])² = Σ p² − 2 p_y + 1, without a one-hot copy
    sq = np.einsum('ij,ij->i', p, p, dtype=np.float64)
    py = p[np.arange(len(y)), y].astype(np.float64)
    return float((sq - 2 * py + 1).mean())


def nll(p, y):
    with np.errstate(divide='ignore'):
        return float(-np.log(p[np.arange(len(y)), y].astype(np.float64)).mean())


def auroc_of(conf, correct):
    order = np.argsort(conf, kind='stable')
    ranks = np.empty(len(conf))
    ranks[order] = np.arange(1, len(conf) + 1)
    pos = correct.sum()
    neg = len(conf) - pos
    return float((ranks[correct > 0].sum() - pos * (pos + 1) / 2) / (pos * neg))


def aurc_of(conf, correct):
    order = np.argsort(-conf, kind='stable')
    risk = np.cumsum(1.0 - correct[order]) / np.arange(1, len(conf) + 1)
    return float(risk.mean())


def full(p, y):
    conf, correct = top(p, y)
    h = entropy_rows(p)
    return [ece_of(conf, correct), mce_of(conf, correct), uce_of(h / np.log(p.shape[1]), correct), brier(p, y), nll(p, y), auroc_of(conf, correct), aurc_of(conf, correct), float(h.mean())]


def main():
    n, c, dtype, repeats = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    base = sys.argv[5]
    p = np.load(f'{base}-{n}x{c}-{dtype}.npy')
    y = np.load(f'{base}-{n}x{c}-labels.npy')
    log_c = np.log(c)
    cases = [
        ('ece', lambda: ece_of(*top(p, y))),
        ('mce', lambda: mce_of(*top(p, y))),
        ('uce', lambda: uce_of(entropy_rows(p) / log_c, top(p, y)[1])),
        ('brier', lambda: brier(p, y)),
        ('nll', lambda: nll(p, y)),
        ('auroc', lambda: auroc_of(*top(p, y))),
        ('aurc', lambda: aurc_of(*top(p, y))),
        ('normalized entropy (mean)', lambda: float((entropy_rows(p) / log_c).mean())),
        ('entropy (mean)', lambda: float(entropy_rows(p).mean())),
        ('um metrics set (evaluate, classwise: false)', lambda: full(p, y)),
    ]
    out = {}
    for name, f in cases:
        f()
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            value = f()
            times.append((time.perf_counter() - t) * 1000)
        out[name] = {'ms': float(np.median(times)), 'value': value}
    print(json.dumps(out))


if __name__ == '__main__':
    main()
