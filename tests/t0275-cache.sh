#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The build cache as a lab sees it (issue 32, item 5), on a cache of its
# own, with no kernel built:
#   - copies of one git work tree share the files a commit did not change:
#     three commits of a small tree (Makefile, Kconfig, 40 files), each
#     copied by kbench build (which then fails at tinyconfig: the tree is
#     no kernel); a later copy hard-links every file unchanged since the
#     one before and copies the changed one; the lab's tree is untouched;
#   - kbench cache lists each source with its bytes, counting a shared file
#     once (its total is du's, which counts hard links once too), its last
#     use and how many runs refer to it;
#   - kbench cache prune removes what no run directory refers to, keeps
#     what one does, what was used in the last ten minutes and what a
#     living kbench is making, removes what a killed one left; --dry-run
#     removes nothing; --older-than DAYS goes by last use, --keep-runs
#     keeps the referred-to; a wrong action or value is a usage error;
#   - what the listing shows from the cache's files and names is inert on
#     a terminal (control bytes as '?');
#   - two builds unpacking one tarball at once leave one tree, no
#     NAME.tmp.PID (the loser's copy is removed).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_cmd git "the build cache"
needs_cmd du "the build cache"

t=$d/tree c=$d/cache
mkdir -p "$t/kernel" "$c"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' > "$t/Makefile"
echo 'config KBENCH_T0275' > "$t/Kconfig"
i=0
while [ $i -lt 40 ]; do
	i=$((i + 1))
	# 16 KiB of distinct text each: a copy of the tree is some 650 KiB
	awk -v i=$i 'BEGIN { for (l = 0; l < 256; l++) printf "/* file %d line %d %s */\n", i, l, "................................" }' \
		> "$t/kernel/f$i.c"
done
g() { git -C "$t" -c user.name=kbench -c user.email=kbench@localhost "$@"; }
g init -q && g add -A && g commit -q -m one || skip_all "needs:git that can commit" "the build cache"
printf '[kernel]\nsource = %s\ncache = %s\n[run]\nbackend = sim\noutput = %s\n[variant O2]\nconfig = CC_OPTIMIZE_FOR_PERFORMANCE=y\n' \
	"$t" "$c" "$d/results" > "$d/v.conf"
