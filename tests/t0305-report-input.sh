#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench report on crafted run directories (issue 12, items 2, 11 and 12):
# lines it cannot use are dropped, counted and said, never silently and
# never at the cost of the lines after them; names that are not plain names
# never reach the report; a file that is not a regular one stops it at once.
#   - samples.jsonl with a NUL byte in the middle, an overlong line, a line
#     that is no JSON and duplicated (boot, case, rep) lines: the figures
#     are the clean run's, the counts are said in summary.json and the
#     report.  (Before: the NUL hid every later line, duplicates counted
#     twice, without a word.)
#   - markup, gnuplot quotes and control characters in a variant, case,
#     workload, field and backend name, in samples.jsonl, boots.jsonl,
#     timing.jsonl and manifest.json: dropped and counted; the report holds
#     none of them and gnuplot runs nothing.
#   - samples.jsonl, boots.jsonl, manifest.json, timing.jsonl or sim.jsonl a
#     symlink to /dev/zero or /dev/urandom, or a FIFO: exit 1 at once, the
#     file named.  (Before: /dev/zero allocated until killed.)
#   - a claim (manifest.json "claim") with markup in its text and source, a
#     prediction of an unknown kind, a variant and a case that are not plain
#     names: escaped as data; the bad ones dropped and counted.
#   - the slab allocator in the manifest (issue 32): one where the variants
#     agree, per variant where not, markup never taken, none unsaid.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "crafted run directories"
needs_cmd jq "crafted run directories"

