#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a run directory's summary.json against an independent computation
from its samples.jsonl with numpy and scipy (or, with a second argument
"boot_timing", that part of the summary against the whole-boot samples): per-boot medians and medians
over boots (numpy.median), Mann-Whitney U and its p-value
(scipy.stats.mannwhitneyu where there are no ties; with ties, the exact
permutation distribution of U by scipy.stats.permutation_test over every
split, or the asymptotic p above 50 a side, never below 2 / C(n1 + n2, n1)),
the replicates (per-boot medians, or per-layout medians of the pooled
samples where the run has layouts, each built layout's virtual layouts
(fields "vl_<field>") one replicate each beside it), Holm
(written out here), Cliff's delta (every pair counted), modified z-score
outliers, Spearman's rho (scipy.stats.spearmanr) and its permutation p-value
(scipy.stats.permutation_test), the bootstrap intervals of a median
(scipy.stats.bootstrap, percentile method: a different random stream, so
compared within a tolerance), the ratio's two-stage bootstrap interval
(written out here with numpy: builds drawn with replacement, then each
drawn build's layouts; at the run's confidence and at 1 - alpha / family
for the verdict), the builds (each built layout's median over its layouts:
the rank test's replicates where the run has 2 or more), and each verdict
from its figures: faster or slower only with Holm p < alpha and the
verdict's interval beyond 1 +- min_effect; equivalent when it lies within;
"this layout only" for identical deterministic counts of one layout of a
figure that moves with the layout.  Prints TAP-style lines "ok"/"not ok"
with the worst disagreement of each statistic; exits 1 on any
disagreement."""
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


def virtual_values(s, metric):
    """The sample's value of metric under each virtual layout (fields
    "vl_<field>", per operation), or []."""
    if metric == "ns_per_op":
        return []
    a = s.get("fields", {}).get("vl_" + metric[: -len("_per_op")])
    return [x / s["iterations"] for x in a] if isinstance(a, list) else []


def layout_medians(variant, case, metric):
    """Per built layout, then per virtual layout of it (0: the built one's
    own addresses): the median of the pooled samples; ids (layout, k)."""
    mine = [s for s in samples if s["variant"] == variant and s.get("case") == case]
    nvl = max([len(virtual_values(s, metric)) for s in mine] + [0])
    meds, ids = [], []
    for l in sorted({s.get("layout", 0) for s in mine}):
        for k in range(nvl + 1):
            if k == 0:
                vals = [value(s, metric) for s in mine if s.get("layout", 0) == l and value(s, metric) is not None]
            else:
                vals = [virtual_values(s, metric)[k - 1] for s in mine
                        if s.get("layout", 0) == l and len(virtual_values(s, metric)) >= k]
            if vals:
                meds.append(float(np.median(vals)))
                ids.append((l, k))
    return meds, ids


def row_by_layout(r):
    return "layouts" in r


def builds(variant, case, metric):
    """Per built layout: its layouts' medians (a group), and their median."""
    meds, ids = layout_medians(variant, case, metric)
    groups = {}
    for m, (l, _) in zip(meds, ids):
        groups.setdefault(l, []).append(m)
    order = sorted(groups)
    return [groups[l] for l in order], [float(np.median(groups[l])) for l in order], order


def test_unit():
    return "build" if summary.get("layouts", 1) >= 2 else "virtual layout"


def replicates(r, variant):
    """The rank test's replicates and the bootstrap's groups."""
    if row_by_layout(r):
        groups, bmeds, _ = builds(variant, r["case"], r["metric"])
        if test_unit() == "build":
            return bmeds, groups
        meds, _ = layout_medians(variant, r["case"], r["metric"])
        return meds, [meds]
    bm, _ = boot_medians(variant, r["case"], r["metric"])
    return bm, [[x] for x in bm]


