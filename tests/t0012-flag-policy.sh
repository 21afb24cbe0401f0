#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compiler flags that make the driver run or load another program, take
# options from a file or write outside the build (issue 22, item 2).
# Before: the check looked at characters only, so
# "hybrid_cflags = -wrapper flock,CANARY" had flock create CANARY during the
# build.  Now kcflags, cc and hybrid_cflags are refused at file:line before
# anything is built (no file appears), unless [kernel] unsafe_flags = yes,
# which the report then states; cc must name gcc or clang, and say so when
# asked --version (a name that is not a compiler's is never run).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
cd "$d" || exit 1

# refused NAME LINE PATTERN CONTENT: expect_error (lib.sh), and no CANARY
# file was made
refused() {
	expect_error "$@"
	if [ -e "$d/CANARY" ]; then
		not_ok "$1: the build ran a program: CANARY made"
		rm -f "$d/CANARY"
	fi
}
two='[variant a]\n[variant b]\nconfig = CC_OPTIMIZE_FOR_SIZE=y\n'
hy="$two"'[variant h]\nhybrid = a b kernel/\n'

refused wrapper 4 "'kcflags': '-wrapper': runs another program" "$two"'kcflags = -O2 -wrapper flock,CANARY\n'
refused hywrapper 6 "'hybrid_cflags': '-wrapper'.*unsafe_flags = yes" "$hy"'hybrid_cflags = -wrapper flock,CANARY\n'
refused plugin 6 "'hybrid_cflags': '-fplugin=./x.so': loads a plugin" "$hy"'hybrid_cflags = -fplugin=./x.so\n'
refused pluginarg 4 "'kcflags': '-fplugin-arg-x-y=1': loads a plugin" "$two"'kcflags = -fplugin-arg-x-y=1\n'
refused bdir 4 "'kcflags': '-B': the driver runs" "$two"'kcflags = -B /tmp\n'
refused battached 4 "'kcflags': '-B/tmp/'" "$two"'kcflags = -B/tmp/\n'
refused specs 4 "'kcflags': '-specs=x.specs': a spec file" "$two"'kcflags = -specs=x.specs\n'
refused atfile 4 "'kcflags': '@opts': takes more options from a file" "$two"'kcflags = @opts\n'
refused output 4 "'kcflags': '-o': writes the output elsewhere" "$two"'kcflags = -o /tmp/x.o\n'
refused sysroot 4 "'kcflags': '--sysroot=/tmp': a long driver option" "$two"'kcflags = --sysroot=/tmp\n'
# gcc and clang take abbreviations of long options: --sys is --sysroot
refused abbrev 4 "'kcflags': '--sys=/tmp': a long driver option" "$two"'kcflags = --sys=/tmp\n'
refused assembler 4 "'kcflags': '-Wa,-o,/tmp/x': passes options to the assembler" "$two"'kcflags = -Wa,-o,/tmp/x\n'
refused xclang 4 "'kcflags': '-Xclang'" "$two"'kcflags = -Xclang -load -Xclang x.so\n'
refused dump 4 "'kcflags': '-fdump-tree-all=/tmp/d': writes a dump" "$two"'kcflags = -fdump-tree-all=/tmp/d\n'
refused infile 4 "'kcflags': 'extra.c': not an option" "$two"'kcflags = -O2 extra.c\n'
refused ccwrapper 4 "'cc': '-wrapper'" "$two"'cc = gcc -wrapper flock,CANARY\n'
refused ccname 4 "'cc': 'flock': not the name of a compiler" "$two"'cc = flock\n'
refused ccmissing 4 "'cc': '/nonexistent/gcc' is not a compiler kbench can run" "$two"'cc = /nonexistent/gcc\n'
# a program named like a compiler that is not one: asked --version
mkdir -p "$d/bin"
printf '#!/bin/sh\necho "fake 1.0"\n' > "$d/bin/gcc-99"
chmod +x "$d/bin/gcc-99"
refused ccfake 4 "'cc': '$d/bin/gcc-99' is not gcc or clang (its --version says 'fake 1.0')" \
	"$two"'cc = '"$d"'/bin/gcc-99\n'
# [kernel] unsafe_flags may come after the flags it allows; only "yes" allows
refused unsafeno 4 "'kcflags': '-wrapper'" "$two"'kcflags = -wrapper x\n[kernel]\nunsafe_flags = no\n'
refused unsafebad 2 "'unsafe_flags'" '[kernel]\nunsafe_flags = maybe\n[variant a]\n'

# taken NAME CONTENT DESC: only the deliberate "boots = 0" error is reported
taken() { expect_taken "$1" 2 "$3" "[run]\nboots = 0\n$2"; }
taken usual "$two"'kcflags = -fno-inline-functions-called-once --param=max-inline-insns-single=100 --param inline-unit-growth=20 -falign-functions=1 -D KB_X=1 -I include -x c -fdump-tree-optimized=stderr\ncc = gcc\n' \
	"usual flags (-f..., --param, -D, -I, -x) and cc = gcc are taken"
if command -v clang > /dev/null; then
	taken clang "$two"'cc = clang\n' "cc = clang is taken"
else
	skip "needs:clang" "cc = clang is taken"
fi
taken unsafe "$two"'kcflags = -wrapper flock,CANARY -fplugin=x.so\n[kernel]\nunsafe_flags = yes\n' \
	"with [kernel] unsafe_flags = yes, later in the file: taken"

# what the manifest records of it, and the report's statement
needs_python 'json' python3 "the report's statement"
"$PY" "$TEST_SRCDIR/mkrun.py" "{\"dir\": \"$d/run\", \"seed\": 3, \"boots\": 3, \"samples\": 3,
  \"cases\": [{\"workload\": \"getppid\", \"case\": \"getppid\", \"ns\": 400}],
  \"variants\": [{\"name\": \"O2\", \"text\": 2000000}, {\"name\": \"Os\", \"text\": 1500000}]}"
"$KBENCH" report "$d/run" > /dev/null 2> "$d/report.err"
check "without unsafe_flags the report says nothing of it" sh -c "! grep -q unsafe_flags '$d/run/report.md'"
"$PY" - "$d/run/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["unsafe_flags"] = [{"variant": "Os", "key": "kcflags", "flag": "-fplugin=x.so",
                      "why": "loads a plugin into the compiler"}]
json.dump(m, open(sys.argv[1], "w"))
PY
"$KBENCH" report "$d/run" > /dev/null 2> "$d/report.err"
# (Markdown escapes '[', ']' and '_')
check "the report states unsafe_flags = yes and each flag it let through" \
	grep -q "unsafe\\\\_flags = yes: .*variant Os, kcflags '-fplugin=x.so' (loads a plugin into the compiler)" "$d/run/report.md"
check "summary.json lists it among the caveats" \
	sh -c "jq -e '.caveat_ids | index(\"unsafe_flags\")' '$d/run/summary.json' > /dev/null"
test_done
