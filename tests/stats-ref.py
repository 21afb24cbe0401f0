#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a run directory's summary.json against an independent computation
from its samples.jsonl with numpy and scipy (or, with a second argument
"boot_timing", that part of the summary against the whole-boot samples): per-boot medians and medians
over boots (numpy.median), Mann-Whitney U and its p-value
(scipy.stats.mannwhitneyu, exact or asymptotic as kbench chose), Holm
(written out here), Cliff's delta (every pair counted), modified z-score
outliers, Spearman's rho (scipy.stats.spearmanr) and its permutation p-value
(scipy.stats.permutation_test), and the bootstrap intervals
(scipy.stats.bootstrap, percentile method: a different random stream, so
compared within a tolerance).  Prints TAP-style lines "ok"/"not ok" with the
worst disagreement of each statistic; exits 1 on any disagreement."""
import itertools
import json
import math
import sys

import numpy as np
from scipy import stats

run = sys.argv[1]
# "boot_timing": check that model (whole boots timed by hyperfine) instead
part = sys.argv[2] if len(sys.argv) > 2 else None
summary = json.load(open(run + "/summary.json"))
if part:
    summary = summary[part]
samples = [json.loads(l) for l in open(run + "/samples.jsonl") if l.strip()]
samples = [s for s in samples
           if (s.get("workload") == "boot" and s.get("backend") == "hyperfine") == bool(part)]
failed = []
worst = {}


def check(name, got, want, rel=1e-9, absolute=1e-12):
    if got is None or want is None or (isinstance(want, float) and math.isnan(want)):
        ok = (got is None) == (want is None or (isinstance(want, float) and math.isnan(want)))
        err = 0.0 if ok else math.inf
    else:
        err = abs(got - want)
        ok = err <= max(absolute, rel * abs(want))
    worst[name] = max(worst.get(name, 0.0), err)
    if not ok:
        failed.append("%s: kbench %r, reference %r" % (name, got, want))


def value(s, metric):
    if metric == "ns_per_op":
        return s["ns_per_op"]
    field = metric[: -len("_per_op")]
    return s["fields"][field] / s["iterations"] if field in s.get("fields", {}) else None


def boot_medians(variant, case, metric):
    mine = [s for s in samples if s["variant"] == variant and s.get("case") == case
            and value(s, metric) is not None]
    boots = sorted({s["boot"] for s in mine})
    return [float(np.median([value(s, metric) for s in mine if s["boot"] == b])) for b in boots], boots


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, run_max = [0.0] * len(ps), 0.0
    for k, i in enumerate(order):
        run_max = max(run_max, min(1.0, (len(ps) - k) * ps[i]))
        out[i] = run_max
    return out


def cliffs(a, b):
    return sum(int(x > y) - int(x < y) for x in a for y in b) / (len(a) * len(b))


def outliers(v, z=3.5):
    if len(v) < 3:
        return []
    v = np.asarray(v)
    med = np.median(v)
    mad = np.median(np.abs(v - med))
    scale = mad / 0.6745 if mad > 0 else 1.253314 * np.mean(np.abs(v - med))
    if scale <= 0:
        return []
    return [i for i in range(len(v)) if abs(v[i] - med) / scale > z]


base = summary["baseline"]
level = summary["confidence"]
rows = summary["results"]
families = {}
boot_tol = 0.0
for r in rows:
    bm, ids = boot_medians(r["variant"], r["case"], r["metric"])
    for g, w in zip(r["boot_medians"], bm):
        check("per-boot median (numpy.median)", g, w)
    check("boots", r["boots"], len(bm))
    check("median over boots (numpy.median)", r["median"], float(np.median(bm)) if bm else None)
    got_out = r["outlier_boots"]
    want_out = [ids[i] for i in outliers(bm)]
    if got_out != want_out:
        failed.append("outliers %s/%s/%s: kbench %r, reference %r" % (r["case"], r["metric"], r["variant"], got_out, want_out))
    if len(bm) > 1:
        rng = np.random.default_rng(1)
        res = stats.bootstrap((np.asarray(bm),), np.median, n_resamples=10000, method="percentile",
                              confidence_level=level, random_state=rng, vectorized=True)
        spread = max(bm) - min(bm)
        for g, w in zip(r["ci"], (res.confidence_interval.low, res.confidence_interval.high)):
            err = abs(g - w) / spread if spread else abs(g - w)
            boot_tol = max(boot_tol, err)
            if err > 0.05:
                failed.append("bootstrap CI %s/%s/%s: kbench %r, scipy %r" % (r["case"], r["metric"], r["variant"], r["ci"], res.confidence_interval))
    if r["variant"] == base or "p" not in r:
        continue
    x = np.asarray(bm)
    b, _ = boot_medians(base, r["case"], r["metric"])
    b = np.asarray(b)
    exact = len(set(np.concatenate([x, b]))) == len(x) + len(b) and len(x) <= 50 and len(b) <= 50
    check("exact chosen", int(r["p_exact"]), int(exact))
    mw = stats.mannwhitneyu(x, b, alternative="two-sided", use_continuity=True,
                            method="exact" if exact else "asymptotic")
    check("Mann-Whitney U (scipy)", r["u"], float(mw.statistic))
    check("Mann-Whitney p (scipy, %s)" % ("exact" if exact else "asymptotic"), r["p"], float(mw.pvalue))
    check("Cliff's delta", r["cliffs_delta"], cliffs(x, b))
    check("ratio of medians", r["ratio"], float(np.median(x) / np.median(b)))
    families.setdefault((r["metric"], r["variant"]), []).append(r)
    if len(x) > 1 or len(b) > 1:
        res = stats.bootstrap((x, b), lambda p, q, axis: np.median(p, axis=axis) / np.median(q, axis=axis),
                              n_resamples=10000, method="percentile", confidence_level=level,
                              random_state=np.random.default_rng(2), vectorized=True)
        width = max(res.confidence_interval.high - res.confidence_interval.low, 1e-12)
        for g, w in zip(r["ratio_ci"], (res.confidence_interval.low, res.confidence_interval.high)):
            boot_tol = max(boot_tol, abs(g - w) / width)
            if abs(g - w) > 0.1 * width + 1e-9:
                failed.append("ratio CI %s/%s: kbench %r, scipy %r" % (r["case"], r["variant"], r["ratio_ci"], res.confidence_interval))

for fam in families.values():
    for r, adj in zip(fam, holm([r["p"] for r in fam])):
        check("Holm-adjusted p", r["p_holm"], adj)

for c in summary["correlation"]:
    xs, ys = [], []
    for v in summary["variants"]:
        r = next((r for r in rows if r["case"] == c["case"] and r["metric"] == c["metric"] and r["variant"] == v["name"]), None)
        if v.get("text") is None or r is None or r["median"] is None:
            continue
        xs.append(v["text"])
        ys.append(r["median"])
    check("variants in correlation", c["n"], len(xs))
    rho = stats.spearmanr(xs, ys).correlation
    check("Spearman rho (scipy.stats.spearmanr)", c["rho"], None if np.isnan(rho) else float(rho))
    if np.isnan(rho):
        continue
    n_res = np.inf if len(xs) <= 8 else 20000
    perm = stats.permutation_test((np.asarray(xs, float), np.asarray(ys, float)),
                                  lambda a, b: stats.spearmanr(a, b).correlation,
                                  permutation_type="pairings", n_resamples=n_res,
                                  alternative="two-sided", random_state=np.random.default_rng(3))
    if len(xs) <= 8:
        check("Spearman permutation p, exact (scipy.stats.permutation_test)", c["p"], float(perm.pvalue))
    else:
        check("Spearman permutation p, sampled (scipy.stats.permutation_test)", c["p"], float(perm.pvalue), rel=0.0, absolute=0.03)
    check("smallest is cheapest", int(c["smallest_is_fastest"]), int(np.argmin(xs) == np.argmin(ys)))

for name in sorted(worst):
    print("# %-62s worst |difference| %.3g" % (name, worst[name]))
print("# bootstrap intervals: worst difference %.3f (of the data spread, or of scipy's ratio interval width)" % boot_tol)
for f in failed[:20]:
    print("# MISMATCH " + f)
sys.exit(1 if failed else 0)
