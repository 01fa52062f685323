-- topLabel
WITH src AS (SELECT CAST("label" AS DOUBLE) AS y, CAST("p_0" AS DOUBLE) AS p0, CAST("p_1" AS DOUBLE) AS p1, CAST("p_2" AS DOUBLE) AS p2, CAST("weight" AS DOUBLE) AS w FROM preds),
t AS (SELECT src.*, GREATEST(p0, p1, p2) AS conf FROM src),
u AS (SELECT t.*, CASE WHEN p0 = conf THEN 0 WHEN p1 = conf THEN 1 WHEN p2 = conf THEN 2 END AS pred, (0.0 - ((CASE WHEN p0 > 0 THEN p0 * LN(p0) ELSE 0.0 END + CASE WHEN p1 > 0 THEN p1 * LN(p1) ELSE 0.0 END) + CASE WHEN p2 > 0 THEN p2 * LN(p2) ELSE 0.0 END)) AS ent, CASE WHEN y = 0 THEN p0 WHEN y = 1 THEN p1 WHEN y = 2 THEN p2 END AS py FROM t),
v AS (SELECT u.*, CASE WHEN pred = y THEN 1.0 ELSE 0.0 END AS correct FROM u)
SELECT LEAST(CAST(FLOOR(10.0 * conf) AS INTEGER), 9) AS bin, CAST(SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END) AS DOUBLE) AS n, CAST(SUM(w) AS DOUBLE) AS weight, CAST(SUM(w * conf) AS DOUBLE) AS score, CAST(SUM(w * correct) AS DOUBLE) AS outcome
FROM v GROUP BY 1 ORDER BY 1;

-- classwise
WITH src AS (SELECT CAST("label" AS DOUBLE) AS y, CAST("p_0" AS DOUBLE) AS p0, CAST("p_1" AS DOUBLE) AS p1, CAST("p_2" AS DOUBLE) AS p2, CAST("weight" AS DOUBLE) AS w FROM preds),
entries AS (SELECT 0 AS k, p0 AS s, y, w FROM src
UNION ALL SELECT 1 AS k, p1 AS s, y, w FROM src
UNION ALL SELECT 2 AS k, p2 AS s, y, w FROM src)
SELECT k, LEAST(CAST(FLOOR(10.0 * s) AS INTEGER), 9) AS bin, CAST(SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END) AS DOUBLE) AS n, CAST(SUM(w) AS DOUBLE) AS weight, CAST(SUM(w * s) AS DOUBLE) AS score, CAST(SUM(w * CASE WHEN y = k THEN 1.0 ELSE 0.0 END) AS DOUBLE) AS outcome
FROM entries GROUP BY 1, 2 ORDER BY 1, 2;

-- uncertainty
WITH src AS (SELECT CAST("label" AS DOUBLE) AS y, CAST("p_0" AS DOUBLE) AS p0, CAST("p_1" AS DOUBLE) AS p1, CAST("p_2" AS DOUBLE) AS p2, CAST("weight" AS DOUBLE) AS w FROM preds),
t AS (SELECT src.*, GREATEST(p0, p1, p2) AS conf FROM src),
u AS (SELECT t.*, CASE WHEN p0 = conf THEN 0 WHEN p1 = conf THEN 1 WHEN p2 = conf THEN 2 END AS pred, (0.0 - ((CASE WHEN p0 > 0 THEN p0 * LN(p0) ELSE 0.0 END + CASE WHEN p1 > 0 THEN p1 * LN(p1) ELSE 0.0 END) + CASE WHEN p2 > 0 THEN p2 * LN(p2) ELSE 0.0 END)) AS ent, CASE WHEN y = 0 THEN p0 WHEN y = 1 THEN p1 WHEN y = 2 THEN p2 END AS py FROM t),
v AS (SELECT u.*, CASE WHEN pred = y THEN 1.0 ELSE 0.0 END AS correct FROM u),
unc AS (SELECT ent / 1.0986122886681096 AS unc, 1.0 - correct AS err, w FROM v)
SELECT LEAST(CAST(FLOOR(10.0 * unc) AS INTEGER), 9) AS bin, CAST(SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END) AS DOUBLE) AS n, CAST(SUM(w) AS DOUBLE) AS weight, CAST(SUM(w * unc) AS DOUBLE) AS score, CAST(SUM(w * err) AS DOUBLE) AS outcome
FROM unc GROUP BY 1 ORDER BY 1;

