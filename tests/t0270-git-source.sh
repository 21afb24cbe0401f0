#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# [kernel] source = a git work tree (issue 26, item 3): Debian's Linux 6.12
# tarball made into one here (git init; git add; git commit), built as an
# i386 tinyconfig kernel from kbench's copy of the work tree (the files git
# ls-files names, copied once per content under the cache's src/git-*),
# so the work tree is the same after the build (git status --porcelain
# --ignored empty: no new file, built or ignored, no change); the cache key
# follows the commit (an empty commit gives another kernel key, from the
# same copy and the same object directory, keyed by the tree: where it is
# built, nothing is compiled again); a tree with a change not
# committed is refused, and with allow_dirty = yes built under a key with
# the changes' hash, from a copy of its own, whose object directory starts
# from the first copy's (make compiles what the change needs).  The object directories lie
# in the copy, so Kbuild names the sources relative to them ("../kernel/
# fork.c") and ccache has the objects of t0100's Os build from the tarball:
# with the build cache lost, the three builds are relinks from ccache.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)
needs_kernel_source "git source"
needs_cmd git "git source"

tar -xJf "$kernel_src" -C "$d" || skip_all "needs:room for the unpacked source" "git source"
t=$d/$kernel_tree
# fixed names and dates: the same commits every time, so that a warm cache
# has their kernels
g() { GIT_AUTHOR_DATE=2026-12-05T00:00:00Z GIT_COMMITTER_DATE=2026-12-05T00:00:00Z \
	git -C "$t" -c user.name=kbench -c user.email=kbench@localhost "$@"; }
# -f: Debian's .gitignore ignores everything at the top level (/*)
g init -q && g add -A -f && g commit -q -m "Debian $kernel_tree" ||
	skip_all "needs:git that can commit" "git source"
c1=$(g rev-parse HEAD)
diag "tree $t at $c1"

# the tarball's Os kernel first (built, cached, or waited for while t0100
# builds it), so that ccache has its objects before the work tree's
# builds: with an empty cache, both compiled every object at once
write_tcg_conf "$d/tarball.conf" -- Os
build_first "$d/tarball.conf"
write_tcg_conf "$d/variants.conf" -- Os
sed -i "s|^source = .*|source = $t|" "$d/variants.conf"
key() { awk '$1 == "Os" { print $4 }' "$1" | xargs dirname | xargs basename; }

"$KBENCH" build "$d/variants.conf" >"$d/b1.out" 2>"$d/b1.err"
rc=$?
check "kbench build from the git tree exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$d/b1.err" | tail -n 20; test_done; }
check "the kernel is an i386 one" sh -c \
	"file -L \"\$(awk '\$1 == \"Os\" { print \$4 }' '$d/b1.out' | xargs dirname)/vmlinux\" | grep -q 'ELF 32-bit LSB executable, Intel 80386'"
check "the work tree is unchanged: git status --porcelain --ignored is empty" \
	test -z "$(g status --porcelain --ignored)"
check "... and HEAD is still the commit" test "$(g rev-parse HEAD)" = "$c1"
k1=$(key "$d/b1.out")
# built from kbench's copy: the object directory right under the copy's
# top, where Kbuild's srctree is ".." (its "source" link says so)
objdir=$(sed -n "s/.*variant 'Os': .* in .* s (.*), its objects in \(.*\)\$/\1/p" "$d/b1.err")
diag "object directory: $objdir"
check "the kernel is configured in kbench's copy of the tree, right under its top (Kbuild's source link: ..)" sh -c "
	case '$objdir' in '$kernel_cache'/src/git-*/tree/kbench-obj-*) ;; *) exit 1 ;; esac &&
	[ -f '$objdir/.config' ] && [ \"\$(readlink '$objdir/source')\" = .. ] &&
	cmp -s '$objdir/../kernel/fork.c' '$t/kernel/fork.c'"
if [ -f "$objdir/kernel/.fork.o.cmd" ]; then
	check "... and compiled there with the sources named relative (../kernel/fork.c)" sh -c \
		"head -n 1 '$objdir/kernel/.fork.o.cmd' | grep -q ' \.\./kernel/fork\.c *\$'"
fi
ncopy=$(cd "$objdir/.." && find . -path './kbench-obj-*' -prune -o ! -type d -print | wc -l)
ngit=$(g ls-files | wc -l)
check "... a copy of the files git names, no more ($ncopy, git ls-files: $ngit): no .git, README as committed" sh -c "
	[ ! -e '$objdir/../.git' ] && cmp -s '$objdir/../README' '$t/README' && [ $ncopy -eq $ngit ]"

# a commit, its contents the same: another key
g commit -q --allow-empty -m "an empty commit"
"$KBENCH" build "$d/variants.conf" >"$d/b2.out" 2>"$d/b2.err"
rc=$?
k2=$(key "$d/b2.out")
check "after a commit: another kernel key, built or found in the cache under it (rc $rc)" sh -c \
	"[ $rc -eq 0 ] && [ -n '$k2' ] && [ '$k1' != '$k2' ] && awk '\$1 == \"Os\" { exit \$2 != \"built\" && \$2 != \"cached\" }' '$d/b2.out'"
check "the work tree is still unchanged" test -z "$(g status --porcelain --ignored)"
check "... and the same copy served (the same content): not copied again" \
	sh -c "! grep -q 'copying its files' '$d/b2.err'"
# the object directory is the files' (the tree's), not the commit's: a
# build of the second commit finds every object made by the first's
obj2=$(objs Os "$d/b2.err")
check "... and the same object directory (keyed by the tree, not the commit)" \
	sh -c "[ -n '$objdir' ] && [ '$obj2' = '$objdir' ]"

# a change not committed: refused, then taken with allow_dirty = yes
echo "# a local change" >>"$t/README"
"$KBENCH" build "$d/variants.conf" >"$d/b3.out" 2>"$d/b3.err"
rc=$?
check "a change not committed: refused (rc $rc), naming it and allow_dirty" sh -c \
	"[ $rc -ne 0 ] && grep -q \"kernel source '$t': a git work tree with changes not committed (git status --porcelain:  *M README).*allow_dirty = yes\" '$d/b3.err'"
sed -i 's/^\[kernel\]$/[kernel]\nallow_dirty = yes/' "$d/variants.conf"
"$KBENCH" build "$d/variants.conf" >"$d/b4.out" 2>"$d/b4.err"
rc=$?
k4=$(key "$d/b4.out")
check "allow_dirty = yes: built (rc $rc) under a third key, the changes' hash said" sh -c \
	"[ $rc -eq 0 ] && [ -n '$k4' ] && [ '$k4' != '$k2' ] && [ '$k4' != '$k1' ] &&
	 grep -q 'with changes not committed (allow_dirty = yes: keyed by their hash [0-9a-f]*)' '$d/b4.err'"
check "the work tree has only that change" test "$(g status --porcelain --ignored)" = " M README"
dobj=$(sed -n "s/.*variant 'Os': .* in .* s (.*), its objects in \(.*\)\$/\1/p" "$d/b4.err")
check "the changed tree is built from a copy of its own, with the change" sh -c "
	[ -n '$dobj' ] && [ '$(dirname "$dobj")' != '$(dirname "$objdir")' ] && cmp -s '$dobj/../README' '$t/README'"
# built now (not found in the cache): its object directory started from
# the previous copy's, whose build of the same configuration is there
if grep -q "variant 'Os': built in" "$d/b4.err"; then
	check "... its object directory started from the previous copy's (the first commit's)" \
		grep -q "variant 'Os': its object directory started from the previous copy's ($objdir)" "$d/b4.err"
fi
test_done
