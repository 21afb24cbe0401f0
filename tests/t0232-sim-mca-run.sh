#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mca_cycles beside model_cycles (issue 24, items 4 and 5), in kbench run
# with the sim backend on real O2 and Os kernels (from the build cache; the
# first run builds them), cut down to getppid and pipe, 2 samples, 4
# virtual layouts (5 layouts a variant: enough for a verdict), sim_cpu = skylake and sim_cpu_alt = sandybridge:
# - every sample has mca_cycles and mca_cycles_alt, and their vl_ arrays:
#   the same blocks, each layout's misses;
# - one region of each variant recomputed apart from kbench: its units
#   (the boot's .blocks file) each disassembled by its own llvm-mc call,
#   priced by llvm-mca as src/backend/mca.c says (runs by size, the
#   difference of two runs over 20 instructions; rep movs/stos from AMD's
#   table; pushes and pops as moves; an instruction whose latency in
#   llvm-mca's own table is its placeholder, 100, at 1 cycle; of a unit
#   that ran fewer than 3 times in the boot, what llvm-mca would get at 1
#   cycle an instruction), each unit
#   on its own (no sharing by text), times their executions, plus 12 x L1i
#   misses + 40 x L2 misses: the sample's mca_cycles;
# - the CPU is named in the verdict table's header, report.md's and the
#   terminal's, and in summary.json; primary_metric = auto takes
#   mca_cycles, primary_metric = model_cycles moves the verdicts to it;
# - each verdict says whether the other cycle models give it too
#   (summary.json, the report's verdict table, the terminal's), and the
#   claim's word is supported only where every model supports it;
# - sandybridge's costs are priced afresh (its cost file removed first):
#   each boot's blocks in one batch at the boot's end, at most 8 llvm-mca
#   calls per 4,000 blocks (per measured region, it was some 100 calls a
#   boot);
# - a second run prices no block (llvm-mca called for none, llvm-mc not
#   even for a rare block) and gives the same mca_cycles, sample by sample;
# - sim_cpu = pentium9 is refused at its file:line;
# - without llvm-mca on PATH: a message naming Debian's package 'llvm',
#   and model_cycles alone.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "mca_cycles run"
needs_cmd llvm-mca "mca_cycles"
needs_cmd llvm-mc "mca_cycles"
needs_cmd jq "mca_cycles"
needs_cmd python3 "mca_cycles (the recomputation)"

conf() {	# conf FILE [CPU [KEY=VALUE...]]
	local f=$1 cpu=${2:-skylake}
	shift
	[ $# -gt 0 ] && shift
	write_tcg_conf "$f" backend=sim samples=2 workloads=getppid,pipe timeout=400 sim_virtual_layouts=4 \
		sim_l1i=32K:8:64 sim_l2=1M:16:64 sim_cpu=$cpu sim_cpu_alt=sandybridge seed=24 \
		output="$d/results" "$@" -- O2 Os
	printf '\n[claim]\ntext = -Os is faster\nfaster = Os vs O2 on getppid, pipe\n' >> "$f"
}
conf "$d/variants.conf" skylake primary_metric=auto
build_first "$d/variants.conf"
rm -f "$kernel_cache"/mca/llvm-*/sandybridge.v3*	# no other test prices for it
run_in "$d" "$KBENCH" run --no-color "$d/variants.conf"
check "kbench run exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/run.err" | tail -n 30; test_done; }
one=$run
grep 'backend sim' "$d/run.err" | sed 's/^/# /'
jq -c '{variant, mca}' "$one/boots.jsonl" | sed 's/^/# pricing: /'
check "sandybridge priced afresh, each boot's blocks in one batch: at most 8 llvm-mca calls per 4,000 blocks" \
	jq_all "$one/boots.jsonl" '(map(.mca.sandybridge.priced) | add) > 1000 and
	all(.[].mca.sandybridge; .calls <= 8 * ((.priced + .unpriced + 3999) / 4000 | floor))'

