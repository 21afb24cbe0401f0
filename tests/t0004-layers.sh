#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The include graph of src/ points down (issue 23, item 7): tests/layers.sh
# over the tree as it is, then over copies with a breach planted in each
# way one can happen, to show it fails then and names the file and line.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
top=$TEST_SRCDIR/..
layers=$TEST_SRCDIR/layers.sh

sh "$layers" "$top/src" > "$d/out" 2>&1
rc=$?
sed 's/^/# /' "$d/out"
check "src/ as it is: every include points to its own layer or one below (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$d/out' ]"
check "there are layers: src/base/README and src/cmd/README" \
	test -f "$top/src/base/README" -a -f "$top/src/cmd/README"

# copy: a copy of src/'s READMEs and sources in $d/$1
copy() {
	rm -rf "$d/$1"
	for dir in "$top"/src/*/; do
		l=${dir%/}
		l=${l##*/}
		mkdir -p "$d/$1/$l" &&
		for f in "$dir"README "$dir"*.c "$dir"*.h "$dir"*.def; do
			[ -f "$f" ] && echo "$f"
		done | tr '\n' '\0' | xargs -0 -r cp -t "$d/$1/$l/"
	done
}
# breach NAME EXPECTED: layers.sh fails on copy NAME and prints EXPECTED
breach() {
	sh "$layers" "$d/$1" > "$d/$1.out" 2>&1
	rc=$?
	sed 's/^/# /' "$d/$1.out"
	check "$1: refused (rc $rc), naming it" sh -c "[ $rc -eq 1 ] && grep -qF '$2' '$d/$1.out'"
}

copy same
check "a copy of src/ passes as the tree does" sh "$layers" "$d/same"

copy up
n=$(grep -n '^#include "util.h"' "$d/up/base/stats.c" | cut -d: -f1)
sed -i "${n}a #include \"commands.h\"" "$d/up/base/stats.c"
breach up "$d/up/base/stats.c:$((n + 1)): includes \"commands.h\" of layer \"cmd\", which layer \"base\" may not include"

copy sideways
n=$(grep -n '^#include "record.h"' "$d/sideways/vm/vm.c" | cut -d: -f1)
sed -i "${n}a #include \"sim.h\"" "$d/sideways/vm/vm.c"
breach sideways "$d/sideways/vm/vm.c:$((n + 1)): includes \"sim.h\" of layer \"backend\", which layer \"vm\" may not include"

copy cycle
sed -i 's/^May include:.*/May include: cmd./' "$d/cycle/base/README"
breach cycle 'which may include it in turn: a cycle'

copy path
printf '#include "../run/run.h"\n' >> "$d/path/report/report.c"
breach path 'includes "../run/run.h" by a path'

copy stray
printf 'int stray;\n' > "$d/stray/stray.c"
breach stray "$d/stray/stray.c: not in a layer"

copy unknown
printf '#include "nowhere.h"\n' >> "$d/unknown/cmd/kbench.c"
breach unknown 'includes "nowhere.h", which no layer holds'

copy noline
sed -i '/^May include:/d' "$d/noline/model/README"
breach noline "$d/noline/model/README: no \"May include:\" line"
test_done