def nested_dist(a, b, n_res=10000, seed=5):
    """The two-stage bootstrap distribution of median over groups of the
    median within each, a over b: groups drawn with replacement, then each
    drawn group's values with replacement."""
    rng = np.random.default_rng(seed)

    def side(groups):
        sizes = {len(g) for g in groups}
        n = len(groups)
        pick = rng.integers(0, n, size=(n_res, n))
        if len(sizes) == 1:
            g = np.asarray(groups, float)
            m = g.shape[1]
            within = rng.integers(0, m, size=(n_res, n, m))
            vals = g[pick[..., None], within]
            return np.median(np.median(vals, axis=2), axis=1)
        out = np.empty(n_res)
        for r in range(n_res):
            meds = []
            for gi in pick[r]:
                g = np.asarray(groups[gi], float)
                meds.append(np.median(g[rng.integers(0, len(g), size=len(g))]))
            out[r] = np.median(meds)
        return out
    return np.sort(side(a) / side(b))


def within_dist(g, dist, tail, slack):
    """g inside the reference distribution's quantiles slack either side of tail."""
    lo, hi = np.quantile(dist, max(0.0, tail - slack)), np.quantile(dist, min(1.0, tail + slack))
    eps = 1e-9 * max(1.0, abs(g))
    return lo - eps <= g <= hi + eps


def u_stat(x, y, axis=-1):
    """U of x: pairs x > y, ties one half."""
    x = np.asarray(x)[..., :, None]
    y = np.asarray(y)[..., None, :]
    return np.sum((x > y) + 0.5 * (x == y), axis=(-2, -1))


def rank_test(x, y):
    """Two-sided p of the rank test as kbench defines it (independent of it)."""
    n1, n2 = len(x), len(y)
    if n1 > 50 or n2 > 50:
        mw = stats.mannwhitneyu(x, y, alternative="two-sided", use_continuity=True, method="asymptotic")
        return float(mw.statistic), max(float(mw.pvalue), min(1.0, 2 / math.comb(n1 + n2, n1))), "asymptotic"
    if len(set(np.concatenate([x, y]))) == n1 + n2:
        mw = stats.mannwhitneyu(x, y, alternative="two-sided", method="exact")
        return float(mw.statistic), float(mw.pvalue), "exact"
    if min(n1, n2) < 2:
        # scipy's permutation_test wants two values a side: every split by hand
        pooled = list(x) + list(y)
        obs = float(u_stat(x, y))
        us = []
        for idx in itertools.combinations(range(n1 + n2), n1):
            rest = [pooled[i] for i in range(n1 + n2) if i not in idx]
            us.append(float(u_stat([pooled[i] for i in idx], rest)))
        le = sum(u <= obs + 1e-9 for u in us) / len(us)
        ge = sum(u >= obs - 1e-9 for u in us) / len(us)
        return obs, min(1.0, 2 * min(le, ge)), "permutation"
    res = stats.permutation_test((np.asarray(x, float), np.asarray(y, float)),
                                 lambda a, b, axis: u_stat(np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)),
                                 permutation_type="independent", n_resamples=np.inf,
                                 alternative="two-sided", vectorized=True)
    return float(u_stat(x, y)), float(res.pvalue), "permutation"