check "8 samples, each with mca_cycles and mca_cycles_alt, and each's 4 virtual layouts" jq_all "$one/samples.jsonl" '
	length == 8 and all(.[].fields; (.mca_cycles | type) == "number" and (.mca_cycles_alt | type) == "number" and
		(.vl_mca_cycles | length) == 4 and (.vl_mca_cycles_alt | length) == 4)'
check "the manifest records both models, and mca_cycles as the primary metric" jq_true "$one/manifest.json" '
	.sim.mca.cpu == "skylake" and .sim.mca.cpu_alt == "sandybridge" and (.sim.mca.model | test("llvm-mca")) and
	.sim.primary_metric == "mca_cycles"'
# in sim.jsonl, each line has its regions' block cycles: mca_cycles and its
# layouts are those plus the misses, as model_cycles weighs them
check "mca_cycles = block cycles + 12 x L1i misses + 40 x L2 misses, at the built addresses and in each virtual layout" \
	jq_all "$one/sim.jsonl" 'length == 8 and all(.[];
	def r: . + 0.5 | floor;
	(.mca_block_cycles + 12 * (.l1i_miss_k + .l1i_miss_u) + 40 * .l2_miss | r) == .mca_cycles and
	(.mca_block_cycles_alt + 12 * (.l1i_miss_k + .l1i_miss_u) + 40 * .l2_miss | r) == .mca_cycles_alt and
	([range(4) as $k | .mca_block_cycles + 12 * (.vl_l1i_miss_k[$k] + .vl_l1i_miss_u[$k]) +
		40 * (.vl_l2_miss_k[$k] + .vl_l2_miss_u[$k]) | r] == .vl_mca_cycles))'
check "the samples carry the figures of sim.jsonl" test \
	"$(jq -sc 'map({k: [.variant, .case, .rep], v: [.fields.mca_cycles, .fields.mca_cycles_alt]}) | sort_by(.k)' "$one/samples.jsonl")" = \
	"$(jq -sc 'map({k: [.variant, .case, .rep], v: [.mca_cycles, .mca_cycles_alt]}) | sort_by(.k)' "$one/sim.jsonl")"

# The recomputation, apart from kbench's code: one region of O2 (getppid)
# and one of Os (pipe, whose -Os copies use rep movs).
cat > "$d/price.py" <<'EOF'
import json, re, subprocess, sys, tempfile, os
blocks, cpu, seq = sys.argv[1], sys.argv[2], int(sys.argv[3])
units, xs, cur, execs = {}, [], [], {}
for line in open(blocks):
    f = line.split()
    if f[0] == 'b':
        units[int(f[1])] = (f[5], int(f[3]) + int(f[4]))
    elif f[0] == 'x':
        cur.append((int(f[2]), int(f[3])))
        execs[int(f[2])] = execs.get(int(f[2]), 0) + int(f[3])	# in every region of the boot
    elif f[0] == 'r':
        if int(f[1]) == seq:
            xs = cur
        cur = []
# each distinct unit alone through llvm-mc
cost, classes = {}, {}
def runs(n):	# (iterations, fewer): Total(it) / it, or the difference of two runs
    for most, it, fewer in ((20, 100, 0), (40, 16, 8), (80, 8, 4)):
        if n <= most:
            return it, fewer
    return 3, 2
SEG = ('%cs', '%ds', '%es', '%fs', '%gs', '%ss')
def stack(i):	# a push or pop as the store or load a stack engine issues
    m = re.match(r'(push|pop)l\s+(\S+)$', i)
    if not m or m.group(2) in SEG or not (m.group(2)[0] == '%' or (m.group(1) == 'push' and m.group(2)[0] == '$')):
        return i
    if m.group(2)[0] == '$':
        return 'movl\t$0, (%esp)'
    return 'movl\t%s, (%%esp)' % m.group(2) if m.group(1) == 'push' else 'movl\t(%%esp), %s' % m.group(2)
def disasm(hexs):	# llvm-mc's lines for bytes, comments (# imm = ...) and directives left out
    src = ' '.join('0x' + hexs[i:i + 2] for i in range(0, len(hexs), 2))
    out = subprocess.run(['llvm-mc', '--disassemble', '-triple=i386-linux-gnu'], input=src,
                         capture_output=True, text=True).stdout
    return [l.split('#')[0].strip() for l in out.splitlines()
            if l.split('#')[0].strip() and not l.strip().startswith('.')]