copy() {	# copy N: kbench build copies the tree (and fails to configure it)
	"$KBENCH" build "$d/v.conf" > "$d/b$1.out" 2> "$d/b$1.err"
	sed -n "s|.*copying its files into \(.*\) (once.*|\1|p" "$d/b$1.err"
}
c1=$(copy 1)
echo "/* a change */" >> "$t/kernel/f7.c"
g commit -q -am two
c2=$(copy 2)
echo "/* another */" >> "$t/kernel/f9.c"
g commit -q -am three
c3=$(copy 3)
diag "copies: $c1 $c2 $c3"
check "three commits, three copies, the tree's status clean after each" sh -c \
	"[ -d '$c1/tree' ] && [ -d '$c2/tree' ] && [ -d '$c3/tree' ] && [ '$c1' != '$c2' ] && [ '$c2' != '$c3' ] &&
	 [ -z \"\$(git -C '$t' status --porcelain --ignored)\" ]"
check "the first copy copies all 42 files, sharing none" sh -c \
	"grep -q \"kernel source '$t': 42 files copied in\" '$d/b1.err' &&
	 ! grep -q 'shared with it' '$d/b1.err'"
check "the second shares the 41 files the commit did not change with the first (hard links), copies f7.c" sh -c \
	"grep -q \"kernel source '$t': 42 files in .* s, 41 of them unchanged since its copy $c1 and shared with it (hard links), 1 copied\" '$d/b2.err' &&
	 [ \$(stat -c %i '$c1/tree/kernel/f1.c') = \$(stat -c %i '$c2/tree/kernel/f1.c') ] &&
	 [ \$(stat -c %i '$c1/tree/kernel/f7.c') != \$(stat -c %i '$c2/tree/kernel/f7.c') ] &&
	 cmp -s '$c2/tree/kernel/f7.c' '$t/kernel/f7.c' && ! cmp -s '$c1/tree/kernel/f7.c' '$t/kernel/f7.c'"
check "the third shares with the second (f7.c as changed there), copies f9.c" sh -c \
	"grep -q '41 of them unchanged since its copy $c2 and shared' '$d/b3.err' &&
	 [ \$(stat -c %i '$c2/tree/kernel/f7.c') = \$(stat -c %i '$c3/tree/kernel/f7.c') ] &&
	 [ \$(stat -c %h '$c3/tree/kernel/f1.c') -eq 3 ] && cmp -s '$c3/tree/kernel/f9.c' '$t/kernel/f9.c' &&
	 [ \$(stat -c %i '$c2/tree/kernel/f9.c') != \$(stat -c %i '$c3/tree/kernel/f9.c') ]"
check "the lab's files are not linked: each has one link" sh -c \
	"[ \$(stat -c %h '$t/kernel/f1.c') -eq 1 ] && [ \$(stat -c %h '$t/Makefile') -eq 1 ]"

# the listing: a shared file counts once, in the oldest copy
"$KBENCH" cache "$d/v.conf" > "$d/list.out" 2> "$d/list.err"
rc=$?
sed 's/^/# /' "$d/list.out"
bytes() { awk -v e="$1" '$1 == "source" && index($0, e) { b = $2; u = $3;
	print (u == "KiB" ? b * 1024 : u == "MiB" ? b * 1048576 : b * 1073741824) }' "$d/list.out"; }
b1=$(bytes "${c1#$c/}") b2=$(bytes "${c2#$c/}") b3=$(bytes "${c3#$c/}")
check "kbench cache: three sources of linux 6.12.118, the first over 600 KiB, each later one under 10% of it (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ \$(grep -c '^source .*linux 6.12.118, a copy of the git work tree $t)' '$d/list.out') -eq 3 ] &&
	 awk 'BEGIN { exit !($b1 > 600 * 1024 && $b2 < $b1 / 10 && $b3 < $b1 / 10) }'"
total=$(sed -n 's/.* all .* (\([0-9]*\) bytes of disk blocks.*/\1/p' "$d/list.out")
du=$(du -s -B1 "$c" | cut -f1)
diag "kbench cache's total $total, du -s -B1 $du (the top directories' own blocks are du's alone)"
check "its total is du's (hard links once), within the few top directories' own blocks" \
	awk "BEGIN { exit !($total > 0 && $du - $total >= 0 && $du - $total <= 8 * 4096) }"

# prune: entries made to look two days old, a run that refers to one
mkdir -p "$c/kernels/aaaa" "$c/kernels/bbbb" "$c/kernels/cccc" "$c/kernels/dddd.tmp.999999" \
	"$c/kernels/eeee.tmp.$$" "$c/mca/llvm-14" "$c/ccache"
for k in aaaa bbbb cccc; do printf '# Linux/x86 6.12.118 Kernel Configuration\n' > "$c/kernels/$k/config"; done
head -c 100000 /dev/zero > "$c/kernels/bbbb/vmlinux"
mkdir -p "$d/results/20261206-000000" "$d/other/20261206-000001"
printf '{"kernel": {"id": "git:x"}, "variants": [{"name": "O2", "key": "aaaa", "objdir": "%s/tree/kbench-obj-x"}]}\n' \
	"$c2" > "$d/results/20261206-000000/manifest.json"
printf '{"kernel": {"id": "git:x"}, "variants": [{"name": "O2", "key": "cccc"}]}\n' > "$d/other/20261206-000001/manifest.json"
for e in "$c/kernels/aaaa" "$c/kernels/bbbb" "$c/kernels/cccc" "$c/kernels/dddd.tmp.999999" \
	"$c/kernels/eeee.tmp.$$" "$c/mca/llvm-14" "$c/ccache" "$c1" "$c2" "$c3" "$c1"/tree/kbench-obj-* \
	"$c2"/tree/kbench-obj-* "$c3"/tree/kbench-obj-*; do
	touch -d '2 days ago' "$e"
done
touch "$c3"	# used a moment ago
"$KBENCH" cache prune --dry-run "$d/v.conf" > "$d/dry.out" 2>&1
rc=$?
sed 's/^/# /' "$d/dry.out"
check "prune --dry-run: names what would go, removes nothing (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && grep -q '^would remove: kernel .* kernels/bbbb ' '$d/dry.out' &&
	 [ -d '$c/kernels/bbbb' ] && [ -d '$c1' ] && grep -q '^would remove [0-9]* of [0-9]* entries' '$d/dry.out'"
"$KBENCH" cache prune "$d/v.conf" > "$d/prune.out" 2>&1
rc=$?
sed 's/^/# /' "$d/prune.out"
check "prune: the unreferred kernel, the first copy and a killed kbench's leftover go (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ ! -e '$c/kernels/bbbb' ] && [ ! -e '$c/kernels/dddd.tmp.999999' ] && [ ! -e '$c1' ] &&
	 [ ! -e '$c/kernels/cccc' ]"
check "... what a run under output refers to stays (kernels/aaaa, the second copy by its objects)" sh -c \
	"[ -d '$c/kernels/aaaa' ] && [ -d '$c2/tree' ] && cmp -s '$c2/tree/kernel/f1.c' '$t/kernel/f1.c'"
check "... so do what was used a moment ago, what a living kbench makes, ccache and the prices" sh -c \
	"[ -d '$c3/tree' ] && [ -d '$c/kernels/eeee.tmp.$$' ] && [ -d '$c/ccache' ] && [ -d '$c/mca/llvm-14' ]"
check "... and the copies left share their files still (the first's removal took none of theirs)" sh -c \
	"[ \$(stat -c %h '$c3/tree/kernel/f1.c') -eq 2 ] && cmp -s '$c3/tree/kernel/f1.c' '$t/kernel/f1.c'"
mkdir -p "$c/kernels/cccc" && touch -d '2 days ago' "$c/kernels/cccc"
"$KBENCH" cache prune --output "$d/other" "$d/v.conf" > "$d/other.out" 2>&1
check "--output DIR: its runs count too (kernels/cccc stays)" sh -c "[ -d '$c/kernels/cccc' ]"
"$KBENCH" cache prune --older-than 1 --keep-runs "$d/v.conf" > "$d/keep.out" 2>&1
rc=$?
check "--older-than 1 --keep-runs: what a run refers to stays, the rest unused for a day goes (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ -d '$c/kernels/aaaa' ] && [ -d '$c2' ] && [ ! -e '$c/kernels/cccc' ] &&
	 [ ! -e '$c/ccache' ] && [ ! -e '$c/mca/llvm-14' ] && [ -d '$c3' ]"
"$KBENCH" cache prune --older-than 1 "$d/v.conf" > "$d/old.out" 2>&1
rc=$?
check "--older-than 1: unused for a day goes even where a run refers to it (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ ! -e '$c/kernels/aaaa' ] && [ ! -e '$c2' ] && [ -d '$c3/tree' ]"

# names and labels from the cache's own files reach the terminal inert: a
# copy's origin and a kernel directory's name holding escape sequences are
# shown with '?' in their bytes' place
printf '/tmp/\033[2J\033]0;pwned\007x\n' > "$c3/origin"
mkdir -p "$(printf '%s/kernels/e\033[31mvil' "$c")"
"$KBENCH" cache "$d/v.conf" > "$d/esc.out" 2>&1
rc=$?
check "escape bytes in an origin file and a directory name: listed with '?', none reaches the terminal (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && ! grep -q \"\$(printf '\\033')\" '$d/esc.out' && ! grep -q \"\$(printf '\\007')\" '$d/esc.out' &&
	 grep -qF 'a copy of the git work tree /tmp/?[2J?]0;pwned?x)' '$d/esc.out' && grep -qF 'kernels/e?[31mvil ' '$d/esc.out'"

mkdir -p "$c/hybrid/0123456789abcdef" "$c/someone-elses"
"$KBENCH" cache "$d/v.conf" > "$d/other.out" 2>&1
check "the cache's own directories by what they hold (hybrid: specs), another's as not kbench's" sh -c \
	"grep -q \"^other .* hybrid (hybrids' specs: each object's build and command)\" '$d/other.out' &&
	 grep -q \"^other .* someone-elses (not kbench's)\" '$d/other.out'"

# Two kbench builds of one tarball on an empty cache, started together:
# both unpack it (NAME.tmp.PID each), one renames its tree into place, and
# the other, finding it there, removes its own (a cold CI run left 1.6 GiB
# of Linux 6.12 so).  A try where one unpacked after the other had finished
# has no race in it: tried again, up to 5 times.
mkdir -p "$d/tar/linux-t0275/bulk"
cp "$t/Makefile" "$t/Kconfig" "$d/tar/linux-t0275/"
awk -v dir="$d/tar/linux-t0275/bulk" 'BEGIN { for (i = 0; i < 3000; i++) {
	f = dir "/f" i ".c"; for (l = 0; l < 64; l++) printf "/* %d %d ........................................................... */\n", i, l > f; close(f) } }'
