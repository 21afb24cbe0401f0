#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cycles.sh [-a ALLOW] [-v] OBJECT|ARCHIVE...: the dependency cycles between
# source files, from the objects' own link-time references (nm): a file
# depends on the file whose object defines a global symbol its object
# leaves undefined.  Each strongly connected part of that graph is a cycle;
# it is printed with its files and, for each edge inside it, the symbols
# that make the edge, so one sees what to move to cut it.
#
# ALLOW (tests/cycles.allow) lists the cycles still allowed, one a line, by
# their files; '#' starts a comment.  A cycle is allowed only when its files
# are exactly a line's: one that grows or a new one fails, and so does a
# line that no cycle matches any more (shrink the list as cycles are cut).
# -v prints the edges of allowed cycles too.
#
# An object is named after its source: libkbench_a-run.o is run.c (the
# prefixes automake gives the objects of src/libkbench.a and src/kbench are
# dropped).  Exit status: 0 no cycle outside ALLOW, 1 one is, 2 a usage
# error or nm failed.
set -u
allow=/dev/null
verbose=0
while getopts a:v opt; do
	case $opt in
	a) allow=$OPTARG ;;
	v) verbose=1 ;;
	*) echo "usage: cycles.sh [-a ALLOW] [-v] OBJECT|ARCHIVE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "usage: cycles.sh [-a ALLOW] [-v] OBJECT|ARCHIVE..." >&2
	exit 2
fi
if [ ! -r "$allow" ]; then
	echo "cycles.sh: '$allow': cannot read the allow list" >&2
	exit 2
fi
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# POSIX format, each line "FILE: SYMBOL TYPE ...", external symbols only;
# FILE is "ARCHIVE[MEMBER]" for an archive's members
if ! ${NM:-nm} -P -A -g "$@" > "$tmp"; then
	echo "cycles.sh: nm failed on the objects given" >&2
	exit 2
fi

awk -v allow="$allow" -v verbose="$verbose" '
# isort(a, n): sort a[1..n] in place (n is small: the files of a cycle)
function isort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}
# srcname(file): the source file an nm FILE field comes from
function srcname(f) {
	sub(/:$/, "", f)
	if (f ~ /\]$/) {
		sub(/^.*\[/, "", f)
		sub(/\]$/, "", f)
	}
	sub(/^.*\//, "", f)
	sub(/^libkbench_a-/, "", f)
	sub(/^kbench-/, "", f)
	sub(/\.o$/, ".c", f)
	return f
}
part == "allow" {
	# the allow list: one cycle a line, by its files, in any order
	sub(/#.*/, "")
	n = split($0, w, " ")
	if (n == 0)
		next
	isort(w, n)
	key = w[1]
	for (i = 2; i <= n; i++)
		key = key " " w[i]
	allowed[key] = FNR
	next
}
{
	f = srcname($1)
	if (!(f in id)) {
		id[f] = ++nodes
		name[nodes] = f
	}
	if ($3 == "U" || $3 == "w" || $3 == "v")
		ref[id[f], $2] = 1
	else if ($3 ~ /^[A-Z]$/ && !($2 in def))
		def[$2] = id[f]
}
END {
	for (k in ref) {
		split(k, p, SUBSEP)
		if (!(p[2] in def) || def[p[2]] == p[1])
			continue
		e = p[1] SUBSEP def[p[2]]
		reach[e] = 1
		syms[e] = (e in syms) ? syms[e] " " p[2] : p[2]
	}
	# the transitive closure (Warshall): a hundred files, a million steps
	for (m = 1; m <= nodes; m++)
		for (i = 1; i <= nodes; i++) {
			if (!((i, m) in reach))
				continue
			for (j = 1; j <= nodes; j++)
				if ((m, j) in reach)
					reach[i, j] = 1
		}
	bad = 0
	ncyc = 0
	for (i = 1; i <= nodes; i++) {
		if (done[i] || !((i, i) in reach))
			continue
		n = 0
		for (j = 1; j <= nodes; j++)
			if ((i, j) in reach && (j, i) in reach) {
				done[j] = 1
				files[++n] = name[j]
			}
		isort(files, n)
		key = files[1]
		for (j = 2; j <= n; j++)
			key = key " " files[j]
		cyc[++ncyc] = key
		cycn[ncyc] = n
	}
	# cycles in a stable order: by their files
	isort(cyc, ncyc)
	for (c = 1; c <= ncyc; c++) {
		key = cyc[c]
		n = split(key, files, " ")
		seen[key] = 1
		if (key in allowed) {
			printf "allowed cycle (%s:%d), %d files: %s\n", allow, allowed[key], n, key
			if (!verbose)
				continue
		} else {
			printf "cycle, %d files: %s\n", n, key
			bad = 1
		}
		for (a = 1; a <= n; a++)
			for (b = 1; b <= n; b++) {
				e = id[files[a]] SUBSEP id[files[b]]
				if (e in syms) {
					ns = split(syms[e], s, " ")
					isort(s, ns)
					line = s[1]
					for (j = 2; j <= ns; j++)
						line = line " " s[j]
					printf "  %s -> %s: %s\n", files[a], files[b], line
				}
			}
	}
	for (key in allowed)
		if (!(key in seen)) {
			printf "%s:%d: no such cycle any more (cut or changed): %s\n", allow, allowed[key], key
			bad = 1
		}
	exit bad
}' part=allow "$allow" part=nm "$tmp"