def within_mc(g, res, k):
    """kbench's bound k (0 low, 1 high) g against scipy's bootstrap of the
    same statistic from another random stream: inside the quantiles of
    scipy's bootstrap distribution 0.01 either side of the tail (about six
    Monte Carlo standard errors at 10000 resamples), where small samples
    make the distribution lumpy."""
    tail = (1 - level) / 2 if k == 0 else 1 - (1 - level) / 2
    dist = np.asarray(res.bootstrap_distribution)
    lo, hi = np.quantile(dist, max(0.0, tail - 0.01)), np.quantile(dist, min(1.0, tail + 0.01))
    eps = 1e-9 * max(1.0, abs(g))
    return lo - eps <= g <= hi + eps


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
min_effect = summary.get("min_effect", 0.01)
alpha = summary["alpha"]
for r in rows:
    bm, ids = boot_medians(r["variant"], r["case"], r["metric"])
    for g, w in zip(r["boot_medians"], bm):
        check("per-boot median (numpy.median)", g, w)
    check("boots", r["boots"], len(bm))
    got_out = r["outlier_boots"]
    want_out = [ids[i] for i in outliers(bm)]
    if row_by_layout(r):
        lm, lids = layout_medians(r["variant"], r["case"], r["metric"])
        for g, w in zip(r["layout_medians"], lm):
            check("per-layout median of pooled samples, built and virtual (numpy.median)", g, w)
        check("layouts", r["layouts"], len(lm))
        got_ids = list(zip(r["layout_ids"], r.get("layout_virtual", [0] * len(r["layout_ids"]))))
        if got_ids != lids:
            failed.append("layout ids %s/%s/%s: %r, reference %r" % (r["case"], r["metric"], r["variant"], got_ids, lids))
        _, bmeds, bids = builds(r["variant"], r["case"], r["metric"])
        check("builds", r["builds"], len(bmeds))
        if r["build_ids"] != bids:
            failed.append("build ids %s/%s/%s: %r, reference %r" % (r["case"], r["metric"], r["variant"], r["build_ids"], bids))
        for g, w in zip(r["build_medians"], bmeds):
            check("per-build median of its layouts' medians (numpy.median)", g, w)
        bm, _ = replicates(r, r["variant"])
    elif summary.get("layouts", 1) >= 2 or any(virtual_values(s, r["metric"]) for s in samples):
        failed.append("row by boot where the run has layouts: %s/%s/%s" % (r["case"], r["metric"], r["variant"]))
    check("median over replicates (numpy.median)", r["median"], float(np.median(bm)) if bm else None)
    if got_out != want_out:
        failed.append("outliers %s/%s/%s: kbench %r, reference %r" % (r["case"], r["metric"], r["variant"], got_out, want_out))
    if len(bm) > 1:
        rng = np.random.default_rng(1)
        res = stats.bootstrap((np.asarray(bm),), np.median, n_resamples=10000, method="percentile",
                              confidence_level=level, random_state=rng, vectorized=True)
        spread = max(bm) - min(bm)
        for k, (g, w) in enumerate(zip(r["ci"], (res.confidence_interval.low, res.confidence_interval.high))):
            err = abs(g - w) / spread if spread else abs(g - w)
            boot_tol = max(boot_tol, err)
            if err > 0.05 and not within_mc(g, res, k):
                failed.append("bootstrap CI %s/%s/%s: kbench %r, scipy %r" % (r["case"], r["metric"], r["variant"], r["ci"], res.confidence_interval))
    if r["variant"] == base or "verdict" not in r:
        continue
    x = np.asarray(bm)
    _, xg = replicates(r, r["variant"])
    b, bg = replicates(r, base)
    b = np.asarray(b)
    check("unit of the test", int(r["test_unit"] == (test_unit() if row_by_layout(r) else "boot")), 1)
    all_x = [v for g in xg for v in g]
    all_b = [v for g in bg for v in g]
    identical = len(set(all_x)) == 1 and len(set(all_b)) == 1
    deterministic_untested = r["deterministic"] and identical and not row_by_layout(r)
    check("share of layout pairs in which it costs more (ties half)", r["superiority"],
          (cliffs(all_x, all_b) + 1) / 2)
    check("Cliff's delta", r["cliffs_delta"], cliffs(x, b))
    mx, mb = float(np.median(x)), float(np.median(b))
    check("difference of medians", r["difference"], mx - mb)
    check("ratio of medians (null where infinite)", r["ratio"], mx / mb if mb != 0 else (1.0 if mx == 0 else None))
    if deterministic_untested:
        # identical deterministic counts of one layout: no test, no family
        if r["p"] is not None or "p_holm" in r:
            failed.append("deterministic row with a p %s/%s/%s: %r" % (r["case"], r["metric"], r["variant"], r["p"]))
    else:
        u, p, how = rank_test(x, b)
        check("exact chosen", int(r["p_exact"]), int(how != "asymptotic"))
        check("Mann-Whitney U", r["u"], u)
        check("rank test p (%s)" % {"exact": "scipy mannwhitneyu exact", "permutation":
              "scipy permutation_test, every split, ties", "asymptotic": "scipy mannwhitneyu asymptotic"}[how],
              r["p"], p)
        check("p never below 2 / C(n1 + n2, n1)", int(r["p"] >= min(1.0, 2 / math.comb(len(x) + len(b), len(x))) - 1e-12), 1)
        families.setdefault((r["metric"], r["variant"]), []).append(r)
    if len(all_x) > 1 or len(all_b) > 1:
        if min(all_b) <= 0 or identical:
            pass  # no resampled interval: the reference can reach 0, or nothing varies
        else:
            dist = nested_dist(xg, bg)
            fam = r.get("family", 1)
            for lev, got, what in ((level, r["ratio_ci"], "ratio CI"),
                                   (1 - alpha / fam, r["verdict_ci"], "verdict interval")):
                if what == "verdict interval" and "p_holm" not in r:
                    continue
                if what == "verdict interval":
                    check("verdict interval's level 1 - alpha / family", r["verdict_level"], 1 - alpha / fam)
                tail = (1 - lev) / 2
                want = (float(np.quantile(dist, tail)), float(np.quantile(dist, 1 - tail)))
                width = max(want[1] - want[0], 1e-12)
                for k, (g, w) in enumerate(zip(got, want)):
                    boot_tol = max(boot_tol, abs(g - w) / width)
                    t = tail if k == 0 else 1 - tail
                    if abs(g - w) > 0.1 * width + 1e-9 and not within_dist(g, dist, t, min(0.01, max(tail, 0.002))):
                        failed.append("%s %s/%s/%s: kbench %r, two-stage reference %r" % (what, r["case"], r["metric"], r["variant"], got, want))

