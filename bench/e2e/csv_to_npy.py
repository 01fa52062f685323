"""Reads a benchmark CSV (label,p_0,…,p_{C-1}) with numpy's own parser and writes its float64 probabilities and int64
labels as .npy, so numpy_full.py can compute reference values for the rows that time `um` on CSV, Parquet and JSON
Lines (all three hold the same decimal text, hence the same float64 values).

Usage: python3 csv_to_npy.py IN.csv OUT_PROBS.npy OUT_LABELS.npy
"""
import os
import sys

import numpy as np

src, probs_path, labels_path = sys.argv[1:4]
table = np.loadtxt(src, delimiter=',', skiprows=1, dtype=np.float64)
np.save(labels_path + '.tmp.npy', table[:, 0].astype(np.int64))
np.save(probs_path + '.tmp.npy', np.ascontiguousarray(table[:, 1:]))
os.replace(labels_path + '.tmp.npy', labels_path)
os.replace(probs_path + '.tmp.npy', probs_path)
