#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# More layouts never decide fewer cases (issue 21).  One synthetic run of a
# known truth (tests/mkrun.py, backend sim): 8 builds of each variant with
# 1% spread between builds, each build in 32 virtual layouts with 3% spread
# within it, eleven cases whose true effects run from none to 20%.  From it,
# random subsets that keep K = 4, 8, 16 and 32 virtual layouts of each build
# (6 subsets a K); each is reported by kbench.  With the verdict read from
# the range of the layouts (before issue 21), the range grew with K and the
# decided cases fell; read from the interval over builds and their layouts,
# the mean number of decided cases must not fall as K grows, nor the mean
# width of the intervals grow.  Also:
#   - a case whose layouts are completely separated from the baseline's
#     (every layout of one costs more than every layout of the other) with
#     Holm p < 0.05 is never "not distinguishable" (before: "within layout
#     noise", as pipe was in the default report);
#   - no verdict changes direction between subsets (never faster in one and
#     slower in another).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "verdict power"
needs_cmd jq "verdict power"

cases='['
sep=
for c in none:1.0 half:1.005 one:1.01 onehalf:1.015 two:1.02 three:1.03 six:1.06 twenty:1.2 less2:0.98 less3:0.97 less6:0.94; do
	name=${c%%:*} f=${c#*:}
	cases="$cases$sep{\"workload\": \"$name\", \"case\": \"$name\", \"ns\": 1000, \"counts\": {\"ins_k\": 800, \"l1i_k\": 20, \"model_cycles\": 1000}}"
	factors="${factors:+$factors, }\"$name\": $f"
	sep=', '
done
cases="$cases]"
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/all\", \"seed\": 21, \"boots\": 1, \"samples\": 1, \"noise\": 0,
  \"backend\": \"sim\", \"layouts\": 8, \"layout_noise\": 0.01, \"virtual_layouts\": 32, \"virtual_noise\": 0.03,
  \"cases\": $cases, \"variants\": [{\"name\": \"O2\", \"text\": 2000000},
	{\"name\": \"Os\", \"text\": 1400000, \"factors\": {$factors}}]}"

# subset ALL OUT K SEED: ALL's samples with K of each build's virtual layouts
"$PY" - "$d" <<'PY'
import json, os, random, shutil, sys
d = sys.argv[1]
src = os.path.join(d, "all")
lines = [json.loads(l) for l in open(os.path.join(src, "samples.jsonl"))]
for k in (4, 8, 16, 32):
    for s in range(6):
        out = os.path.join(d, "k%d-%d" % (k, s))
        os.makedirs(out, exist_ok=True)
        for f in ("manifest.json", "boots.jsonl"):
            shutil.copy(os.path.join(src, f), out)
        rnd = random.Random(1000 * k + s)
        keep = {}
        with open(os.path.join(out, "samples.jsonl"), "w") as f:
            for x in lines:
                key = (x["variant"], x.get("layout", 0))
                if key not in keep:
                    keep[key] = sorted(rnd.sample(range(32), k))
                y = json.loads(json.dumps(x))
                for name, v in list(y["fields"].items()):
                    if name.startswith("vl_"):
                        y["fields"][name] = [v[i] for i in keep[key]]
                f.write(json.dumps(y) + "\n")
PY

: > "$d/table"
for k in 4 8 16 32; do
	for s in 0 1 2 3 4 5; do
		"$KBENCH" report "$d/k$k-$s" > /dev/null 2> "$d/k$k-$s.err" || sed 's/^/# /' "$d/k$k-$s.err"
		jq -r --arg k "$k" '.results[] | select(.metric == "model_cycles_per_op" and .variant == "Os") |
			"\($k) \(.case) \(.verdict | gsub(" "; "_")) \(.verdict_ci[1] - .verdict_ci[0]) \(.superiority) \(.p_holm) \(.ratio)"' \
			"$d/k$k-$s/summary.json" >> "$d/table"
	done
done
# per K: mean decided (faster, slower, equivalent) and called (faster,
# slower) cases per subset, and the mean width of the verdict's interval
awk '{ n[$1]++; dec[$1] += ($3 == "faster" || $3 == "slower" || $3 == "equivalent");
	call[$1] += ($3 == "faster" || $3 == "slower"); w[$1] += $4 }
     END { for (k in n) printf "%s %.3f %.3f %.6f\n", k, dec[k] / 6, call[k] / 6, w[k] / n[k] }' "$d/table" |
	sort -n > "$d/means"
while read -r k dec call w; do
	diag "K = $k: decided $dec of 11 cases (faster or slower $call), interval width $w (mean of 6 subsets)"
done < "$d/means"
check "the decided cases (mean over subsets) never fall as virtual layouts are added" \
	awk 'NR > 1 && ($2 < pd - 1e-9 || $3 < pc - 1e-9) { bad = 1 } { pd = $2; pc = $3 } END { exit bad || NR != 4 }' "$d/means"
check "the interval for the verdict narrows as virtual layouts are added" \
	awk 'NR > 1 && $4 > pw { bad = 1 } { pw = $4 } END { exit bad || NR != 4 }' "$d/means"
check "more layouts decide more: K = 32 decides more cases than K = 4" \
	awk 'NR == 1 { first = $2 } NR == 4 { last = $2 } END { exit !(last > first) }' "$d/means"
check "completely separated layouts with Holm p < 0.05: never not distinguishable ($(awk '$5 == 1 || $5 == 0' "$d/table" | wc -l) such rows)" \
	awk '($5 == 1 || $5 == 0) && $6 < 0.05 { n++; if ($3 == "not_distinguishable") bad = 1 } END { exit bad || !n }' "$d/table"
check "no case is faster in one subset and slower in another" \
	awk '$3 == "faster" { f[$2] = 1 } $3 == "slower" { s[$2] = 1 } END { for (c in f) if (c in s) exit 1 }' "$d/table"
check "the true 6% effects are decided at every K (slower, faster)" sh -c \
	"! grep -E '^[0-9]+ (six|less6) ' '$d/table' | grep -vqE ' (slower|faster) '"
test_done