tar -cf "$d/linux-t0275.tar" -C "$d/tar" linux-t0275
raced=0 try=0
while [ $raced -eq 0 ] && [ $try -lt 5 ]; do
	try=$((try + 1))
	rm -rf "$d/race"
	mkdir -p "$d/race"
	printf '[kernel]\nsource = %s\ncache = %s\n[variant O2]\n' "$d/linux-t0275.tar" "$d/race/cache" > "$d/race/v.conf"
	"$KBENCH" build "$d/race/v.conf" > /dev/null 2> "$d/race/a.err" &
	a=$!
	"$KBENCH" build "$d/race/v.conf" > /dev/null 2> "$d/race/b.err"
	wait $a
	[ "$(cat "$d/race/a.err" "$d/race/b.err" | grep -c "unpacking '$d/linux-t0275.tar'")" -eq 2 ] && raced=1
done
diag "race: try $try, both unpacked: $raced; src: $(ls "$d/race/cache/src" | tr '\n' ' ')"
if [ $raced -eq 1 ]; then
	check "two builds unpacking one tarball at once: one tree kept, no NAME.tmp.PID left" sh -c \
		"[ \$(ls '$d/race/cache/src' | wc -l) -eq 1 ] && ! ls '$d/race/cache/src' | grep -q '\\.tmp\\.' &&
		 [ -f \"\$(ls -d '$d/race/cache/src'/*)/linux-t0275/bulk/f2999.c\" ]"
else
	skip "needs:two unpacks at once (5 tries, each unpacked once)" "two builds unpacking one tarball at once"
fi

"$KBENCH" cache prun "$d/v.conf" > /dev/null 2> "$d/typo.err"
rc=$?
check "kbench cache prun: exit 2, did you mean 'prune' (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"unknown action 'prun' (did you mean 'prune'?)\" '$d/typo.err'"
"$KBENCH" cache prune --older-than soon "$d/v.conf" > /dev/null 2> "$d/soon.err"
rc=$?
check "--older-than soon: exit 2 naming the value (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -q \"older-than 'soon': a number of days\" '$d/soon.err'"
"$KBENCH" cache --keep-runs "$d/v.conf" > /dev/null 2> "$d/list-opt.err"
rc=$?
check "--keep-runs without prune: exit 2 (rc $rc)" test $rc -eq 2
test_done