for fam in families.values():
    for r, adj in zip(fam, holm([r["p"] for r in fam])):
        check("Holm-adjusted p", r["p_holm"], adj)
        check("family size", r["family"], len(fam))


moves = {k["name"]: k.get("moves_with_layout", True) for k in summary.get("metrics", [])}


def want_verdict(r):
    """The verdict from the row's own figures, by the rule of issue 21: the
    interval at 1 - alpha / family against 1 +- min_effect, with Holm's p."""
    d, ratio, ci = r["difference"], r["ratio"], r["verdict_ci"]
    if r["identical_counts"] and d == 0:
        return "same"
    called = "p_holm" in r and r["p_holm"] < alpha
    if r["p"] is None:
        if not (r["deterministic"] and r["identical_counts"]):
            return "not distinguishable"
        if moves.get(r["metric"], True):
            return "this layout only"
        called = True
    if ratio is None:  # infinite: against a reference of 0, the test decides
        return ("faster" if d < 0 else "slower") if called else "not distinguishable"
    if ci[0] is None or ci[1] is None:
        return "not distinguishable"
    if called and ci[0] > 1 + min_effect:
        return "slower"
    if called and ci[1] < 1 - min_effect:
        return "faster"
    if 1 - min_effect < ci[0] and ci[1] < 1 + min_effect:
        return "equivalent"
    return "not distinguishable"


verdicts = {}
for r in rows:
    if r["variant"] == base or "verdict" not in r:
        continue
    check("verdict by the rule (Holm p, and the interval beyond 1 +- min_effect)", 0 if r["verdict"] == want_verdict(r) else 1, 0)
    if r["verdict"] != want_verdict(r):
        failed.append("verdict %s/%s/%s: kbench %r, rule %r" % (r["case"], r["metric"], r["variant"], r["verdict"], want_verdict(r)))
    verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    if r["verdict"] in ("faster", "slower") and "p_holm" in r and r["p_holm"] >= alpha:
        failed.append("%s beside p %g: %s/%s/%s" % (r["verdict"], r["p_holm"], r["case"], r["metric"], r["variant"]))
print("# verdicts: " + ", ".join("%s %d" % kv for kv in sorted(verdicts.items())))

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
    check("smallest is cheapest (ties count)", int(c["smallest_is_fastest"]), int(ys[int(np.argmin(xs))] == min(ys)))


