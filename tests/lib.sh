# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for kbench's shell tests: call kbench the way a user does.
# A test sources this file, runs its checks (ok, not_ok, skip, check,
# check_todo) and ends with test_done, which prints the plan: the number of
# checks that ran, so no count is kept by hand.  skip_all ends a test early.
set -u
: "${KBENCH:?KBENCH must name the kbench binary (run through make check)}"
: "${TEST_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${TEST_BUILDDIR:=$PWD/tests}"
kb_test_n=0
kb_test_failed=0

ok() { kb_test_n=$((kb_test_n + 1)); echo "ok $kb_test_n - $*"; }
not_ok() { kb_test_n=$((kb_test_n + 1)); kb_test_failed=1; echo "not ok $kb_test_n - $*"; }
# skip REASON NAME: a skip is counted and says why (# SKIP needs:kvm)
skip() { kb_test_n=$((kb_test_n + 1)); echo "ok $kb_test_n - $2 # SKIP $1"; }
# check NAME COMMAND...: ok when COMMAND succeeds
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
# check_todo DEFECT NAME COMMAND...: a check that a known DEFECT makes fail
# (TAP TODO): shown, not a failure; once it passes the TAP driver reports an
# unexpected pass, so the directive cannot outlive the defect
check_todo() {
	local why=$1 name=$2; shift 2
	kb_test_n=$((kb_test_n + 1))
	if "$@"; then
		echo "ok $kb_test_n - $name # TODO $why"
	else
		echo "not ok $kb_test_n - $name # TODO $why"
	fi
}
diag() { printf '# %s\n' "$@"; }

# kb_test_times: the CPU the test took, into its log for bench/ci-time: the
# shell's own user and system time, then its children's (every process it
# waited for, with theirs: the kernels it built, the boots it ran); times
# writes them itself (in a pipe or $(...) it would count a subshell's)
kb_test_times() {
	echo "# cpu time (user system), the test's shell, then its children:"
	times
}
# test_done: the plan after the last check; exit status 1 if a check failed
test_done() {
	trap - EXIT
	kb_test_times
	echo "1..$kb_test_n"
	exit "$kb_test_failed"
}
# skip_all REASON NAME: skip the rest of the test and end it.  Before any
# check that is the plan "1..0 # SKIP REASON" (the TAP driver reports the test
# as skipped); after some, one counted skip named NAME, then the plan.
skip_all() {
	if [ "$kb_test_n" -eq 0 ]; then
		trap - EXIT
		kb_test_times
		echo "1..0 # SKIP $1"
		exit 0
	fi
	skip "$1" "$2"
	test_done
}
# have_multilib: this host builds 32-bit static programs (gcc-multilib)
have_multilib() {
	local p=${TMPDIR:-/tmp}/kb-m32.$$ rc
	printf 'void _start(void) { for (;;); }\n' > "$p.c"
	${CC:-cc} -m32 -static -nostdlib -no-pie -o "$p" "$p.c" 2>/dev/null
	rc=$?
	rm -f "$p" "$p.c"
	return $rc
}
# skip_32 NAME: a 32-bit build of the test's failed: a skip where this host
# builds no 32-bit program, else the test's failure (a missing header, a
# moved file), never hidden as a missing package
skip_32() {
	if have_multilib; then
		not_ok "$1: the 32-bit build failed on a host that builds 32-bit programs"
	else
		skip needs:gcc-multilib "$1"
	fi
}
# skip_all_32 NAME: the same, ending the test
skip_all_32() {
	if have_multilib; then
		not_ok "$1: the 32-bit build failed on a host that builds 32-bit programs"
		test_done
	fi
	skip_all needs:gcc-multilib "$1"
}
# Any other end (exit, an error under set -u, a missing test_done) still
# gives a valid plan, with a failed check and a non-zero status saying so.
kb_test_exit() {
	local status=$?
	not_ok "test script ended without test_done (exit status $status)"
	echo "1..$kb_test_n"
	[ "$status" -ne 0 ] || status=1
	exit "$status"
}
trap kb_test_exit EXIT

