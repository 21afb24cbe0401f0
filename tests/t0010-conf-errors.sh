#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad variants.conf files: exit status 2 and a message naming file:line,
# before anything is built.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)


# sbatch takes unique prefixes of long options: --outp is --output (issue
# 22, item 10), and after "--" it would take the next word for the script
expect_error slurmprefix 2 "'slurm_args'.*nor a prefix of them" \
	'[run]\nslurm_args = --cpus-per-task=2 --outp=/x\n[variant a]\n'
expect_error slurmprefix2 2 "'slurm_args'.*nor a prefix of them" \
	'[run]\nslurm_args = --dep=afterok:1\n[variant a]\n'
expect_error slurmdashes 2 "'slurm_args': .*: no '--': sbatch would take" '[run]\nslurm_args = -- --chd=/\n[variant a]\n'
printf '[run]\nslurm_args = --cpus-per-task=2 --exclusive --export=ALL --wait-all-nodes=1 --comment=x\nboots = 0\n[variant a]\n' \
	> "$d/slurmgood.conf"
"$KBENCH" run "$d/slurmgood.conf" > /dev/null 2> "$d/slurmgood.err"
check "options that only begin like kbench's own (--exclusive, --wait-all-nodes): taken" sh -c \
	"grep -q \"slurmgood.conf:3: 'boots'\" '$d/slurmgood.err' && ! grep -q slurm_args '$d/slurmgood.err'"
# invalid UTF-8 would be dropped from the manifest and the report without a
# word (issue 22, item 4): refused; UTF-8 is taken
expect_error utf8desc 2 "'description': not valid UTF-8 (byte 0xff at offset 3)" \
	'[variant a]\ndescription = -O2\0377x\n'
expect_error utf8claim 2 "'text': not valid UTF-8 (byte 0xc3 at offset 3)" \
	'[claim]\ntext = caf\0303\0050\nsmaller = b vs a\n[variant a]\n[variant b]\n'
expect_error utf8overlong 2 "'source': not valid UTF-8 (byte 0xc0 at offset 1)" \
	'[claim]\nsource = x\0300\0257\ntext = t\nsmaller = b vs a\n[variant a]\n[variant b]\n'
printf '[run]\nboots = 0\n[variant a]\ndescription = caf\0303\0251 cr\0303\0250me \0342\0202\0254\n' > "$d/utf8good.conf"
"$KBENCH" run "$d/utf8good.conf" > /dev/null 2> "$d/utf8good.err"
check "UTF-8 (é, è, €) is taken" sh -c \
	"grep -q \"utf8good.conf:2: 'boots'\" '$d/utf8good.err' && ! grep -q UTF-8 '$d/utf8good.err'"
# issue 22, item 11: a value means what it says.  Debian's libinih cut
# values at " ;" (inline comments): "3 ; three" was taken as 3, "a ; b" as a
expect_error inlinesemi 2 "'samples': '3 ; three samples' is not an integer" \
	'[run]\nsamples = 3 ; three samples\n[variant a]\n'
expect_taken semigood 6 "a ';' or '#' inside a value is part of it, not an error" \
	'[claim]\ntext = one; two ; three # four\nsource = a ; b\nsmaller = b vs a\n[run]\nboots = 0\n[variant a]\n[variant b]\n'
"$KBENCH" run --help-config 2>&1 | grep -q "a ';' or '#' in it is part of the value, never a comment"
check "--help-config says how ';' and '#' are read" test $? -eq 0
# lines up to 4 KiB: a claim's sentence or a path can be long (inih: 198 bytes)
long=$(printf '%04000d' 0 | tr 0 x)
expect_taken longgood 5 "a 4006-byte line is read whole" \
	"[claim]\ntext = $long\nsmaller = b vs a\n[run]\nboots = 0\n[variant a]\n[variant b]\n"
expect_error longline 3 "line longer than 4096 bytes" "[run]\nboots = 1\ntext = ${long}${long}\n[variant a]\n"
# dates of the calendar, not after today
expect_error date0230 3 "'date': '2004-02-30': not a date: that month has no such day" \
	'[claim]\ntext = t\ndate = 2004-02-30\nsmaller = b vs a\n[variant a]\n[variant b]\n'
expect_error date1900 3 "'date': '1900-02-29': not a date: that month has no such day" \
	'[claim]\ntext = t\ndate = 1900-02-29\nsmaller = b vs a\n[variant a]\n[variant b]\n'
expect_error date0000 3 "'date': '0000': not a date: there is no year 0000" \
	'[claim]\ntext = t\ndate = 0000\nsmaller = b vs a\n[variant a]\n[variant b]\n'
expect_error datefuture 3 "'date': '9999-01': after today" \
	'[claim]\ntext = t\ndate = 9999-01\nsmaller = b vs a\n[variant a]\n[variant b]\n'
expect_taken dategood 6 "2000-02-29 (a leap day) is a date" \
	'[claim]\ntext = t\ndate = 2000-02-29\nsmaller = b vs a\n[run]\nboots = 0\n[variant a]\n[variant b]\n'
