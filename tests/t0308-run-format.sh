#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run directory's format number (issue 23, item 3): manifest.json and
# summary.json say which layout they have ("format", rundir.h); kbench
# report and compare read a run without one (format 0, from before) as they
# always did, and refuse a run of a newer format with a message saying so,
# exit status 1, nothing written.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_python 'json, random' python3 "synthetic run directories"
needs_cmd jq "synthetic run directories"

# mk NAME: a synthetic run directory without a format (as before)
mk() { "$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/$1\", \"seed\": 4, \"boots\": 4, \"noise\": 0.03,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1500000, \"factor\": 0.9}]}"; }
# with_format NAME N: its manifest.json says format N
with_format() { jq ". + {format: $2}" "$d/$1/manifest.json" >"$d/m" && mv "$d/m" "$d/$1/manifest.json"; }

mk old
"$KBENCH" report "$d/old" >/dev/null 2>"$d/err"
check "a run without a format is reported (format 0, as before)" test -s "$d/old/summary.json"
check "summary.json says its own format, first" jq_true "$d/old/summary.json" \
	'(keys_unsorted[0] == "format") and (.format | type == "number") and .format >= 1'
check "boot_timing has no format of its own" jq_true "$d/old/summary.json" \
	'(.boot_timing // {}) | has("format") | not'
f=$(jq .format "$d/old/summary.json")

mk same
with_format same "$f"
"$KBENCH" report "$d/same" >/dev/null 2>"$d/err"
check "a run of this kbench's format is reported" test -s "$d/same/summary.json"
check "with the same figures as one without" sh -c \
	"jq -S 'del(.run_id)' '$d/old/summary.json' >'$d/a' && jq -S 'del(.run_id)' '$d/same/summary.json' >'$d/b' && cmp -s '$d/a' '$d/b'"
"$KBENCH" compare "$d/old" "$d/same" >/dev/null 2>"$d/err"
check "compare reads a format-0 run beside a current one (rc $?)" test $? -eq 0

mk new
with_format new 99
fails_naming "report refuses a run of a newer format" "$d/new" "$KBENCH" report "$d/new"
check "and says so" grep -qF "written by a newer kbench (format 99; this one reads up to $f)" "$d/err"
check "and writes no report" test ! -e "$d/new/summary.json"
fails_naming "compare refuses it as its first run" "$d/new" "$KBENCH" compare "$d/new" "$d/old"
check "and says so" grep -qF "written by a newer kbench (format 99; this one reads up to $f)" "$d/err"
fails_naming "compare refuses it as its second run" "$d/new" "$KBENCH" compare "$d/old" "$d/new"

# a resume, too, leaves a newer kbench's run alone: nothing of it is touched
cp "$d/new/manifest.json" "$d/new.manifest"
"$KBENCH" run --resume "$d/new" > "$d/got" 2> "$d/err"
rc=$?
check "run --resume refuses a run of a newer format (rc $rc), naming it" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"'$d/new': written by a newer kbench (format 99; this one reads up to $f)\" '$d/err' &&
	 cmp -s '$d/new.manifest' '$d/new/manifest.json' && [ ! -e '$d/.kbench.lock' ]"

mk bad
with_format bad '"one"'
fails_naming "a format that is not a number is refused" "$d/bad" "$KBENCH" report "$d/bad"

test_done