# A fresh scratch directory for this test under the build tree.
scratch() {
	local d="$TEST_BUILDDIR/out/$(basename "$0" .sh)"
	rm -rf "$d" && mkdir -p "$d" && echo "$d"
}
# jq_true FILE FILTER: FILTER holds on the JSON in FILE (quietly)
jq_true() { jq -e "$2" "$1" >/dev/null 2>&1; }
# jq_all FILE FILTER: same, on a JSON-lines file slurped into an array
jq_all() { jq -se "$2" "$1" >/dev/null 2>&1; }
# run_in DIR [VAR=VALUE...] COMMAND...: COMMAND (a kbench run) in DIR with
# those variables, output in DIR/run.out and DIR/run.err; sets rc, and run:
# the run directory it printed, else DIR/no-run
run_in() {
	local dir=$1
	shift
	(cd "$dir" && env "$@" > run.out 2> run.err)
	rc=$?
	run=$(sed -n 's,/report.md$,,p' "$dir/run.out" | tail -n 1)
	run=${run:-$dir/no-run}
}
# wait_lines FILE N [SECONDS]: until FILE has N lines, at most SECONDS (600)
wait_lines() {
	local i=0 tenths=$((${3:-600} * 10))
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ] && [ $i -lt $tenths ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# needs_cmd COMMAND NAME: without COMMAND, skip the rest of the test
needs_cmd() { command -v "$1" >/dev/null 2>&1 || skip_all "needs:$1" "$2"; }
# find_python IMPORTS: in PY, the first of $KBENCH_PYTHON, python3 and
# /usr/bin/python3 that can "import IMPORTS" (pyenv's python3 may lack
# Debian's scipy); PY empty and status 1 when none can
find_python() {
	PY=
	for p in "${KBENCH_PYTHON:-}" python3 /usr/bin/python3; do
		[ -n "$p" ] && "$p" -c "import $1" 2>/dev/null && { PY=$p; return 0; }
	done
	return 1
}
# needs_python IMPORTS PACKAGE NAME: find_python, else skip the rest of the
# test as needing PACKAGE
needs_python() { find_python "$1" || skip_all "needs:$2" "$3"; }

# expect_error NAME LINE PATTERN CONTENT: CONTENT (printf %b) as $d/NAME.conf;
# kbench run refuses it with exit 2 and "$d/NAME.conf:LINE: ...PATTERN"
expect_error() {
	printf '%b' "$4" > "$d/$1.conf"
	# a kbench that took the file would start building: not for long
	timeout 60 "$KBENCH" run "$d/$1.conf" > "$d/$1.out" 2> "$d/$1.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "^$d/$1.conf:$2: .*$3" "$d/$1.err"; then
		ok "$1: exit 2, $1.conf:$2 names the problem"
	else
		not_ok "$1: exit 2, $1.conf:$2 names the problem (rc=$rc)"
		sed 's/^/# /' "$d/$1.err" | head -n 5
	fi
}
# expect_taken NAME LINE DESC CONTENT: CONTENT (printf %b, with "boots = 0"
# at line LINE, so that kbench stops there) as $d/NAME.conf; the one error
# kbench run reports is that line's: the rest of the file is taken
expect_taken() {
	printf '%b' "$4" > "$d/$1.conf"
	timeout 60 "$KBENCH" run "$d/$1.conf" > /dev/null 2> "$d/$1.err"
	if grep -q "$1.conf:$2: 'boots'" "$d/$1.err" && [ "$(wc -l < "$d/$1.err")" -eq 1 ]; then
		ok "$3"
	else
		not_ok "$3"
		sed 's/^/# /' "$d/$1.err" | head -n 5
	fi
}
# fails_naming NAME FILE COMMAND...: COMMAND fails with status 1, a message
# naming 'FILE' and nothing on stdout; its output in $d/got and $d/err
fails_naming() {
	local name=$1 file=$2
	shift 2
	"$@" >"$d/got" 2>"$d/err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -qF "'$file'" "$d/err" && [ ! -s "$d/got" ]; then
		ok "$name"
	else
		not_ok "$name (exit status $rc)"
		sed 's/^/# /' "$d/err"
	fi
}
# same_output NAME REFERENCE SUBCOMMAND ARG...: `kbench SUBCOMMAND ARG...`
# prints what `REFERENCE ARG...` prints, byte for byte (REFERENCE: a
# program or a function)
same_output() {
	local name=$1 ref=$2 sub=$3
	shift 3
	if ! "$KBENCH" "$sub" "$@" >"$d/got" 2>"$d/err"; then
		not_ok "$name (exit status $?)"
		sed 's/^/# /' "$d/err"
		return
	fi
	"$ref" "$@" >"$d/want" 2>/dev/null
	if cmp -s "$d/want" "$d/got"; then
		ok "$name ($(wc -l <"$d/want") lines)"
	else
		not_ok "$name"
		diff "$d/want" "$d/got" | head -n 20 | sed 's/^/# /'
	fi
}

# guest_cc OUT SOURCE [FLAGS...]: a static i386 program without libc, as
# the sim tests run them (tests/sim/rt.h); fails without gcc-multilib
guest_cc() {
	local out=$1 src=$2
	shift 2
	${CC:-cc} -m32 -O2 -static -nostdlib -no-pie -ffreestanding -fno-pic -fno-stack-protector \
		-fno-asynchronous-unwind-tables -I"$TEST_SRCDIR/../src/base" "$@" -o "$out" "$src"
}
# runner VAR=VALUE...: the guest runner ($KBENCH_RUNNER, a static i386
# program) on this host with only those variables, under $exec_with
exec_with=
runner() { env -i "$@" $exec_with "$KBENCH_RUNNER"; }
# find_runner_exec: how this host runs it: natively, else under qemu-i386
# (some x86-64 kernels cannot run i386 programs); exec_with=none and
# status 1 when neither works
find_runner_exec() {
	for exec_with in "" qemu-i386; do
		[ -z "$exec_with" ] || command -v "$exec_with" >/dev/null 2>&1 || continue
		runner kb_workloads=getppid kb_samples=1 kb_scale=0.0001 </dev/null 2>/dev/null |
			grep -q '^@KB1 hello ' && return 0
	done
	exec_with=none
	return 1
}

# Tests on real kernels: Debian's kernel source, the default's (Linux 6.12
# with configs/slub.config, as variants.conf builds it, so that the suite
# builds the kernels ./quickstart run uses and no others), and the build
# cache kbench uses by default (so CI reuses kernels built by earlier runs).
# $kernel_tree: the top directory in the tarball.
kernel_src=/usr/src/linux-source-6.12.tar.xz
kernel_tree=linux-source-6.12
kernel_fragment=$TEST_SRCDIR/../configs/slub.config
kernel_cache=${KBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kbench}
# needs_kernel_source NAME: without the source, skip the rest of the test
needs_kernel_source() {
	[ -f "$kernel_src" ] || skip_all "needs:$kernel_tree" "$1"
}
# build_first CONF: kbench build CONF (its kernels built, or waited for while
# another test builds them), so that a test's waits time boots, not a cold
# cache's builds; a failed build is a failed check and ends the test
build_first() {
	local rc
	"$KBENCH" build "$1" > "$1.build.out" 2> "$1.build.err"
	rc=$?
	check "the kernels of $(basename "$1") are built or cached (rc $rc)" test $rc -eq 0
	[ $rc -eq 0 ] || { sed 's/^/# /' "$1.build.err" | tail -n 20; test_done; }
}
# oracle_programs DIR PYTHON_IMPORT: the oracle's static i386 programs
# ($progs, from tests/oracle) built into DIR, with the tools their tests
# need (objdump, python3 with PYTHON_IMPORT, qemu-user for kbench sim); else
# the test is skipped, saying which is missing
oracle_programs() {
	local p src=$TEST_SRCDIR/oracle
	for p in $progs; do
		if ! ${CC:-cc} -m32 -static -nostdlib -no-pie -I"$src" -o "$1/$p" "$src/$p.S" 2> "$1/cc.err"; then
			sed 's/^/# /' "$1/cc.err"
			skip_all_32 "oracle"
		fi
	done
	command -v "${OBJDUMP:-objdump}" > /dev/null || skip_all "needs:binutils (objdump)" "oracle"
	find_python "$2" || skip_all "needs:python3" "oracle"
	"$KBENCH" sim --l2 off "$1/lines" > /dev/null 2> "$1/probe.err"
	if [ $? -eq 3 ]; then
		sed 's/^/# /' "$1/probe.err"
		skip_all "needs:qemu-user" "oracle"
	fi
}
# unpacked_tree: the first $kernel_tree that kbench unpacked in the cache,
# or nothing; never a NAME.tmp.PID (a tree another kbench is unpacking, which
# it removes when it finds the tarball unpacked by one before it)
unpacked_tree() { ls -d "$kernel_cache"/src/*/$kernel_tree 2>/dev/null | grep -v '\.tmp\.' | head -n 1; }
# find_bloat_o_meter DIR: the kernel's scripts/bloat-o-meter in $bom:
# $KBENCH_BLOAT_O_METER, else the script of an unpacked Linux source
# (kbench's cache, /usr/src), else taken out of Debian's tarball into DIR;
# $bom is empty when there is none
find_bloat_o_meter() {
	local f
	bom=${KBENCH_BLOAT_O_METER:-}
	for f in "$(unpacked_tree)/scripts/bloat-o-meter" \
		/usr/src/$kernel_tree/scripts/bloat-o-meter; do
		[ -z "$bom" ] && [ -f "$f" ] && bom=$f
	done
	if [ -z "$bom" ] && [ -f "$kernel_src" ] &&
		tar -xJf "$kernel_src" -C "$1" --occurrence=1 $kernel_tree/scripts/bloat-o-meter 2>/dev/null; then
		bom=$1/$kernel_tree/scripts/bloat-o-meter
	fi
}
# kernel_section: the [kernel] section of such a test's variants.conf
kernel_section() {
	printf '[kernel]\nsource = %s\nfragment = %s\ncache = %s\n' "$kernel_src" "$kernel_fragment" "$kernel_cache"
}
# kdir VARIANT OUT: the cache directory of VARIANT's kernel, from kbench
# build's table (OUT, its standard output)
kdir() { awk -v v="$1" '$1 == v { print $4 }' "$2" | xargs dirname; }
# objs VARIANT ERR: VARIANT's object directory, as kbench build's messages
# (ERR, its standard error) name it
objs() { sed -n "s/.*variant '$1': .* its objects in \(.*\)\$/\1/p" "$2"; }
# x86_64_ld: the linker of the suite's one x86_64 kernel (t0260's, whose
# .config t0265 starts from): ld.lld where it is there, else nothing (GNU
# ld).  lld is in the .config (CONFIG_LD_IS_LLD, its version), so kernels
# of the two linkers are two kernels compiled from nothing.
x86_64_ld() { command -v ld.lld > /dev/null && echo ld.lld; }
# syscall_order ENTRY GETPPID: the suite's hand-made order (t0285 on i386,
# t0260 on x86_64): plain C functions of the main text (fs/, kernel/, mm/)
# that getppid, read, write and open run, in an order that is not the
# link's, after the arch's syscall entry ENTRY, as the orders of syscall
# workloads have it; GETPPID is the arch's name of getppid's body
syscall_order() {
	printf '%s\n' "$1" ksys_write "$2" vfs_read kfree do_sys_openat2 ksys_read vfs_write \
		getname_flags __fput path_openat
}
# An ordered kernel by nm (t0285, and t0260 on x86_64).  rising VMLINUX
# ORDER: "FOUND RISING", how many of ORDER's names the kernel's text has
# and how many pairs of one and the next sit at rising addresses
rising() {
	nm "$1" | awk -v order="$2" '
		BEGIN { while ((getline l < order) > 0) if (l !~ /^#/) want[++n] = l }
		($2 == "t" || $2 == "T") && !($3 in at) { at[$3] = $1 }
		END { for (i = 1; i <= n; i++) if (want[i] in at) print at[want[i]] }' |
	while read -r a; do hex2dec "$a"; done |
	awk 'NR > 1 && $1 > last { r++ } { last = $1 } END { print NR, r + 0 }'
}
# placed VMLINUX ORDER: "ADDR SIZE NAME" (nm -S) of the order's C
# functions, in the order's order ("none 0 NAME" where nm has none); the
# entry code an order may name (entry_SYSENTER_32, entry_SYSCALL_64) stays
# in .entry.text and is left out
placed() {
	nm -S "$1" | awk -v order="$2" '
		BEGIN { while ((getline l < order) > 0) if (l !~ /^#/ && l !~ /^entry_/) want[++n] = l }
		($3 == "t" || $3 == "T") && !($4 in at) { at[$4] = $1; sz[$4] = $2 }
		END { for (i = 1; i <= n; i++) print (want[i] in at ? at[want[i]] " " sz[want[i]] : "none 0"), want[i] }'
}
# hex2dec HEX: HEX in decimal; an x86_64 kernel address without its top
# 32 bits (ffffffff: its text is in the top 2 GiB), which the shell's
# signed 64 bits would not hold
hex2dec() {
	case $1 in
	ffffffff????????) printf '%d\n' "0x${1#ffffffff}" ;;
	*) printf '%d\n' "0x$1" ;;
	esac
}
# sym VMLINUX NAME: NAME's address by nm (the first), empty where none
sym() { nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }'; }
# in_entry_text VMLINUX NAME: NAME lies in .entry.text (__entry_text_start
# to __entry_text_end), where an order's entry code stays
in_entry_text() {
	local a s e
	a=$(sym "$1" "$2") s=$(sym "$1" __entry_text_start) e=$(sym "$1" __entry_text_end)
	[ -n "$a" ] && [ -n "$s" ] && [ -n "$e" ] &&
		[ "$(hex2dec "$a")" -ge "$(hex2dec "$s")" ] && [ "$(hex2dec "$a")" -lt "$(hex2dec "$e")" ]
}
# contiguous FILE: each function of FILE (placed's lines) starts within 16
# bytes of the previous one's end, all of them found (mawk reads no hex:
# the shell does)
contiguous() {
	local a s n end=
	while read -r a s n; do
		[ "$a" = none ] && return 1
		a=$(hex2dec "$a") s=$(hex2dec "$s")
		[ -z "$end" ] || { [ "$a" -ge "$end" ] && [ $((a - end)) -lt 16 ]; } || return 1
		end=$((a + s))
	done < "$1"
}
# place_check UNORDERED_MAP VL_FILE BUILT_MAP [PREFIX]: tests/place-check.py
# on a placement: the functions at the built kernel's address in
# ${PREFIX}same, those elsewhere in ${PREFIX}other (empty where it could
# not tell), up to 5 of those elsewhere as diagnostics
place_check() {
	local out=$2.check s o
	python3 "$TEST_SRCDIR/place-check.py" "$1" "$2" "$3" > "$out"
	read -r s o < "$out"
	sed -n '2,$s/^/# elsewhere: /p' "$out"
	eval "${4:-}same=\$s ${4:-}other=\$o"
}
# write_tcg_conf FILE [KEY=VALUE...] [-- VARIANT...]: such a test's
# variants.conf: kernel_section; [run] with boot_runs = 0, accel = tcg,
# boots = 1, samples = 1, scale = 0.05, timeout = 120, output = results,
# each KEY=VALUE replacing its default or adding a key (KEY= leaves it
# out); then the variants, O2 and Os unless named.  A VARIANT is NAME or
# NAME:KEY=VALUE (one more key); its kernel is -Os for names that start
# with Os, else -O2.
write_tcg_conf() {
	local file=$1 kv arg given
	shift
	{
		kernel_section
		printf '\n[run]\n'
		for kv in boot_runs=0 accel=tcg boots=1 samples=1 scale=0.05 timeout=120 output=results; do
			given=
			for arg; do
				[ "$arg" = -- ] && break
				[ "${arg%%=*}" = "${kv%%=*}" ] && given=1
			done
			[ -n "$given" ] || printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"
		done
		while [ $# -gt 0 ] && [ "$1" != -- ]; do
			[ -z "${1#*=}" ] || printf '%s = %s\n' "${1%%=*}" "${1#*=}"
			shift
		done
		if [ $# -gt 0 ]; then
			shift
		else
			set -- O2 Os
		fi
		for arg; do
			printf '\n[variant %s]\n' "${arg%%:*}"
			case $arg in
			Os*) echo 'config = CC_OPTIMIZE_FOR_SIZE=y' ;;
			*) echo 'config = CC_OPTIMIZE_FOR_PERFORMANCE=y' ;;
			esac
			case $arg in
			*:*) kv=${arg#*:}; printf '%s = %s\n' "${kv%%=*}" "${kv#*=}" ;;
			esac
		done
	} > "$file"
}
# blocks_sums SIM BLOCKS OUT: per region, "seq insn_k insn_u" as the plugin's
# .sim file counts them (OUT.sim) and as the sum over the blocks file's units
# of executions x instructions (OUT.blocks); both sorted, one line a region
blocks_sums() {
	awk '$1 == "region" { k = u = 0; for (i = 2; i <= NF; i++) {
		if ($i ~ /^seq=/) s = substr($i, 5); if ($i ~ /^insn_k=/) k = substr($i, 8)
		if ($i ~ /^insn_u=/) u = substr($i, 8) } print s, k, u }' "$1" | sort -n > "$3.sim"
	awk '$1 == "b" { k[$2] = $4; u[$2] = $5 }
	     $1 == "x" { sk[$2] += $4 * k[$3]; su[$2] += $4 * u[$3] }
	     $1 == "r" { printf "%d %.0f %.0f\n", $2, sk[$2], su[$2] }' "$2" | sort -n > "$3.blocks"
}
