"""Vectorised numpy versions of the `um metrics` kernels, timed on the same seeded data as bench/kernels/run.mjs.

Usage: python3 numpy_metrics.py N C DTYPE REPEATS  -> prints one JSON object {metric: median_ms}.
The data generator (xorshift-free, pure numpy) is seeded; both sides read the same .npy files written by run.mjs.
"""
import json
import sys
import time

import numpy as np


def ece(p, y, bins=15):
    conf = p.max(axis=1)
    correct = (p.argmax(axis=1) == y).astype(np.float64)
    b = np.minimum((conf * bins).astype(np.int64), bins - 1)
    n = np.bincount(b, minlength=bins)
    s = np.bincount(b, weights=conf, minlength=bins)
    o = np.bincount(b, weights=correct, minlength=bins)
    return float(np.abs(o - s).sum() / len(y))


def brier(p, y):
    q = p.astype(np.float64, copy=True)
    q[np.arange(len(y)), y] -= 1.0
    return float((q * q).sum(axis=1).mean())


def normalized_entropy(p):
    with np.errstate(divide='ignore', invalid='ignore'):
        t = np.where(p > 0, p * np.log(p), 0.0)
    return -t.sum(axis=1) / np.log(p.shape[1])


def uce(p, y, bins=15):
    u = normalized_entropy(p)
    err = (p.argmax(axis=1) != y).astype(np.float64)
    b = np.minimum((u * bins).astype(np.int64), bins - 1)
    s = np.bincount(b, weights=u, minlength=bins)
    o = np.bincount(b, weights=err, minlength=bins)
    return float(np.abs(o - s).sum() / len(y))


def auroc(p, y):
    conf = p.max(axis=1)
    correct = p.argmax(axis=1) == y
    order = np.argsort(conf, kind='stable')
    ranks = np.empty(len(conf))
    ranks[order] = np.arange(1, len(conf) + 1)
    pos = correct.sum()
    neg = len(conf) - pos
    return float((ranks[correct].sum() - pos * (pos + 1) / 2) / (pos * neg))


def main():
    n, c, dtype, repeats = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    base = sys.argv[5]
    p = np.load(f'{base}-{n}x{c}-{dtype}.npy')
    y = np.load(f'{base}-{n}x{c}-labels.npy')
    out = {}
    for name, f in [('ece', lambda: ece(p, y)), ('brier', lambda: brier(p, y)), ('normalizedEntropy', lambda: float(normalized_entropy(p).mean())), ('uce', lambda: uce(p, y)), ('auroc', lambda: auroc(p, y))]:
        times = []
        f()
        for _ in range(repeats):
            t = time.perf_counter()
            value = f()
            times.append((time.perf_counter() - t) * 1000)
        out[name] = {'ms': float(np.median(times)), 'value': value}
    print(json.dumps(out))


if __name__ == '__main__':
    main()