# seed: unsigned 64-bit and decimal, as every other number here
expect_error seedhex 2 "'seed': '0x10' is not an unsigned decimal integer" '[run]\nseed = 0x10\n[variant a]\n'
expect_error seedbig 2 "'seed': 18446744073709551616 is out of range \\[0, 18446744073709551615\\]" \
	'[run]\nseed = 18446744073709551616\n[variant a]\n'
expect_error seedneg 2 "'seed': '-1' is not an unsigned decimal integer" '[run]\nseed = -1\n[variant a]\n'
expect_taken seedgood 3 "seed = 2^64 - 1 is taken" '[run]\nseed = 18446744073709551615\nboots = 0\n[variant a]\n'
# the same prediction twice would count twice in the claim's word
expect_error predtwice 5 "'faster': 'b vs a on getppid' is the prediction of line 3 again" \
	'[claim]\ntext = t\nfaster = b vs a on getppid\nsmaller = b vs a\nfaster = b vs a on getppid\n[variant a]\n[variant b]\n'
expect_error typo 5 "unknown key 'kcflag' (did you mean 'kcflags'?)" \
	'[run]\naccel = tcg\n\n[variant Os]\nkcflag = -Os\n'
expect_error dup 3 "variant 'a' defined twice (first at line 1)" \
	'[variant a]\n\n[variant a]\n'
expect_error badname 2 "variant name '../x' cannot be a directory name" \
	'# a comment\n[variant ../x]\n'
expect_error missing 2 "'boots': missing value" '[run]\nboots =\n[variant a]\n'
expect_error range 2 "'boots': 0 is out of range" '[run]\nboots = 0\n[variant a]\n'
expect_error workload 2 "unknown workload 'getpid' (did you mean 'getppid'?)" \
	'[run]\nworkloads = getpid\n[variant a]\n'
expect_error sweep 2 "'sweep': '512' is not an integer in \\[0, 256\\]" \
	'[run]\nsweep = 0, 4, 512\n[variant a]\n'
expect_error sweepdup 2 "'sweep': 4 given twice" '[run]\nsweep = 4,8,4\n[variant a]\n'
expect_error claimvariant 7 "\\[claim\\] 'faster': unknown variant 'Oz' (did you mean 'O2'?)" \
	'[variant O2]\n[variant Os]\n\n[claim]\ntext = -Oz is faster\nsmaller = Os vs O2\nfaster = Oz vs O2 on getppid\n'
expect_error claimcase 3 "\\[claim\\] 'slower': unknown case 'syscalls' (did you mean 'syscall_mix'?)" \
	'[claim]\ntext = t\nslower = Os vs O2 on getppid, syscalls\n[variant O2]\n[variant Os]\n'
expect_error claimform 3 "\\[claim\\] 'faster': 'Os faster than O2' is not 'A vs B' or 'A vs B on CASES'" \
	'[claim]\ntext = t\nfaster = Os faster than O2\n[variant O2]\n[variant Os]\n'
expect_error placement 2 "'sim_virtual_placement': 'sorted': not one of pad, shuffle, order:FILE" \
	'[run]\nsim_virtual_placement = sorted\n[variant a]\n'
# order:FILE is read as [variant] order's FILE is, relative to the file,
# and its own faults are said at its line too
expect_error placenofile 2 "'sim_virtual_placement': 'order:$d/nope.order': order:FILE: FILE is no order" \
	'[run]\nsim_virtual_placement = order:nope.order\n[variant a]\n'
printf 'kfree\nvfs_read\nkfree\n' > "$d/dup.order"
expect_error placedup 3 "'sim_virtual_placement': 'order:$d/dup.order': order:FILE: FILE is no order" \
	'[run]\nboots = 1\nsim_virtual_placement = order:dup.order\n[variant a]\n'
check "... and the order's own fault is said at its file and line (dup.order:3)" \
	grep -q "$d/dup.order:3: 'kfree' named again (line 1 first)" "$d/placedup.err"
expect_error hybridorder 2 "variant 'H': hybrid: 'Os' is not a variant defined before it" \
	'[variant O2]\n[variant H]\nhybrid = O2 Os kernel\n[variant Os]\n'
expect_error hybridpath 3 "variant 'H': hybrid: path '../kernel' must be relative to the kernel tree" \
	'[variant O2]\n[variant Os]\n[variant H]\nhybrid = O2 Os ../kernel\n'
expect_error hybridown 3 "variant 'H': a hybrid takes its config, kcflags and cc from its variants" \
	'[variant O2]\n[variant Os]\n[variant H]\nkcflags = -O3\nhybrid = O2 Os kernel\n'
expect_error hybridld 3 "variant 'H': a hybrid takes its config, kcflags and cc from its variants" \
	'[variant O2]\n[variant Os]\n[variant H]\nld = ld.lld\nhybrid = O2 Os kernel\n'
expect_error ldchar 2 "'ld': character ';' not allowed" '[variant a]\nld = ld.lld;true\n'
expect_error hybridwords 4 "'hybrid': 'O2 Os': A B PATH\\.\\.\\.: two variants and at least one path" \
	'[variant O2]\n[variant Os]\n[variant H]\nhybrid = O2 Os\n'