# each distinct unit as llvm-mc decodes it alone: all in one llvm-mc call,
# the units apart by a marker instruction (movl $0x6b62656e, %eax); x86
# decodes each instruction from its own bytes, so a unit's lines are those
# it gets alone, unless a unit runs into the marker (then the pieces do not
# come out one per unit, and each unit is decoded alone after all)
MARK = 'b86e65626b'
uids = sorted({u for u, _ in xs})
lines = disasm(MARK.join(units[u][0] for u in uids))
pieces, cur = [], []
for l in lines:
    if l == 'movl\t$1801610606, %eax':
        pieces.append(cur)
        cur = []
    else:
        cur.append(l)
pieces.append(cur)
if len(pieces) == len(uids) and all(pieces):
    units_ins = dict(zip(uids, pieces))
else:
    units_ins = {u: disasm(units[u][0]) for u in uids}
# LLVM's latency for every instruction met, from its own table (-iterations=1):
# 100 or more is its placeholder, priced 1 cycle as model_cycles does
distinct = sorted({i.split('#')[0].strip() for ins in units_ins.values() for i in ins})
with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as t:
    t.write('\n'.join(distinct) + '\n')
out = subprocess.run(['llvm-mca', '-mtriple=i386-linux-gnu', '-mcpu=' + cpu, '-iterations=1', '-resource-pressure=false', t.name],
                     capture_output=True, text=True).stdout
os.unlink(t.name)
rows = [l.split() for l in out[out.index('Instructions:\n', out.index('[1]')):].splitlines()[1:]]
lat = {}
for ins, r in zip(distinct, rows):
    lat[ins] = int(r[1])
for uid, ins in units_ins.items():
    n = units[uid][1]
    if len(ins) != n:
        cost[uid] = float(n)	# unreadable: one cycle an instruction
        continue
    fixed, rest = 0.0, []
    for i in ins:
        m = re.match(r'rep\s+(movs|stos)', i)
        if m:	# AMD 25112 table 6: start-up 15 (movs) or 14 (stos), 1 an element
            fixed += 1 if n == 1 else (15 if m.group(1) == 'movs' else 14)
        elif lat[i.split('#')[0].strip()] >= 100:
            fixed += 1
        else:
            rest.append(stack(i.split('#')[0].strip()))
    cost[uid] = fixed
    if execs[uid] < 3:	# ran once or twice in the boot: no steady state, one cycle each
        cost[uid] += len(rest)
    elif rest:
        classes.setdefault(runs(n), []).append((uid, rest))
def totals(us, it):
    with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as t:
        for uid, rest in us:
            t.write('# LLVM-MCA-BEGIN u%d\n%s\n# LLVM-MCA-END\n' % (uid, '\n'.join(rest)))
    out = subprocess.run(['llvm-mca', '-mtriple=i386-linux-gnu', '-mcpu=' + cpu, '-iterations=%d' % it, t.name],
                         capture_output=True, text=True).stdout
    os.unlink(t.name)
    name, tot = None, {}
    for l in out.splitlines():
        m = re.search(r'Code Region - u(\d+)', l)
        if m:
            name = int(m.group(1))
        m = re.match(r'Total Cycles:\s+(\d+)', l)
        if m and name is not None:
            tot[name] = int(m.group(1))
    return tot
for (it, fewer), us in classes.items():
    tb = totals(us, it)
    ta = totals(us, fewer) if fewer else None
    for uid, _ in us:
        if fewer and tb[uid] > ta[uid]:
            cost[uid] += (tb[uid] - ta[uid]) / (it - fewer)
        else:
            cost[uid] += tb[uid] / it
