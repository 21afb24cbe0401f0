#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest runner on the host (it is not PID 1 there, so it just exits): the
# records it prints, their checksums, parameter errors, and the region markers
# in its code.  The checksum is recomputed here in awk, independently of proto.h.
# Every workload of workloads.def runs and gives sane samples; a sweep
# workload gives one sample per K; a failing or crashing workload is reported
# by name and the others still run.  All of it for both runners: the i386
# one ($KBENCH_RUNNER) and the x86_64 one (kbench-runner-x86_64 beside it, or
# $KBENCH_RUNNER_X86_64).
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
: "${KBENCH_RUNNER:?KBENCH_RUNNER must name the built guest runner}"

def="$TEST_SRCDIR/../workloads/workloads.def"
dir=$(scratch)

# "name default_iters kind" per workload, in marker-ID order
sed -n 's/^KB_WORKLOAD(\([A-Za-z0-9_]*\), *"\([^"]*\)", *\([0-9]*\),.*/\1 \3 \2/p' "$def" >"$dir/wl"
n_wl=$(wc -l <"$dir/wl")
all_wl=$(cut -d' ' -f1 "$dir/wl" | paste -sd+ -)
n_sweep_wl=$(grep -c ' sweep$' "$dir/wl")
# the sweep's default K and its iteration rule (workload.h, runner.c)
sweep_default="0 4 8 16 32 64 128"
n_k=$(echo $sweep_default | wc -w)
half=$(sed -n 's/^#define KB_SWEEP_HALF_KIB[^0-9]*\([0-9]*\).*/\1/p' "$TEST_SRCDIR/../workloads/workload.h")
# sweep_iters ITERS0 K: kb_wl_sweep_iters()
sweep_iters() { awk -v i="$1" -v h="$half" -v k="$2" 'BEGIN { v = int(i * h / (h + k) + 0.5); print v ? v : 1 }'; }

