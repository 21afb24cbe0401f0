#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.sh SRCDIR: the include graph of kbench's sources points down.
#
# Each folder of SRCDIR that has a README is a layer; the README's line
# "May include: A, B." names the layers below it whose headers its files
# may include ("nothing" for none).  Checked:
#   - every source file (.c, .h, .def) sits in a layer, none in SRCDIR itself;
#   - every #include "NAME" of a layer's file is a file of its own layer or
#     of a layer its README allows, included by its name (config.h, made
#     by configure, and paths that leave SRCDIR, such as ../../workloads/,
#     are not layers' files);
#   - the layers' allowances have no cycle, so the graph only points down.
# Each breach is printed as FILE:LINE: what; exit status 0 none, 1 some,
# 2 a usage error.
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: layers.sh SRCDIR" >&2
	exit 2
fi
src=${1%/}
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

# One line per fact, for awk: "layer L", "may L M FILE:LINE",
# "file L PATH", "stray PATH", "inc L PATH LINE NAME"
for readme in "$src"/*/README; do
	[ -f "$readme" ] || continue
	l=$(basename "$(dirname "$readme")")
	echo "layer $l"
	n=$(grep -n '^May include:' "$readme" | head -n 1 | cut -d: -f1)
	if [ -z "$n" ]; then
		echo "nomay $l $readme"
		continue
	fi
	sed -n "${n}p" "$readme" | sed 's/^May include://; s/(.*//; s/[,.;]/ /g' | tr ' ' '\n' |
		grep -v '^$' | sed "s|^|may $l |; s|\$| $readme:$n|"
done > "$tmp"
for f in "$src"/*.c "$src"/*.h "$src"/*.def; do
	[ -f "$f" ] && echo "stray $f"
done >> "$tmp"
files=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$files"' EXIT
for d in "$src"/*/; do
	l=${d%/}
	l=${l##*/}
	[ -f "$d/README" ] || continue
	for f in "$d"*.c "$d"*.h "$d"*.def; do
		[ -f "$f" ] || continue
		echo "file $l $f"
		echo "$f" >> "$files"
	done
done >> "$tmp"
# every file's includes in one pass: "inc L PATH LINE NAME", L the folder
# the file sits in
if [ -s "$files" ]; then
	tr '\n' '\0' < "$files" | xargs -0 awk '
	FNR == 1 { n = split(FILENAME, p, "/"); l = p[n - 1] }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		s = $0
		sub(/^[^"]*"/, "", s)
		sub(/".*/, "", s)
		print "inc", l, FILENAME, FNR, s
	}' >> "$tmp"
fi

awk '
$1 == "layer" { layer[$2] = 1; next }
$1 == "nomay" { printf "%s: no \"May include:\" line\n", $3; bad = 1; next }
$1 == "may" {
	if ($3 == "nothing")
		next
	may[$2, $3] = 1
	mayline[$2, $3] = $4
	edges[$2] = edges[$2] " " $3
	next
}
$1 == "stray" { printf "%s: not in a layer (each source file sits in a folder of src/ with a README)\n", $2; bad = 1; next }
$1 == "file" {
	n = split($3, p, "/")
	infolder[$2, p[n]] = 1
	owner[p[n]] = owner[p[n]] ? owner[p[n]] " " $2 : $2
	next
}
$1 == "inc" { incs[++ni] = $0; next }
# dfs(l): 1 when a cycle is reachable from l (colour 1 on the path, 2 done)
function dfs(l,    n, w, i) {
	colour[l] = 1
	path[++depth] = l
	n = split(edges[l], w, " ")
	for (i = 1; i <= n; i++) {
		if (!(w[i] in layer)) {
			printf "%s: \"%s\" may include \"%s\", which is no layer\n", mayline[l, w[i]], l, w[i]
			bad = 1
			continue
		}
		if (colour[w[i]] == 1) {
			printf "%s: \"%s\" may include \"%s\", which may include it in turn: a cycle, so the layers do not point down\n",
			       mayline[l, w[i]], l, w[i]
			bad = 1
		} else if (!colour[w[i]])
			dfs(w[i])
	}
	depth--
	colour[l] = 2
}
END {
	for (l in layer)
		if (!colour[l])
			dfs(l)
	for (i = 1; i <= ni; i++) {
		split(incs[i], w, " ")
		l = w[2]; f = w[3]; line = w[4]; name = w[5]
		if (name == "config.h" || name ~ /^\.\.\/\.\.\//)
			continue
		if (name ~ /\//) {
			printf "%s:%s: includes \"%s\" by a path: a layer\047s header is included by its name\n", f, line, name
			bad = 1
			continue
		}
		base = name
		if ((l, base) in infolder)
			continue
		if (!(base in owner)) {
			printf "%s:%s: includes \"%s\", which no layer holds\n", f, line, name
			bad = 1
			continue
		}
		n = split(owner[base], o, " ")
		ok = 0
		for (j = 1; j <= n; j++)
			if ((l, o[j]) in may)
				ok = 1
		if (!ok) {
			printf "%s:%s: includes \"%s\" of layer \"%s\", which layer \"%s\" may not include (its README)\n",
			       f, line, name, owner[base], l
			bad = 1
		}
	}
	exit bad
}' "$tmp"