print('%.6f %d' % (sum(k * cost[u] for u, k in xs), len(cost)))
EOF
for pick in 'O2 getppid' 'Os pipe'; do
	set -- $pick
	line=$(jq -c "select(.variant == \"$1\" and .case == \"$2\" and .rep == 1)" "$one/sim.jsonl")
	seq=$(echo "$line" | jq .region) vb=$(echo "$line" | jq .vboot)
	for cpu in skylake sandybridge; do
		key=mca_cycles; [ $cpu = sandybridge ] && key=mca_cycles_alt
		got=$(python3 "$d/price.py" "$one/boots/$1-$vb.blocks" $cpu "$seq")
		want=$(echo "$line" | jq -r "\"\(.${key}) \(.l1i_miss_k + .l1i_miss_u) \(.l2_miss)\"")
		diag "$1 $2 region $seq, $cpu: blocks $got (cycles, distinct units); sample: $want (mca_cycles, L1i misses, L2 misses)"
		check "$1 $2: $key ($cpu) is its blocks priced apart by llvm-mc and llvm-mca, times executions, plus the misses" \
			awk -v g="$got" -v w="$want" 'BEGIN { split(g, a, " "); split(w, b, " ");
				x = int(a[1] + 12 * b[2] + 40 * b[3] + 0.5); exit !(a[2] > 10 && x == b[1]) }'
	done
done

# the CPU beside the metric, wherever the verdicts are shown
s=$one/summary.json
check "summary.json: the primary metric is mca_cycles, named with its CPU, and the others' models too" jq_true "$s" '
	.primary_metric == "mca_cycles_per_op" and
	(.metrics[] | select(.name == "mca_cycles_per_op") | .unit == "mca_cycles/op (LLVM skylake)" and .cycle_model) and
	(.metrics[] | select(.name == "mca_cycles_alt_per_op") | .unit == "mca_cycles_alt/op (LLVM sandybridge)") and
	(.metrics[] | select(.name == "model_cycles_per_op") | .cycle_model)'
check "report.md's verdict table: mca_cycles/op (modeled, LLVM skylake) in its header" \
	grep -q '^| case | variant | text vs O2 (measured) | mca\\_cycles/op (modeled, LLVM skylake) vs O2 \[95% CI\] |.*| under the other cycle models |$' "$one/report.md"
check "the terminal's verdict table: mca_cycles/op (modeled, LLVM skylake)" \
	grep -q '^mca_cycles/op (modeled, LLVM skylake) and text against O2' "$d/run.out"
check "report.html's forest plot: its axis says mca_cycles/op (modeled, LLVM skylake), as the tables do" \
	grep -qF '>ratio to O2 of mca_cycles/op (modeled, LLVM skylake)<' "$one/report.html"
check "summary.csv: the mca_cycles rows name their CPU" \
	grep -q '^"getppid","mca_cycles_per_op","mca_cycles/op (LLVM skylake)","modeled","Os"' "$one/summary.csv"
sed -n '/^mca_cycles/,/^case/p;/^getppid\|^pipe/p' "$d/run.out" | sed 's/^/# /'

# robustness: every verdict under each of the three cycle models
check "summary.json: each Os verdict on mca_cycles says whether model_cycles and sandybridge's mca_cycles give it too" \
	jq_true "$s" '[.results[] | select(.metric == "mca_cycles_per_op" and .variant == "Os")] | length == 2 and
	all(.[]; (.verdicts_by_model | keys | length) == 3 and
		.model_robust == (.verdicts_by_model | [.[]] | unique | length == 1) and
		.verdicts_by_model.mca_cycles_per_op == .verdict)'
check "summary.json: robustness lists the three models and the rows that flip" jq_true "$s" '
	.robustness.metrics == ["mca_cycles_per_op", "model_cycles_per_op", "mca_cycles_alt_per_op"] and
	.robustness.judged == 2 and .robustness.flips == ([.results[] | select(.model_robust == false)] | length) and
	(.robustness.flipped | length) == .robustness.flips'
check "the verdict tables say it: same, or flips and what the others say" sh -c "
	[ \$(grep -cE '^\| (getppid|pipe) \| Os \|.*\| (same|flips: model\\\\_cycles/op [a-z ]+, mca\\\\_cycles\\\\_alt/op \(LLVM sandybridge\) [a-z ]+) \|\$' '$one/report.md') -eq 2 ] &&
	[ \$(grep -cE '^(getppid|pipe) +Os .*  (same|flips)\$' '$d/run.out') -eq 2 ]"