# runner_checks: every check below on $KBENCH_RUNNER
runner_checks() {

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
	check "hello first: proto 1, all workloads, 2 samples, the default sweep" \
		record_is "$dir/out" 1 hello proto=1 workloads="$all_wl" samples=2 \
		sweep="$(echo $sweep_default | tr ' ' +)"
	n_samples=$((2 * (n_wl - n_sweep_wl) + 2 * n_k * n_sweep_wl))
	check "done last: $n_samples samples, no errors" \
		record_is "$dir/out" '$' done samples=$n_samples errors=0

	# The counters: counting (a PMU and a passed check: every sample carries
	# them) or not, and then why not, once.
	pmu_ok() {
		local pmu
		pmu=$(sed -n 1p "$dir/out" | field pmu)
		diag "pmu=$pmu $(sed -n 1p "$dir/out" | field pmu_why)"
		case $pmu in
		guest)	[ -z "$(grep '^@KB1 sample ' "$dir/out" | grep -v ' ins_u=[0-9]* .* mux_u=')" ] ;;
		none)	[ -n "$(sed -n 1p "$dir/out" | field pmu_why)" ] &&
				! grep -q '^@KB1 sample .* cyc_k=' "$dir/out" ;;
		*)	false ;;
		esac
	}
	check "pmu=guest with counters in every sample, or pmu=none with a reason" pmu_ok

	# samples_ok NAME ITERS: every ns a positive integer, every iter ITERS
	samples_ok() {
		[ "$(field iter <"$dir/s-$1" | sort -u)" = "$2" ] &&
			[ -z "$(field ns <"$dir/s-$1" | grep -v '^[1-9][0-9]*$')" ]
	}
	# sweep_ok NAME ITERS0: per rep one sample per K, in order, with its iterations
	sweep_ok() {
		local want="" rep k
		for rep in 1 2; do
			for k in $sweep_default; do
				want="$want$rep $k $(sweep_iters "$2" $k)
"
			done
		done
		[ "$(sed 's/.* rep=\([0-9]*\) iter=\([0-9]*\) ns=[1-9][0-9]* k=\([0-9]*\) .*/\1 \3 \2/' "$dir/s-$1")
" = "$want" ]
	}
	while read -r name iters kind; do
		want=$(awk -v d="$iters" 'BEGIN { printf "%d", d * 0.01 + 0.5 }')
		grep "^@KB1 sample wl=$name " "$dir/out" >"$dir/s-$name"
		if [ "$kind" = sweep ]; then
			check "$name: $n_k samples (one per K) in rep 1 and in rep 2" \
				[ "$(field rep <"$dir/s-$name" | uniq -c | awk '{ print $1 "x" $2 }' | paste -sd' ' -)" = "${n_k}x1 ${n_k}x2" ]
			check "$name: k=$(echo $sweep_default | tr ' ' ,), iter scaled by $half/($half+k), ns > 0" \
				sweep_ok "$name" "$want"
		else
			check "$name: samples rep=1 and rep=2" \
				[ "$(field rep <"$dir/s-$name" | paste -sd' ' -)" = "1 2" ]
			check "$name: iter=$want (scaled default) and ns > 0" samples_ok "$name" "$want"
		fi
	done <"$dir/wl"

	# kb_sweep: the host's [run] sweep reaches the runner this way.
	sweep_param() {
		runner kb_workloads=icache kb_samples=1 kb_scale=0.001 kb_sweep=16,0,256 >"$dir/sweep" 2>&1 &&
			checksums "$dir/sweep" && record_is "$dir/sweep" 1 hello sweep=16+0+256 &&
			[ "$(grep '^@KB1 sample ' "$dir/sweep" | field k | paste -sd' ' -)" = "16 0 256" ]
	}
	check "kb_sweep=16,0,256: one sample per K, in that order" sweep_param
	bad_sweep() {
		local v
		for v in 257 0,4,0 4,,8 '' 1x; do
			runner kb_workloads=icache kb_sweep="$v" >"$dir/bad-sweep" 2>&1
			[ $? -eq 2 ] && grep -q "^@KB1 error param=kb_sweep reason=invalid " "$dir/bad-sweep" ||
				{ diag "kb_sweep='$v' not refused"; return 1; }
		done
	}
	check "kb_sweep above the generated block, repeated, empty or not a number: refused" bad_sweep

	# A failing workload: named in an error record, the others still measured.
	# Without a usable $TMPDIR the workloads that need a file fail at once.
	no_tmpdir() {
		runner TMPDIR=/nonexistent/kbench kb_scale=0.001 kb_samples=1 >"$dir/notmp" 2>&1
		[ $? -eq 1 ] && checksums "$dir/notmp" || return 1
		grep '^@KB1 error ' "$dir/notmp" | sed 's/ #.*//' >"$dir/notmp-errors"
		sed 's/^/# /' "$dir/notmp-errors"
		[ "$(field wl <"$dir/notmp-errors" | paste -sd' ' -)" = "open stat syscall_mix" ] &&
			[ -z "$(grep -v 'reason=create errno=2$' "$dir/notmp-errors")" ] &&
			record_is "$dir/notmp" '$' done errors=3 \
				samples=$((n_wl - 3 - n_sweep_wl + n_k * n_sweep_wl))
	}
	check "TMPDIR missing: open, stat and syscall_mix fail by name, the rest run" no_tmpdir

	# A fatal signal in a workload ends that workload, not the run: SIGFPE sent
	# during each of two endless workloads.
	wait_for() {	# wait_for FILE PATTERN: up to 20 s
		local i=0
		while ! grep -q "$2" "$1" 2>/dev/null; do
			i=$((i + 1))
			[ $i -gt 200 ] && return 1
			sleep 0.1
		done
	}
	crash() {
		local pid ok=false
		# not through runner(): $! must be the runner's own pid
		env -i kb_workloads=getppid,read kb_scale=1000 kb_samples=1 \
			$exec_with "$KBENCH_RUNNER" >"$dir/crash" 2>&1 &
		pid=$!
		if wait_for "$dir/crash" '^@KB1 hello ' && sleep 0.3 && kill -FPE $pid &&
			wait_for "$dir/crash" '^@KB1 error wl=getppid ' && sleep 0.3 && kill -FPE $pid &&
			wait_for "$dir/crash" '^@KB1 done '; then
			ok=true
		fi
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
		$ok && checksums "$dir/crash" &&
			grep -q '^@KB1 error wl=getppid reason=signal signal=8 ' "$dir/crash" &&
			grep -q '^@KB1 error wl=read reason=signal signal=8 ' "$dir/crash" &&
			record_is "$dir/crash" '$' done samples=0 errors=2
	}
	check "SIGFPE in getppid, then in read: two error records by name, then done" crash

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

	last=$(grep -v ' sweep$' "$dir/wl" | tail -n 1 | cut -d' ' -f1)
	runner kb_workloads="$last" kb_samples=1 kb_scale=0.001 kb_warmup=0 >"$dir/one" 2>&1
	check "kb_workloads=$last runs that workload only" \
		[ "$(grep '^@KB1 sample ' "$dir/one" | field wl)" = "$last" ]

	# 0f 1f 84 00 + KB_MARK_BEGIN/END(id) little-endian: 01|02, id, 42, 4b
	od -An -v -tx1 "$KBENCH_RUNNER" | tr -d ' \n' >"$dir/hex"
	markers_ok=true
	id=0
	while read -r name iters kind; do
		idx=$(printf '%02x' $id)
		for kind in 01 02; do
			n=$(grep -o "0f1f8400${kind}${idx}424b" "$dir/hex" | wc -l)
			[ "$n" -eq 1 ] || { diag "$name: marker $kind found $n times"; markers_ok=false; }
		done
		id=$((id + 1))
	done <"$dir/wl"
	check "each workload's begin and end markers are in the runner, once" $markers_ok
}

# Both guest runners: i386 (-m32) and x86_64 (-m64), the same checks.
KBENCH_RUNNER_I386=$KBENCH_RUNNER
: "${KBENCH_RUNNER_X86_64:=$(dirname "$KBENCH_RUNNER_I386")/kbench-runner-x86_64}"
for arch in i386 x86_64; do
	if [ $arch = i386 ]; then KBENCH_RUNNER=$KBENCH_RUNNER_I386; else KBENCH_RUNNER=$KBENCH_RUNNER_X86_64; fi
	diag "runner for $arch: $KBENCH_RUNNER"
	check "$arch runner: a static $arch executable" sh -c \
		"file -L '$KBENCH_RUNNER' | grep -q 'statically linked' &&
		 file -L '$KBENCH_RUNNER' | grep -q '$(if [ $arch = i386 ]; then echo 'ELF 32-bit LSB executable, Intel 80386'; else echo 'ELF 64-bit LSB executable, x86-64'; fi)'"
	if ! find_runner_exec; then
		skip "needs:$([ $arch = i386 ] && echo 'ia32-exec (or qemu-i386)' || echo x86_64-exec)" "$arch runner checks"
		continue
	fi
	[ -n "$exec_with" ] && diag "running the $arch runner under $exec_with"
	runner_checks
done
test_done