expect_error hybridmake 4 "'hybrid': character '\\$' not allowed" \
	'[variant O2]\n[variant Os]\n[variant H]\nhybrid = O2 Os $(shell id)\n'
expect_error hybridcflags 5 "'hybrid_cflags': character '\\$' not allowed" \
	'[variant O2]\n[variant Os]\n[variant H]\nhybrid = O2 Os kernel\nhybrid_cflags = -O$(shell id)\n'
expect_error cflagsalone 2 "variant 'H': hybrid_cflags needs hybrid = A B PATH" \
	'[variant O2]\n[variant H]\nhybrid_cflags = -Os\n'
expect_error kopt 2 "'foo' is not a Kconfig symbol name" '[variant a]\nconfig = foo=y\n'

"$KBENCH" run "$d/nonexistent.conf" > /dev/null 2> "$d/nofile.err"
rc=$?
check "missing file: exit 2 and the path named" \
	sh -c "[ $rc -eq 2 ] && grep -q 'nonexistent.conf' '$d/nofile.err'"

"$KBENCH" run --help-config > "$d/help" 2>&1
check "--help-config documents every section" \
	sh -c "grep -q '^\[kernel\]' '$d/help' && grep -q '^\[run\]' '$d/help' && grep -q '^  kcflags' '$d/help' &&
		grep -q '^\[claim\]' '$d/help' && grep -q '^  layout_sensitive' '$d/help'"

"$KBENCH" frobnicate > /dev/null 2>&1
check "unknown command: exit 2" test $? -eq 2
# [kernel] arch: i386 or x86_64 (issue 26), nothing else
expect_error archarm 3 "'arch': 'arm64' is not one of: i386, x86_64" '[run]\n[kernel]\narch = arm64\n[variant a]\n'
expect_taken archx86_64 4 "arch = x86_64 is taken" '[kernel]\narch = x86_64\n[run]\nboots = 0\n[variant a]\n'
# a baseline naming no variant (issue 34, item 8): at its line, with the
# nearest variant (before: "FILE: baseline 'O3' is not a variant", no line)
expect_error baseline 3 "'baseline': unknown variant 'O3' (did you mean 'O2'?)" \
	'[run]\nboots = 1\nbaseline = O3\n[variant O2]\n[variant Os]\n'
# kbench run --set SECTION.KEY=VALUE (issue 34, item 6): checked as the file
# is, each message naming the option as given; exit 2, nothing planned
printf '[run]\nsamples = 2\n[variant O2]\n[variant Os]\n' > "$d/set.conf"
# expect_set NAME SET MESSAGE: --set SET refused with exit 2 and
# "--set SET: MESSAGE" (fixed text)
expect_set() {
	timeout 60 "$KBENCH" run --dry-run --set "$2" "$d/set.conf" > "$d/$1.out" 2> "$d/$1.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qxF -- "--set $2: $3" "$d/$1.err" && [ ! -s "$d/$1.out" ]; then
		ok "--set $2: exit 2, the option named"
	else
		not_ok "--set $2: exit 2, the option named (rc=$rc)"
		sed 's/^/# /' "$d/$1.err" | head -n 5
	fi
}
expect_set setsection runn.samples=1 "unknown section 'runn' (did you mean 'run'?)"
expect_set setclaim claim.text=x "[claim] is not set from the command line (SECTION kernel, run or variant.NAME)"
expect_set setkey run.sample=1 "[run]: unknown key 'sample' (did you mean 'samples'?)"
expect_set setvalue run.samples=x "'samples': 'x' is not an integer"
expect_set setrange run.layouts=100 "'layouts': 100 is out of range [1, 64]"
expect_set setnoeq run.samples "not SECTION.KEY=VALUE (no '=')"
expect_set setnokey samples=3 "not SECTION.KEY=VALUE (SECTION kernel, run or variant.NAME)"
expect_set setvariant variant.Oz.kcflags=-O3 "unknown variant 'Oz' (did you mean 'O2'?)"
expect_set setvkey variant.Os.kcflag=-O3 "variant 'Os': unknown key 'kcflag' (did you mean 'kcflags'?)"
expect_set setflags variant.Os.kcflags=-B/tmp \
	"'kcflags': '-B/tmp': the driver runs the compiler, assembler and linker found there (refused unless [kernel] unsafe_flags = yes)"
expect_set setbaseline run.baseline=O3 "'baseline': unknown variant 'O3' (did you mean 'O2'?)"
"$KBENCH" run --dry-run --set run.samples=1 --set run.samples=3 "$d/set.conf" > "$d/settwice.out" 2> "$d/settwice.err"
rc=$?
check "--set of one key twice: exit 2 (got $rc), both named" sh -c \
	"[ $rc -eq 2 ] && grep -qxF -- \"--set run.samples=3: 'run.samples' given twice (first: --set run.samples=1)\" '$d/settwice.err'"
test_done