jq -r '.results[] | select(.metric == "mca_cycles_per_op" and .variant == "Os") |
	"\(.case): ratio \(.ratio) \(.verdict); by model \(.verdicts_by_model)"' "$s" | sed 's/^/# /'
check "the claim's word: supported or contradicted only where every cycle model says so" jq_true "$s" '
	.claims[0] as $c | ($c.by_model | length) == 3 and $c.by_model[0].word != null and
	(if ([$c.by_model[].word] | unique | length) > 1 then $c.word == "not distinguishable" and
		($c.why | test("depends on the model of cycles"))
	 else $c.word == $c.by_model[0].word end)'
jq -r '.claims[0] | "claim faster: \(.word) (\(.why)); by model \(.by_model)"' "$s" | sed 's/^/# /'

# The same run with sandybridge's model made to halve Os's cycles: each
# verdict then flips with the model, and so does the claim's word.
mkdir -p "$d/flip"
cp "$one/manifest.json" "$one/boots.jsonl" "$d/flip/"
jq -c 'if .variant == "Os" then .fields.mca_cycles_alt |= (. / 2 | floor) |
	.fields.vl_mca_cycles_alt |= map(. / 2 | floor) else . end' "$one/samples.jsonl" > "$d/flip/samples.jsonl"
"$KBENCH" report --no-color "$d/flip" > "$d/flip.out" 2> "$d/flip.err"
f=$d/flip/summary.json
check "doctored: sandybridge calls Os faster in both cases, and both verdicts are marked as flipping" jq_true "$f" '
	.robustness.flips == 2 and ([.robustness.flipped[].case] | sort) == ["getppid", "pipe"] and
	all(.results[] | select(.metric == "mca_cycles_per_op" and .variant == "Os");
		.model_robust == false and .verdicts_by_model.mca_cycles_alt_per_op == "faster")'
check "doctored: report.md's verdict table and the terminal's say so" sh -c "
	[ \$(grep -cE '^\| (getppid|pipe) \| Os \|.*\| flips: model\\\\_cycles/op [a-z ]+, mca\\\\_cycles\\\\_alt/op \(LLVM sandybridge\) faster \|\$' '$d/flip/report.md') -eq 2 ] &&
	[ \$(grep -cE '^(getppid|pipe) +Os .*  flips\$' '$d/flip.out') -eq 2 ] &&
	grep -q '2 flip with the model (getppid, pipe)' '$d/flip/report.md'"
check "doctored: the claim 'Os is faster' is supported under sandybridge only, so its word is none" jq_true "$f" '
	.claims[0] | .word == "not distinguishable" and (.why | test("depends on the model of cycles")) and
	.by_model[2] == {"metric": "mca_cycles_alt_per_op", "word": "supported"} and .by_model[0].word != "supported"'
jq -r '.claims[0] | "doctored claim: \(.word) (\(.why))"' "$f" | sed 's/^/# /'

# The CPU's label comes from the run directory's manifest and reaches
# gnuplot (the forest plot's axis, kb_plot_text, which keeps its spaces
# and parentheses), HTML and Markdown: a doctored one, with a quote, a
# gnuplot command and markup, is refused on load (letters, digits, spaces
# and ._- only) and none of it reaches any of them.
mkdir -p "$d/label"
cp "$one/boots.jsonl" "$one/samples.jsonl" "$d/label/"
jq ".sim.mca.label = \"LLVM kbq'x; system('touch $d/pwned') <b>|x\"" "$one/manifest.json" > "$d/label/manifest.json"
"$KBENCH" report --no-color "$d/label" > "$d/label.out" 2> "$d/label.err"
rc=$?
check "a doctored CPU label: report exits 0, gnuplot ran nothing, the axis and tables go without it" sh -c \
	"[ $rc -eq 0 ] && [ ! -e '$d/pwned' ] &&
	 grep -qF '>ratio to O2 of mca_cycles/op (modeled)<' '$d/label/report.html' &&
	 grep -qF '| mca\\_cycles/op (modeled) vs O2 [95% CI] |' '$d/label/report.md' &&
	 ! grep -qE 'kbq|pwned' '$d/label/report.html' '$d/label/report.md'"