def joint_side(groups_by_case, rng, n_res):
    """Per resample and case, the median over groups of each drawn group's
    median: the same group and value draws for every case where the cases
    share one shape (as the boots or builds of a side are the same ones),
    else each case drawn on its own."""
    shapes = {tuple(len(g) for g in gs) for gs in groups_by_case}
    out = np.empty((n_res, len(groups_by_case)))
    if len(shapes) == 1 and len({len(g) for g in groups_by_case[0]}) == 1:
        n, m = len(groups_by_case[0]), len(groups_by_case[0][0])
        pick = rng.integers(0, n, size=(n_res, n))
        within = rng.integers(0, m, size=(n_res, n, m))
        for c, gs in enumerate(groups_by_case):
            g = np.asarray(gs, float)
            out[:, c] = np.median(np.median(g[pick[..., None], within], axis=2), axis=1)
        return out
    for c, gs in enumerate(groups_by_case):
        for r in range(n_res):
            meds = [np.median(np.asarray(gs[gi], float)[rng.integers(0, len(gs[gi]), size=len(gs[gi]))])
                    for gi in rng.integers(0, len(gs), size=len(gs))]
            out[r, c] = np.median(meds)
    return out


# The answer line (issue 34): each variant's verdict counts on the primary
# metric, and the geometric mean of its cases' ratios with an interval from
# a joint two-stage bootstrap (numpy, its own stream: within a tolerance).
for a in summary.get("answer", []):
    mine = [r for r in rows if r["variant"] == a["variant"] and r["metric"] == a["metric"] and "verdict" in r]
    for key, names in (("faster", ("faster",)), ("slower", ("slower",)), ("same", ("same",)),
                       ("equivalent", ("equivalent",)),
                       ("not_distinguishable", ("not distinguishable", "this layout only"))):
        check("answer: cases %s" % key, a[key], sum(r["verdict"] in names for r in mine))
    check("answer: cases judged", a["cases"], len(mine))
    xg, bg = [], []
    for r in mine:
        _, g = replicates(r, r["variant"])
        _, h = replicates(r, base)
        if min(v for x in g for v in x) > 0 and min(v for x in h for v in x) > 0:
            xg.append(g)
            bg.append(h)
    check("answer: cases in the geometric mean", a["geomean_cases"], len(xg))
    ratios = [float(np.median([np.median(x) for x in g]) / np.median([np.median(x) for x in h]))
              for g, h in zip(xg, bg)]
    want = float(np.exp(np.mean(np.log(ratios)))) if ratios else None
    check("answer: geometric mean of the cases' ratios of medians", a["geomean"], want)
    if not ratios or a["geomean_ci"] is None or a["geomean_ci"][0] is None:
        continue
    rng = np.random.default_rng(9)
    dist = np.sort(np.exp(np.mean(np.log(joint_side(xg, rng, 10000) / joint_side(bg, rng, 10000)), axis=1)))
    tail = (1 - level) / 2
    wci = (float(np.quantile(dist, tail)), float(np.quantile(dist, 1 - tail)))
    width = max(wci[1] - wci[0], 1e-12)
    for k, (g, w) in enumerate(zip(a["geomean_ci"], wci)):
        worst["answer: geometric mean interval (of the reference's width)"] = max(
            worst.get("answer: geometric mean interval (of the reference's width)", 0.0), abs(g - w) / width)
        if abs(g - w) > 0.1 * width + 1e-9 and not within_dist(g, dist, tail if k == 0 else 1 - tail, 0.01):
            failed.append("geometric mean interval %s: kbench %r, joint two-stage reference %r" % (a["variant"], a["geomean_ci"], wci))
    if not a["geomean_ci"][0] <= a["geomean"] <= a["geomean_ci"][1]:
        failed.append("geometric mean %s outside its interval %r" % (a["geomean"], a["geomean_ci"]))

for name in sorted(worst):
    print("# %-62s worst |difference| %.3g" % (name, worst[name]))
print("# bootstrap intervals: worst difference %.3f (of the data spread, or of scipy's ratio interval width)" % boot_tol)
for f in failed[:20]:
    print("# MISMATCH " + f)
sys.exit(1 if failed else 0)
