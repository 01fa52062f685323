"""Temperature scaling in vectorised numpy: the competitor of `um calibrate fit --method temperature` (bench/e2e/run.mjs).

Usage: python3 numpy_temperature.py LOGITS.npy LABELS.npy  -> {"temperature", "nll", "nllBefore", "passes"} as JSON.

T* = argmin_T (1/N)·Σ_i −log softmax(z_i/T)_{y_i}. The NLL is convex in β = 1/T, so Newton's method on u = ln β from
T = 1 converges in a handful of passes; each pass computes the NLL and its first two derivatives over row blocks
(about 2^21 entries, float64): f = mean(lse(βz) − βz_y), f' = mean(E_q[z] − z_y), f'' = mean(Var_q[z]) with
q = softmax(βz). A step that would leave the bracket known from the signs of f' is replaced by bisection, and the
iteration stops when the Newton step in ln T is below 1e-12 — far below the 1e-10 step tolerance of um, so the two T
agree to the accuracy of um's stopping rule. (scipy.optimize's bounded Brent search on ln T would stop at ~1e-8
relative: the NLL is flat to rounding there, while its derivative is not.)
"""
import json
import math
import sys

import numpy as np

BLOCK_ENTRIES = 1 << 21


def nll_pass(z, y, beta):
    n, c = z.shape
    f = g = h = 0.0
    step = max(1, BLOCK_ENTRIES // c)
    for i0 in range(0, n, step):
        i1 = min(n, i0 + step)
        zb = z[i0:i1].astype(np.float64)
        zy = zb[np.arange(i1 - i0), y[i0:i1]]
        a = beta * zb
        m = a.max(axis=1, keepdims=True)
        a -= m
        np.exp(a, out=a)
        s = a.sum(axis=1)
        a /= s[:, None]  # q = softmax(βz)
        ez = np.einsum('ij,ij->i', a, zb)
        zb -= ez[:, None]
        var = np.einsum('ij,ij,ij->i', a, zb, zb)
        f += float(np.sum(m[:, 0] + np.log(s) - beta * zy))
        g += float(np.sum(ez - zy))
        h += float(np.sum(var))
    return f / n, g / n, h / n


def fit(z, y, tolerance=1e-12, max_passes=100):
    lo, hi = -math.log(1e3), -math.log(1e-3)  # bracket of u = ln β = −ln T (T in [0.001, 1000], as um)
    u = 0.0
    f, g, h = nll_pass(z, y, 1.0)
    before = f
    passes = 1
    while passes < max_passes and g != 0:
        if g < 0:
            lo = u
        else:
            hi = u
        beta = math.exp(u)
        d1 = beta * g
        d2 = beta * beta * h + d1
        nxt = u - d1 / d2 if d2 > 0 else math.nan
        if not lo < nxt < hi:
            nxt = (lo + hi) / 2
        if abs(nxt - u) < tolerance:
            break
        u = nxt
        f, g, h = nll_pass(z, y, math.exp(u))
        passes += 1
    return {'temperature': math.exp(-u), 'nll': f, 'nllBefore': before, 'passes': passes}


if __name__ == '__main__':
    logits = np.load(sys.argv[1])
    labels = np.load(sys.argv[2]).astype(np.int64, copy=False)
    print(json.dumps(fit(logits, labels)))