# again, the same kernels, verdicts on model_cycles: no block priced again
conf "$d/model.conf" skylake primary_metric=model_cycles
mkdir -p "$d/two"
run_in "$d/two" "$KBENCH" run --no-color "$d/model.conf"
check "primary_metric = model_cycles: kbench run exits 0 (got $rc)" test $rc -eq 0
two=$run
check "a second run calls llvm-mca for no block, nor llvm-mc for a rare one: each from the cache" jq_all "$two/boots.jsonl" '
	length == 2 and all(.[].mca[]; .calls == 0 and .priced == 0 and .cache_hits > 0 and .rare > 0 and
		.cpu_seconds == 0)'
check "and gives the same mca_cycles and mca_cycles_alt, sample by sample" test \
	"$(jq -sc 'map({k: [.variant, .case, .rep], v: .fields}) | sort_by(.k)' "$one/samples.jsonl")" = \
	"$(jq -sc 'map({k: [.variant, .case, .rep], v: .fields}) | sort_by(.k)' "$two/samples.jsonl")"
check "the verdicts are then model_cycles': summary.json, report.md and the terminal" sh -c "
	jq -e '.primary_metric == \"model_cycles_per_op\" and .robustness.metrics[0] == \"model_cycles_per_op\" and
		.claims[0].metric == \"model_cycles_per_op\"' '$two/summary.json' >/dev/null &&
	grep -q '^| case | variant | text vs O2 (measured) | model\\\\_cycles/op (modeled) vs O2 \[95% CI\] |' '$two/report.md' &&
	grep -q '^model_cycles/op (modeled) and text against O2' '$d/two/run.out'"

# a CPU llvm-mca does not know
conf "$d/bad.conf" pentium9
"$KBENCH" run "$d/bad.conf" > "$d/bad.out" 2> "$d/bad.err"
rc=$? line=$(grep -n '^sim_cpu = pentium9' "$d/bad.conf" | cut -d: -f1)
check "sim_cpu = pentium9: exit 2, $d/bad.conf:$line names it and what llvm-mca lists" sh -c "
	[ $rc -eq 2 ] && grep -q \"^$d/bad.conf:$line: 'sim_cpu': 'pentium9': not a CPU that llvm-mca -mtriple=i386-linux-gnu -mcpu=help lists\" '$d/bad.err'"
sed 's/^/# /' "$d/bad.err"

# no llvm-mca: every program on PATH but llvm-mc and llvm-mca
mkdir -p "$d/bin" "$d/three"
IFS=: ; for dir in $PATH; do
	for f in "$dir"/*; do
		b=${f##*/}
		case $b in llvm-mc|llvm-mc-*|llvm-mca|llvm-mca-*) continue ;; esac
		[ -e "$d/bin/$b" ] || ln -s "$f" "$d/bin/$b"
	done
done; unset IFS
run_in "$d/three" PATH="$d/bin" "$KBENCH" run --no-color "$d/variants.conf"
check "without llvm-mca: kbench run exits 0 (got $rc)" test $rc -eq 0
check "without llvm-mca: a message naming Debian's package 'llvm', and model_cycles alone" \
	grep -q "llvm-mca not found: install Debian package 'llvm' for the modeled cycles of LLVM's machine model (mca_cycles); model_cycles alone is used" "$d/three/run.err"
grep 'llvm' "$d/three/run.err" | sed 's/^/# /'
check "without llvm-mca: samples without mca_cycles, verdicts on model_cycles, no robustness" sh -c "
	jq -se 'length == 8 and all(.[].fields; has(\"model_cycles\") and (has(\"mca_cycles\") | not))' '$run/samples.jsonl' >/dev/null &&
	jq -e '.primary_metric == \"model_cycles_per_op\" and (has(\"robustness\") | not)' '$run/summary.json' >/dev/null &&
	jq -e '.sim.mca.missing | test(\"llvm\")' '$run/manifest.json' >/dev/null &&
	grep -q '^model_cycles/op (modeled) and text against O2' '$d/three/run.out'"
test_done
