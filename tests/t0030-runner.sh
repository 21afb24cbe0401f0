#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest runner on the host (it is not PID 1 there, so it just exits): the
# records it prints, their checksums, parameter errors, and the region markers
# in its code.  The checksum is recomputed here in awk, independently of proto.h.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
: "${KBENCH_RUNNER:?KBENCH_RUNNER must name the built guest runner}"

def="$TEST_SRCDIR/../workloads/workloads.def"
dir=$(scratch)

# "name default_iters" per workload, in marker-ID order
sed -n 's/^KB_WORKLOAD(\([A-Za-z0-9_]*\), *"[^"]*", *\([0-9]*\),.*/\1 \2/p' "$def" >"$dir/wl"
n_wl=$(wc -l <"$dir/wl")
all_wl=$(cut -d' ' -f1 "$dir/wl" | paste -sd+ -)

n_tests=$((8 + 2 * n_wl))
plan $n_tests

# A static i386 program: some x86-64 kernels cannot run it (no IA32
# emulation); qemu-i386 (package qemu-user) can, where installed.
exec_with=
runner() { env -i "$@" $exec_with "$KBENCH_RUNNER"; }
probe() { runner kb_workloads=getppid kb_samples=1 kb_scale=0.0001 2>/dev/null | grep -q '^@KB1 hello '; }
if ! probe; then
	exec_with=qemu-i386
	command -v qemu-i386 >/dev/null 2>&1 && probe || exec_with=none
fi
if [ "$exec_with" = none ]; then
	for i in $(seq $n_tests); do
		skip "needs:ia32-exec (or qemu-i386)" "runner check $i"
	done
	exit 0
fi
[ -n "$exec_with" ] && diag "running the runner under $exec_with"

# checksums FILE: every line is a record whose checksum is right
checksums() {
	tr -d '\r' <"$1" | awk '
	function xor8(a, b,   r, bit) {
		r = 0
		for (bit = 1; bit < 256; bit *= 2)
			if (int(a / bit) % 2 != int(b / bit) % 2)
				r += bit
		return r
	}
	# FNV-1a 32 in doubles: h * 16777619 = h * 2^24 + h * 403 (mod 2^32)
	function fnv(s,   h, i, lo) {
		h = 2166136261
		for (i = 1; i <= length(s); i++) {
			lo = h % 256
			h = h - lo + xor8(lo, ord[substr(s, i, 1)])
			h = ((h % 256) * 16777216 + h * 403) % 4294967296
		}
		return h
	}
	function unhex(s,   i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN {
		for (i = 32; i < 127; i++)
			ord[sprintf("%c", i)] = i
		if (fnv("") != 2166136261 || fnv("a") != unhex("e40c292c")) {
			print "# awk FNV-1a is wrong" > "/dev/stderr"
			bad = 1
		}
	}
	{
		if (!match($0, / #[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/)) {
			print "# no checksum: " $0 > "/dev/stderr"; bad = 1; next
		}
		body = substr($0, 1, length($0) - 10)
		if (substr(body, 1, 5) != "@KB1 " || fnv(body) != unhex(substr($0, length($0) - 7))) {
			print "# bad record: " $0 > "/dev/stderr"; bad = 1
		}
	}
	END { exit bad }'
}
# field KEY: the value of KEY in the records on stdin
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

# record_is FILE LINE KIND KEY=VALUE...: line LINE (1 or $) has that kind and fields
record_is() {
	local rec
	rec=$(sed -n "$2p" "$1")
	[ "$(echo "$rec" | cut -d' ' -f1-2)" = "@KB1 $3" ] || return 1
	shift 3
	for kv; do
		[ "$(echo "$rec" | field "${kv%%=*}")" = "${kv#*=}" ] || return 1
	done
}

runner kb_scale=0.01 kb_samples=2 >"$dir/out" 2>"$dir/err"
check "runner exits 0" [ $? -eq 0 ]
check "every line is a record with a correct checksum" checksums "$dir/out"
check "hello first: proto 1, all workloads, 2 samples" \
	record_is "$dir/out" 1 hello proto=1 workloads="$all_wl" samples=2
check "done last: $((2 * n_wl)) samples, no errors" \
	record_is "$dir/out" '$' done samples=$((2 * n_wl)) errors=0

# samples_ok NAME ITERS: every ns a positive integer, every iter ITERS
samples_ok() {
	[ "$(field iter <"$dir/s-$1" | sort -u)" = "$2" ] &&
		[ -z "$(field ns <"$dir/s-$1" | grep -v '^[1-9][0-9]*$')" ]
}
while read -r name iters; do
	want=$(awk -v d="$iters" 'BEGIN { printf "%d", d * 0.01 + 0.5 }')
	grep "^@KB1 sample wl=$name " "$dir/out" >"$dir/s-$name"
	check "$name: samples rep=1 and rep=2" \
		[ "$(field rep <"$dir/s-$name" | paste -sd' ' -)" = "1 2" ]
	check "$name: iter=$want (scaled default) and ns > 0" samples_ok "$name" "$want"
done <"$dir/wl"

bad_samples() {
	runner kb_samples=abc >"$dir/bad" 2>&1
	[ $? -eq 2 ] && checksums "$dir/bad" &&
		record_is "$dir/bad" 1 hello samples=5 &&
		grep -q '^@KB1 error param=kb_samples reason=invalid value=abc ' "$dir/bad" &&
		record_is "$dir/bad" '$' done samples=0 errors=1 &&
		! grep -q '^@KB1 sample ' "$dir/bad"
}
check "kb_samples=abc: hello, an error record naming it, done; exit 2" bad_samples

bad_names() {
	runner kb_workloads=getppid,nosuch kb_sampels=2 >"$dir/bad2" 2>&1
	grep -q '^@KB1 error param=kb_workloads reason=invalid ' "$dir/bad2" &&
		grep -q '^@KB1 error param=kb_sampels reason=unknown ' "$dir/bad2" &&
		record_is "$dir/bad2" '$' done samples=0 errors=2
}
check "unknown workload and misspelt parameter: one error record each" bad_names

last=$(tail -n 1 "$dir/wl" | cut -d' ' -f1)
runner kb_workloads="$last" kb_samples=1 kb_scale=0.001 kb_warmup=0 >"$dir/one" 2>&1
check "kb_workloads=$last runs that workload only" \
	[ "$(grep '^@KB1 sample ' "$dir/one" | field wl)" = "$last" ]

# 0f 1f 84 00 + KB_MARK_BEGIN/END(id) little-endian: 01|02, id, 42, 4b
od -An -v -tx1 "$KBENCH_RUNNER" | tr -d ' \n' >"$dir/hex"
markers_ok=true
id=0
while read -r name iters; do
	idx=$(printf '%02x' $id)
	for kind in 01 02; do
		n=$(grep -o "0f1f8400${kind}${idx}424b" "$dir/hex" | wc -l)
		[ "$n" -eq 1 ] || { diag "$name: marker $kind found $n times"; markers_ok=false; }
	done
	id=$((id + 1))
done <"$dir/wl"
check "each workload's begin and end markers are in the runner, once" $markers_ok
exit $kb_test_failed
