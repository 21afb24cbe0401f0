#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No dependency cycle between files but those tests/cycles.allow lists
# (issue 23, item 2): tests/cycles.sh over the objects kbench is linked
# from, and over planted objects that make a cycle, to show it fails then.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
src=$TEST_BUILDDIR/../src
cycles=$TEST_SRCDIR/cycles.sh
needs_cmd "${NM:-nm}" "cycles between files"

sh "$cycles" -a "$TEST_SRCDIR/cycles.allow" "$src/libkbench.a" "$src/cmd/kbench-kbench.o" > "$d/out" 2>&1
rc=$?
sed 's/^/# /' "$d/out"
check "no cycle between kbench's files but those cycles.allow lists (rc $rc)" test $rc -eq 0

# cc_obj NAME CODE: the object NAME.o compiled from CODE
cc_obj() { printf '%s\n' "$2" > "$d/$1.c" && ${CC:-cc} -c -o "$d/$1.o" "$d/$1.c"; }
cc_obj alpha 'int beta(int); int alpha(int n) { return n ? beta(n - 1) : 0; }'
cc_obj beta 'int alpha(int); int beta(int n) { return n ? alpha(n - 1) : 1; }'
cc_obj gamma 'int alpha(int); int gamma(int n) { return alpha(n); }'

sh "$cycles" "$d/alpha.o" "$d/beta.o" "$d/gamma.o" > "$d/planted" 2>&1
rc=$?
sed 's/^/# /' "$d/planted"
check "a planted cycle fails (rc $rc)" test $rc -eq 1
check "it names both files, not the one outside" sh -c \
	"grep -qx 'cycle, 2 files: alpha.c beta.c' '$d/planted' && ! grep -q gamma '$d/planted'"
check "it names the symbol of each edge" sh -c \
	"grep -qx '  alpha.c -> beta.c: beta' '$d/planted' && grep -qx '  beta.c -> alpha.c: alpha' '$d/planted'"

sh "$cycles" "$d/alpha.o" "$d/gamma.o" > "$d/acyclic" 2>&1
check "no cycle: exit 0, nothing printed" sh -c "[ $? -eq 0 ] && [ ! -s '$d/acyclic' ]"

printf '# planted\nbeta.c  alpha.c\n' > "$d/allow"
sh "$cycles" -a "$d/allow" "$d/alpha.o" "$d/beta.o" "$d/gamma.o" > "$d/allowed" 2>&1
check "a cycle the allow list names passes" sh -c "[ $? -eq 0 ] && grep -q '^allowed cycle' '$d/allowed'"

printf 'alpha.c beta.c\nalpha.c beta.c gamma.c\n' > "$d/stale"
sh "$cycles" -a "$d/stale" "$d/alpha.o" "$d/beta.o" "$d/gamma.o" > "$d/staled" 2>&1
check "an allow line no cycle matches fails, named" sh -c \
	"[ $? -eq 1 ] && grep -q ':2: no such cycle any more' '$d/staled'"
test_done
