"""Seeded synthetic predictions for the end-to-end benchmark (bench/e2e/run.mjs), written once into bench/.data/e2e/.

Usage: python3 generate.py N C OUT_DIR  -> writes probs-NxC.npy (float32 [N, C]), logits-NxC.npy (float32 [N, C])
and labels-NxC.npy (int64 [N]); existing files are kept (same arguments give the same bytes).

A classifier that is right 77–88 % of the time: logits z = g + m·onehot(y) with g ~ N(0, 1) per entry and a
true-class margin m ~ N(μ_C, 1.5²), μ_C = 1.6 + 0.55·ln C, sharpened by a temperature of 0.5 (over-confident for
C = 10, under-confident on average for C = 1000). The logits file holds z/0.5 in float32; the probabilities file holds
softmax of exactly those float32 logits (computed in float64, stored as float32), so both describe the same model.
Confidences spread from ~0.05 to 1 (median ≈ 0.86–0.90); no probability is exactly 0 (smallest ≈ 1e-14).
"""
import os
import sys

import numpy as np

TEMPERATURE = 0.5
ROWS_PER_BLOCK_ENTRIES = 1 << 22


def generate(n, c, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    name = f'{n}x{c}'
    paths = {k: os.path.join(out_dir, f'{k}-{name}.npy') for k in ('probs', 'logits', 'labels')}
    if all(os.path.exists(p) for p in paths.values()):
        return paths
    rng = np.random.default_rng([17, n, c])
    mu = 1.6 + 0.55 * np.log(c)
    tmp = {k: p + '.tmp' for k, p in paths.items()}
    probs = np.lib.format.open_memmap(tmp['probs'], mode='w+', dtype=np.float32, shape=(n, c))
    logits = np.lib.format.open_memmap(tmp['logits'], mode='w+', dtype=np.float32, shape=(n, c))
    labels = rng.integers(0, c, n, dtype=np.int64)
    block = max(1, ROWS_PER_BLOCK_ENTRIES // c)
    for i0 in range(0, n, block):
        i1 = min(n, i0 + block)
        y = labels[i0:i1]
        z = rng.standard_normal((i1 - i0, c))
        z[np.arange(i1 - i0), y] += mu + 1.5 * rng.standard_normal(i1 - i0)
        l32 = (z / TEMPERATURE).astype(np.float32)
        q = l32.astype(np.float64)
        q -= q.max(axis=1, keepdims=True)
        np.exp(q, out=q)
        q /= q.sum(axis=1, keepdims=True)
        logits[i0:i1] = l32
        probs[i0:i1] = q
    probs.flush()
    logits.flush()
    del probs, logits
    np.save(tmp['labels'], labels)
    for k in paths:
        # np.save appends .npy to a name without it: the labels temp file is labels-….npy.tmp.npy
        src = tmp[k] if os.path.exists(tmp[k]) else tmp[k] + '.npy'
        os.replace(src, paths[k])
    return paths


if __name__ == '__main__':
    n, c, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    for k, p in generate(n, c, out).items():
        print(k, p)
