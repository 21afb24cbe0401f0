#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every statistic of summary.json checked against an independent
# implementation (numpy, scipy; tests/stats-ref.py) on fixed synthetic runs:
# exact and asymptotic Mann-Whitney, Holm, Cliff's delta, outliers, medians,
# Spearman with exact and sampled permutation p-values, bootstrap intervals.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'numpy, scipy.stats' python3-scipy "statistics against scipy"
diag "reference: $("$PY" -c 'import numpy, scipy; print("numpy", numpy.__version__, "scipy", scipy.__version__)')"

# A: 4 variants (one identical to the baseline), 6 boots, an outlier boot,
# an icache sweep and a deterministic count (ties: asymptotic test).
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/a\", \"seed\": 3, \"boots\": 6, \"samples\": 3, \"noise\": 0.04,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400, \"counts\": {\"instructions\": 250}},
	    {\"workload\": \"pipe\", \"case\": \"pipe\", \"ns\": 30000},
	    {\"workload\": \"icache\", \"case\": \"icache/k=0\", \"ns\": 500},
	    {\"workload\": \"icache\", \"case\": \"icache/k=16\", \"ns\": 700},
	    {\"workload\": \"icache\", \"case\": \"icache/k=64\", \"ns\": 1200}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2062329}, {\"name\": \"Os\", \"text\": 1356393, \"factor\": 0.85},
	       {\"name\": \"O3\", \"text\": 2200000, \"factor\": 1.1}, {\"name\": \"O2-copy\", \"text\": 2062329}],
  \"spikes\": [[\"O2\", 3, 1.6]]}"
# B: 10 variants (sampled permutation p), 9 boots, values rounded so that
# boots tie (the asymptotic test with tie correction).
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/b\", \"seed\": 11, \"boots\": 9, \"samples\": 3, \"noise\": 0.05, \"quantum\": 20,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400}, {\"workload\": \"pipe\", \"case\": \"pipe\", \"ns\": 900}],
  \"variants\": [{\"name\": \"v0\", \"text\": 2000000}, {\"name\": \"v1\", \"text\": 1900000, \"factor\": 0.97},
	       {\"name\": \"v2\", \"text\": 1800000, \"factor\": 0.95}, {\"name\": \"v3\", \"text\": 1700000, \"factor\": 1.02},
	       {\"name\": \"v4\", \"text\": 1600000, \"factor\": 0.9}, {\"name\": \"v5\", \"text\": 1500000, \"factor\": 0.93},
	       {\"name\": \"v6\", \"text\": 1400000, \"factor\": 0.88}, {\"name\": \"v7\", \"text\": 1300000, \"factor\": 0.91},
	       {\"name\": \"v8\", \"text\": 1200000, \"factor\": 0.85}, {\"name\": \"v9\", \"text\": 1100000, \"factor\": 0.86}]}"

for r in a b; do
	"$KBENCH" report "$d/$r" > "$d/$r.out" 2> "$d/$r.err"
	check "kbench report on synthetic run $r" test -s "$d/$r/summary.json"
	"$PY" "$TEST_SRCDIR/stats-ref.py" "$d/$r" > "$d/$r.ref" 2>&1
	rc=$?
	cat "$d/$r.ref"
	check "run $r: every statistic agrees with numpy/scipy" test $rc -eq 0
done

# The same run reported twice gives the same figures (seeded bootstrap).
cp "$d/a/summary.json" "$d/a.first"
"$KBENCH" report "$d/a" > /dev/null 2>&1
check "seeded: a second report gives identical figures" cmp "$d/a.first" "$d/a/summary.json"
check "the outlier boot is marked, not dropped" sh -c \
	"jq -e '[.results[] | select(.case == \"getppid\" and .metric == \"ns_per_op\" and .variant == \"O2\")][0] |
		(.outlier_boots | length) == 1 and .boots == 6' '$d/a/summary.json' >/dev/null"
test_done
