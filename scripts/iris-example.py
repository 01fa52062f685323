"""Writes examples/data/iris_val.csv and iris_test.csv: string labels and score columns named after the classes.

Run from the repository root with Debian's scikit-learn 1.2.1: `python3 scripts/iris-example.py`. Iris ships inside
scikit-learn (no download). Split: stratified, random_state 0 — train 60 / validation 45 / test 45 rows.
Model: multinomial logistic regression with a strong penalty (C = 0.05), so it is visibly under-confident and
the calibration examples have something to fix. Probabilities are written with 6 decimals (rows sum to 1 within
3e-6, inside the default --sum-tolerance of 0.001).
"""
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

iris = load_iris()
names = list(iris.target_names)  # setosa, versicolor, virginica
x_train, x_rest, y_train, y_rest = train_test_split(iris.data, iris.target, train_size=60, stratify=iris.target, random_state=0)
x_val, x_test, y_val, y_test = train_test_split(x_rest, y_rest, test_size=45, stratify=y_rest, random_state=0)
model = LogisticRegression(C=0.05, max_iter=1000).fit(x_train, y_train)
for split, x, y in (("val", x_val, y_val), ("test", x_test, y_test)):
    with open(f"examples/data/iris_{split}.csv", "w", newline="\n") as f:
        f.write("label," + ",".join(names) + "\n")
        for label, p in zip(y, model.predict_proba(x)):
            f.write(names[label] + "," + ",".join(f"{v:.6f}" for v in p) + "\n")
