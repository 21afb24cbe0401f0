#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual (kbench.1, made at build time from the command, option and
# backend tables) documents every command and every variants.conf key, and
# every command answers --help with its usage on stdout, exit 0.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
man=${KBENCH_MAN:-$TEST_BUILDDIR/../kbench.1}

# manq NAME: NAME as troff text has it (hyphens escaped), as a grep pattern
manq() { echo "$1" | sed 's/-/\\\\-/g'; }

check "kbench.1 was built ($man)" test -s "$man"

# The commands kbench --help lists, and the hidden one hyperfine times.
"$KBENCH" --help > "$d/help" 2>&1
cmds=$(sed -n 's/^  \([a-z-]*\)  .*/\1/p' "$d/help")
check "kbench --help lists commands" test -n "$cmds"
for c in $cmds boot-check; do
	check "man page has a section for '$c'" grep -qx ".SS \"kbench $(manq "$c")\"" "$man"
	"$KBENCH" "$c" --help > "$d/$c.out" 2> "$d/$c.err"
	rc=$?
	check "kbench $c --help: usage on stdout, exit 0 (got $rc)" sh -c \
		"[ $rc -eq 0 ] && grep -q '^usage: kbench $c' '$d/$c.out' && [ ! -s '$d/$c.err' ]"
	"$KBENCH" "$c" --no-such-option > /dev/null 2> "$d/$c.bad"
	rc=$?
	check "kbench $c --no-such-option: exit 2 (got $rc)" sh -c \
		"[ $rc -eq 2 ] && grep -q 'usage: kbench $c' '$d/$c.bad'"
done

# Every key --help-config lists, in every section and backend.
"$KBENCH" run --help-config > "$d/keys" 2>&1
keys=$(sed -n 's/^  \([a-z_0-9]*\) .*/\1/p' "$d/keys")
n=$(echo "$keys" | wc -w)
check "--help-config lists keys ($n)" test "$n" -gt 30
missing=
for k in $keys; do
	grep -qx ".B $(manq "$k")" "$man" || missing="$missing $k"
done
check "every key is documented in kbench.1${missing:+ (missing:$missing)}" test -z "$missing"
for b in $(sed -n 's/^\([a-z-]*\) (\(primary\|overlay\|stage\), .*/\1/p' "$d/keys"); do
	check "backend '$b' has a section" grep -qx ".SS \"$(manq "$b")\"" "$man"
done

if command -v groff > /dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$man" > "$d/groff.err" 2>&1
	check "groff renders it without a warning" test ! -s "$d/groff.err"
else
	skip "needs:groff" "groff renders it without a warning"
fi
test_done