-- scores
WITH src AS (SELECT CAST("label" AS DOUBLE) AS y, CAST("p_0" AS DOUBLE) AS p0, CAST("p_1" AS DOUBLE) AS p1, CAST("p_2" AS DOUBLE) AS p2, CAST("weight" AS DOUBLE) AS w FROM preds),
t AS (SELECT src.*, GREATEST(p0, p1, p2) AS conf FROM src),
u AS (SELECT t.*, CASE WHEN p0 = conf THEN 0 WHEN p1 = conf THEN 1 WHEN p2 = conf THEN 2 END AS pred, (0.0 - ((CASE WHEN p0 > 0 THEN p0 * LN(p0) ELSE 0.0 END + CASE WHEN p1 > 0 THEN p1 * LN(p1) ELSE 0.0 END) + CASE WHEN p2 > 0 THEN p2 * LN(p2) ELSE 0.0 END)) AS ent, CASE WHEN y = 0 THEN p0 WHEN y = 1 THEN p1 WHEN y = 2 THEN p2 END AS py FROM t),
v AS (SELECT u.*, CASE WHEN pred = y THEN 1.0 ELSE 0.0 END AS correct FROM u)
SELECT CAST(COUNT(*) AS DOUBLE) AS n, CAST(SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END) AS DOUBLE) AS weighted_rows, CAST(SUM(w) AS DOUBLE) AS weight, CAST(SUM(w * correct) AS DOUBLE) AS correct, CAST(SUM(w * ((CASE WHEN y = 0 THEN (p0 - 1.0) * (p0 - 1.0) ELSE p0 * p0 END + CASE WHEN y = 1 THEN (p1 - 1.0) * (p1 - 1.0) ELSE p1 * p1 END) + CASE WHEN y = 2 THEN (p2 - 1.0) * (p2 - 1.0) ELSE p2 * p2 END)) AS DOUBLE) AS brier, CAST(SUM(CASE WHEN py > 0 THEN w * (0.0 - LN(py)) ELSE 0.0 END) AS DOUBLE) AS nll, CAST(SUM(CASE WHEN py = 0 AND w > 0 THEN 1 ELSE 0 END) AS DOUBLE) AS zero_label_rows, CAST(SUM(w * ent) AS DOUBLE) AS entropy, CAST(SUM(bad_p) AS DOUBLE) AS bad_probability_rows, CAST(SUM(CASE WHEN bad_p = 1 THEN 0 WHEN ABS(p0 + p1 + p2 - 1.0) > 0.001 THEN 1 ELSE 0 END) AS DOUBLE) AS bad_sum_rows, CAST(SUM(CASE WHEN y IS NULL OR y < 0 OR y >= 3 OR y <> FLOOR(y) THEN 1 ELSE 0 END) AS DOUBLE) AS bad_label_rows, CAST(SUM(CASE WHEN w IS NULL OR w < 0 THEN 1 ELSE 0 END) AS DOUBLE) AS bad_weight_rows
FROM (SELECT v.*, CASE WHEN p0 IS NULL OR p0 < 0 OR p0 > 1 OR p1 IS NULL OR p1 < 0 OR p1 > 1 OR p2 IS NULL OR p2 < 0 OR p2 > 1 THEN 1 ELSE 0 END AS bad_p FROM v) AS checked;

-- auroc
WITH src AS (SELECT CAST("label" AS DOUBLE) AS y, CAST("p_0" AS DOUBLE) AS p0, CAST("p_1" AS DOUBLE) AS p1, CAST("p_2" AS DOUBLE) AS p2, CAST("weight" AS DOUBLE) AS w FROM preds),
t AS (SELECT src.*, GREATEST(p0, p1, p2) AS conf FROM src),
u AS (SELECT t.*, CASE WHEN p0 = conf THEN 0 WHEN p1 = conf THEN 1 WHEN p2 = conf THEN 2 END AS pred, (0.0 - ((CASE WHEN p0 > 0 THEN p0 * LN(p0) ELSE 0.0 END + CASE WHEN p1 > 0 THEN p1 * LN(p1) ELSE 0.0 END) + CASE WHEN p2 > 0 THEN p2 * LN(p2) ELSE 0.0 END)) AS ent, CASE WHEN y = 0 THEN p0 WHEN y = 1 THEN p1 WHEN y = 2 THEN p2 END AS py FROM t),
v AS (SELECT u.*, CASE WHEN pred = y THEN 1.0 ELSE 0.0 END AS correct FROM u),
blocks AS (SELECT conf, SUM(w * correct) AS pos, SUM(w * (1.0 - correct)) AS neg FROM v GROUP BY conf),
ranked AS (SELECT pos, neg, SUM(pos) OVER (ORDER BY conf DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS above FROM blocks)
SELECT CAST(SUM(neg * (COALESCE(above, 0.0) + pos / 2.0)) AS DOUBLE) AS area, CAST(SUM(pos) AS DOUBLE) AS pos, CAST(SUM(neg) AS DOUBLE) AS neg FROM ranked;