"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/clean\", \"seed\": 4, \"boots\": 5, \"samples\": 3, \"noise\": 0.03,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400, \"counts\": {\"instructions\": 250}},
	    {\"workload\": \"icache\", \"case\": \"icache/k=16\", \"ns\": 700}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1500000, \"factor\": 0.9},
	       {\"name\": \"O3\", \"text\": 2100000, \"factor\": 1.05}]}"
"$KBENCH" report "$d/clean" >/dev/null 2>"$d/clean.err"
check "the clean run is reported" test -s "$d/clean/summary.json"
n=$(wc -l <"$d/clean/samples.jsonl")

# figures FILE: summary.json without the counts of what was left out
figures() { jq -S 'del(.torn_lines, .dropped)' "$1"; }
same_figures() { figures "$d/clean/summary.json" >"$d/want" && figures "$1/summary.json" >"$d/got" && cmp -s "$d/want" "$d/got"; }

# ---- a NUL byte, an overlong line, no JSON, duplicates ----
cp -r "$d/clean" "$d/bad"
"$PY" - "$d/clean/samples.jsonl" "$d/bad/samples.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
mid = len(lines) // 2
out = lines[:mid]
# a copy of a line with a NUL byte inside: refused, and the lines after it read
out.append(lines[mid][:20] + b"\0" + lines[mid][20:])
out.append(b'{"variant": "O2", "pad": "' + b"x" * (2 << 20) + b'"}\n')	# overlong
out.append(b"not json at all\n")
out += lines[mid:]
# duplicates: the same line again, and the same (boot, case, rep) with another value
out.append(lines[3])
dup = json.loads(lines[7])
dup["ns_per_op"] *= 50
out.append((json.dumps(dup) + "\n").encode())
open(sys.argv[2], "wb").writelines(out)
PY
"$KBENCH" report "$d/bad" >/dev/null 2>"$d/bad.err"
rc=$?
check "a NUL byte, an overlong line, no JSON and duplicates: report written (exit $rc)" test $rc -eq 0
check "every figure is the clean run's: the lines after the NUL byte are read, duplicates once" same_figures "$d/bad"
check "summary.json counts 3 skipped lines and 2 duplicates" \
	jq_true "$d/bad/summary.json" '.torn_lines.samples == 3 and .dropped.duplicate_samples == 2 and
		([.results[] | select(.metric == "ns_per_op") | .samples] | add) == '"$n"
check "the report says both" sh -c \
	"grep -qF '3 torn or invalid lines were skipped (cut short, longer than 1048576 bytes, holding a NUL byte, or not a JSON object): 3 in samples.jsonl' '$d/bad/report.md' &&
	 grep -qF '2 duplicate sample lines were dropped' '$d/bad/report.md' &&
	 grep -qF '2 duplicate sample lines were dropped' '$d/bad/report.html'"
check "a clean run's summary.json has no dropped key" jq_true "$d/clean/summary.json" 'has("dropped") | not'

# ---- names that are not plain names ----
cp -r "$d/clean" "$d/names"
"$PY" - "$d/names" <<'PY'
import json, sys
d = sys.argv[1]
evil = ["<script>alert(1)</script>", "x'\nsystem 'touch " + d + "/pwned'\n#", "a`id`b", "tab\there",
        "esc\x1b[31mred", "..", "-dash", ".dot", "v" * 65, "", "new\nline", "pipe|cell"]
man = json.load(open(d + "/manifest.json"))
man["variants"].append({"name": evil[0], "status": "built", "size": {"text": 1, "data": 1, "bss": 1}})
man["run"]["workloads"] += ",<b>wl</b>"
json.dump(man, open(d + "/manifest.json", "w"))
base = json.loads(open(d + "/samples.jsonl").readline())
lines = []
def sample(**kw):
    s = dict(base, **kw)
    lines.append(json.dumps(s))
for i, e in enumerate(evil):
    sample(variant=e, rep=100 + i)
    sample(workload=e, case="getppid", rep=200 + i)
    sample(case=e, rep=300 + i)
    sample(case="getppid/k=" + e, rep=400 + i)
    sample(fields={e: 5}, rep=500 + i)
    sample(backend=e or "x y", rep=600 + i)
sample(case=7, rep=700)
sample(case="getppid/k=12345678901234567890123", rep=701)
with open(d + "/samples.jsonl", "a") as f:
    f.write("\n".join(lines) + "\n")
with open(d + "/boots.jsonl", "a") as f:
    for e in evil[:3]:
        f.write(json.dumps({"variant": e, "boot": 99, "status": "timeout", "reason": "r", "serial": "s"}) + "\n")
with open(d + "/timing.jsonl", "w") as f:
    f.write(json.dumps({"variant": evil[1], "status": "failed", "runs": 1, "ok": 0, "failed": 1}) + "\n")
PY
KBENCH_GNUPLOT=${KBENCH_GNUPLOT:-} "$KBENCH" report "$d/names" >/dev/null 2>"$d/names.err"
rc=$?
check "names that are not plain names: report written (exit $rc)" test $rc -eq 0
check "every figure is the clean run's" same_figures "$d/names"
# 12 names in 6 places of a sample line, and 2 odd cases (a number, a k too long)
check "summary.json counts what was dropped, file by file" \
	jq_true "$d/names/summary.json" '.dropped == {duplicate_samples: 0,
		names: {manifest: 2, samples: 74, boots: 3, timing: 1, sim: 0}}'
check "the report says it" grep -qF '78 lines were dropped for a variant, case, workload, field or backend name that is not a plain name: 74 in samples.jsonl, 3 in boots.jsonl, 1 in timing.jsonl, 0 in sim.jsonl; and 2 variants or workloads of manifest.json.' "$d/names/report.md"
check "no report holds any of them, and gnuplot ran nothing" sh -c \
	"[ ! -e '$d/names/pwned' ] && ! grep -lE 'alert|touch|b.wl|a.id.b|tab.here|31mred|pipe.cell|vvvvvvvvvvvvvvvvvvvv' \
		'$d/names/report.md' '$d/names/report.html' '$d/names/summary.csv' '$d/names/summary.json'"

# ---- files that are not regular files ----
# not_regular NAME FILE TARGET: FILE a symlink to TARGET (or a FIFO for
# "fifo"); report and compare end at once, exit 1, naming FILE
not_regular() {
	local name=$1 file=$2 target=$3 run=$d/special rc
	rm -rf "$run" && cp -r "$d/clean" "$run" && rm -f "$run/$file"
	if [ "$target" = fifo ]; then mkfifo "$run/$file"; else ln -s "$target" "$run/$file"; fi
	timeout 30 "$KBENCH" report "$run" >/dev/null 2>"$d/err"
	rc=$?
	check "$name: report exits 1 at once (exit $rc), naming the file" sh -c \
		"[ $rc -eq 1 ] && grep -qF \"'$run/$file'\" '$d/err' && grep -q 'not a regular file' '$d/err'"
	timeout 30 "$KBENCH" compare "$d/clean" "$run" >/dev/null 2>"$d/err"
	rc=$?
	check "$name: compare too (exit $rc)" sh -c "[ $rc -eq 1 ] && grep -qF \"'$run/$file'\" '$d/err'"
}
not_regular "samples.jsonl a symlink to /dev/zero" samples.jsonl /dev/zero
not_regular "samples.jsonl a FIFO" samples.jsonl fifo
not_regular "boots.jsonl a symlink to /dev/zero" boots.jsonl /dev/zero
# the manifest's own words (why so many boots) are data in both reports
cp -r "$d/clean" "$d/why"
jq '.run.boots = 5 | .run.boots_why = "see [here](javascript:alert(1)) <script>x</script> | *bold*"' \
	"$d/clean/manifest.json" > "$d/why/manifest.json"
"$KBENCH" report "$d/why" > /dev/null 2> "$d/why.err"
rc=$?
check "boots_why from the manifest: escaped in report.md and report.html (exit $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -qF '5 boots per variant: see \\[here\\](javascript:alert(1)) \\<script\\>x\\</script\\> \\| \\*bold\\*.' '$d/why/report.md' &&
	 grep -qF 'see [here](javascript:alert(1)) &lt;script&gt;x&lt;/script&gt; | *bold*.' '$d/why/report.html' &&
	 ! grep -q '<script>' '$d/why/report.html'"
# a claim from the manifest ([claim]) is data too; names that are not plain
# ones (a variant, a case) are dropped and counted, never shown
cp -r "$d/clean" "$d/claim"
jq '.claim = {"text": "<script>x</script> | *fast*", "source": "[src](javascript:alert(1))", "date": "2004",
	"predictions": [{"kind": "smaller", "a": "Os", "b": "O2", "cases": ["all"]},
			{"kind": "faster", "a": "Os", "b": "O2", "cases": ["getppid", "<b>x</b>"]},
			{"kind": "faster", "a": "<i>Os</i>", "b": "O2", "cases": ["all"]},
			{"kind": "rm -rf", "a": "Os", "b": "O2", "cases": ["all"]}]}' \
	"$d/clean/manifest.json" > "$d/claim/manifest.json"
