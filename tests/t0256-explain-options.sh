#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench explain checks every option before it builds anything (issue 22,
# item 9), naming the option and the bad element, exit status 2.  Before,
# --only '', --only ',' and --only nosuch/thing.o built the hybrids and the
# B end for nothing, and --only kernel,kernel and --cases nosuch failed only
# after A and B were built, naming a line of a temporary file.  The source
# is a stand-in tree (a Makefile that builds nothing, kernel/ and mm/): a
# refusal leaves no output directory and starts no build; options that pass
# reach the build, which fails there.  What only a build can tell (an
# object that is not built) is t0255's.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
d=$(scratch)

mkdir -p "$d/linux/kernel" "$d/linux/mm"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n%%:\n\t@echo "not a kernel (kbench t0256)" >&2; false\n' \
	> "$d/linux/Makefile"
: > "$d/linux/Kconfig"
cat > "$d/variants.conf" <<EOF
[kernel]
source = $d/linux
cache = $d/cache

[run]
output = $d/results
workloads = getppid,pipe

[variant O2]
config = CC_OPTIMIZE_FOR_PERFORMANCE=y

[variant Os]
config = CC_OPTIMIZE_FOR_SIZE=y
EOF

# refused NAME MESSAGE OPTION...: kbench explain OPTION... variants.conf O2 Os
# exits 2 within 30 s with MESSAGE (a fixed string) on stderr, nothing on
# stdout, and no build begun (no output directory, no "building")
refused() {
	local name=$1 msg=$2
	shift 2
	rm -rf "$d/results"
	timeout 30 "$KBENCH" explain "$@" "$d/variants.conf" O2 Os > "$d/out" 2> "$d/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$msg" "$d/err" && [ ! -s "$d/out" ] && [ ! -e "$d/results" ] &&
	   ! grep -q 'building' "$d/err"; then
		ok "$name"
	else
		not_ok "$name (exit status $rc)"
		sed 's/^/# /' "$d/err" | tail -n 5
	fi
}

refused "--only '': an empty list" "kbench: --only: empty list" --only ''
refused "--only ',': empty elements" "kbench: --only ',': empty element" --only ,
refused "--only kernel,,mm: an empty element" "--only 'kernel,,mm': empty element" --only kernel,,mm
refused "--only nosuch/thing.o: its directory is not in the tree" \
	"--only 'nosuch/thing.o': no directory 'nosuch/' in the kernel tree ($d/linux)" --only nosuch/thing.o
refused "--only kernel,kernel: given twice" "--only 'kernel/': given twice" --only kernel,kernel
refused "--only kernel,kernel/: the same directory twice" "--only 'kernel/': given twice" --only mm,kernel,kernel/
refused "--only kernel,kernel/fork.o: parts that overlap" \
	"--only 'kernel/fork.o': inside 'kernel/', another part" --only kernel,kernel/fork.o
refused "--only ./kernel: not a plain relative path" "--only './kernel': a directory or object" --only ./kernel
refused "--only kernel//fork.o: not a plain relative path" "--only 'kernel//fork.o': a directory or object" \
	--only kernel//fork.o
refused "--only all: its hybrid's name is the B end's" \
	"--only 'all/': its hybrid would be variant 'Os.all', as the B end is" --only all
refused "--cases nosuch: an unknown workload" "kbench: --cases: unknown workload 'nosuch'" --cases nosuch
refused "--cases getpid: an unknown workload, with did-you-mean" \
	"--cases: unknown workload 'getpid' (did you mean 'getppid'?)" --cases getpid
refused "--cases getppid,getppid: given twice" "--cases: workload 'getppid' listed twice" --cases getppid,getppid
refused "--cases '': an empty list" "--cases: empty workload list" --cases ''
refused "--under '': an empty path" "kbench: --under: empty path" --under ''
refused "--under nosuch: not in the tree" "--under 'nosuch/': not a directory of the kernel tree ($d/linux)" \
	--under nosuch
refused "--under kernel/fork.o: not a directory" "--under 'kernel/fork.o': not a directory of the kernel tree" \
	--under kernel/fork.o
refused "--flags align-functions,align-functions: given twice" "--flags 'align-functions': given twice" \
	--by-flag --flags align-functions,align-functions
refused "--flags '': an empty list" "kbench: --flags: empty list" --by-flag --flags ''
refused "--flags a,: an empty element" "--flags 'a,': empty element" --by-flag --flags a,
refused "--flags -falign-functions: the name, not the gcc option" \
	"--flags '-falign-functions': a setting's name as --by-flag lists it" --by-flag --flags -falign-functions

# A and B among the configuration's variants, refused one way (issue 34,
# item 8): exit 2, "did you mean" where one is close, else the variants
timeout 30 "$KBENCH" explain "$d/variants.conf" O2 Oss > "$d/out" 2> "$d/err"
rc=$?
check "B not a variant (Oss): exit 2, did you mean 'Os' (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -qxF \"kbench: explain: unknown variant 'Oss' (did you mean 'Os'?)\" '$d/err' &&
	 [ ! -e '$d/results' ]"
timeout 30 "$KBENCH" explain "$d/variants.conf" fast Os > "$d/out" 2> "$d/err"
rc=$?
check "A not a variant (fast): exit 2, the variants listed (rc $rc)" sh -c \
	"[ $rc -eq 2 ] && grep -qxF \"kbench: explain: unknown variant 'fast' (one of: O2, Os)\" '$d/err'"

# good options pass: the stand-in tree's build is what fails
timeout 30 "$KBENCH" explain --only kernel,mm/memory.o --cases getppid "$d/variants.conf" O2 Os \
	> "$d/out" 2> "$d/err"
rc=$?
check "--only kernel,mm/memory.o --cases getppid pass the checks: the build begins (and fails, rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q \"building (or finding in the cache) 'O2' and 'Os'\" '$d/err'"
timeout 30 "$KBENCH" explain --by-flag --flags align-functions --only kernel/fork.o "$d/variants.conf" O2 Os \
	> "$d/out" 2> "$d/err"
rc=$?
check "--by-flag --flags align-functions --only kernel/fork.o pass the checks (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'building (or finding in the cache)' '$d/err'"
test_done