"$KBENCH" report "$d/claim" > /dev/null 2> "$d/claim.err"
rc=$?
check "a crafted claim: escaped, its bad predictions and names dropped and counted (exit $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -qF 'The claim: \"\\<script\\>x\\</script\\> \\| \\*fast\\*\"' '$d/claim/report.md' &&
	 ! grep -q '<script>\\|<b>x\\|<i>Os' '$d/claim/report.html' &&
	 jq -e '(.claims | length == 2) and .claims[1].cases == [\"getppid\"] and .dropped.names.manifest == 3' \
		'$d/claim/summary.json' > /dev/null"

# a variant's description (variants.conf, shown in the variants table) is
# data too: escaped in both reports, its '|' never a column of the table
cp -r "$d/clean" "$d/desc"
jq '.variants[1].description = "<script>x</script> | *small*"' "$d/clean/manifest.json" > "$d/desc/manifest.json"
"$KBENCH" report "$d/desc" > /dev/null 2> "$d/desc.err"
rc=$?
check "a crafted variant description: escaped in report.md and report.html (exit $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -qF '\\<script\\>x\\</script\\> \\| \\*small\\*' '$d/desc/report.md' &&
	 grep -qF '&lt;script&gt;x&lt;/script&gt; | *small*' '$d/desc/report.html' &&
	 ! grep -q '<script>' '$d/desc/report.html'"

not_regular "manifest.json a symlink to /dev/zero" manifest.json /dev/zero
not_regular "manifest.json a FIFO" manifest.json fifo
not_regular "timing.jsonl a FIFO" timing.jsonl fifo
not_regular "sim.jsonl a symlink to /dev/urandom" sim.jsonl /dev/urandom
# the slab allocator (issue 32): each variant's from its .config in the
# manifest; where they differ, said per variant; a value kbench never
# writes (markup) is not taken, and no variant's name outside plain names
# reaches the text
alloc() {	# alloc NAME JQ: the clean run with the manifest's variants changed
	mkdir -p "$d/alloc-$1"
	cp "$d/clean/samples.jsonl" "$d/clean/boots.jsonl" "$d/alloc-$1/"
	jq "$2" "$d/clean/manifest.json" > "$d/alloc-$1/manifest.json"
	"$KBENCH" report "$d/alloc-$1" > /dev/null 2> "$d/alloc-$1.err"
}
alloc same '.variants[].allocator = "SLUB"'
alloc mixed '.variants[0].allocator = "SLUB" | .variants[1].allocator = "SLOB"'
alloc hostile '.variants[0].allocator = "<b>SLUB</b>" | .variants[1].allocator = "SLUB_TINY"'
alloc none 'del(.variants[].allocator)'
check "allocator: one where the variants agree, said with what it is to a lab" sh -c \
	"jq -e '.kernel.allocator == \"SLUB\"' '$d/alloc-same/summary.json' > /dev/null &&
	 grep -q 'slab allocator SLUB: the only one from Linux 6.8 on, and what the labs run)' '$d/alloc-same/report.md'"
check "allocator: per variant where they differ (O2 SLUB, Os SLOB)" sh -c \
	"jq -e '.kernel.allocator == \"O2 SLUB, Os SLOB\"' '$d/alloc-mixed/summary.json' > /dev/null &&
	 grep -q 'slab allocator O2 SLUB, Os SLOB)' '$d/alloc-mixed/report.md'"
check "allocator: markup is not an allocator (only SLUB_TINY taken), none recorded is null and unsaid" sh -c \
	"jq -e '.kernel.allocator == \"SLUB_TINY\"' '$d/alloc-hostile/summary.json' > /dev/null &&
	 ! grep -q '<b>' '$d/alloc-hostile/report.md' '$d/alloc-hostile/report.html' &&
	 jq -e '.kernel.allocator == null' '$d/alloc-none/summary.json' > /dev/null &&
	 ! grep -q 'slab allocator' '$d/alloc-none/report.md'"
test_done
