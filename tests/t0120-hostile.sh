#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Failures are contained: a guest that floods the serial port, prints garbage
# or forged records, hangs, or lets init die; QEMU missing or crashing.  Each
# is recorded with its reason, the run goes on, and the exit status is 1.
# Uses the O2 kernel t0100 built (cached).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
plan 14
d=$(scratch)
needs_kernel_source 14 "hostile"

cat > "$d/variants.conf" <<CONF
$(kernel_section)
[run]
boot_runs = 0
accel = tcg
boots = 1
samples = 1
scale = 0.05
timeout = 20
serial_limit = 65536
output = results
[variant O2]
config = CC_OPTIMIZE_FOR_PERFORMANCE=y
CONF

for mode in FLOOD GARBAGE HANG EXIT; do
	cc -m32 -static -O2 -DMODE=$mode -I"$TEST_SRCDIR/../src" \
		-o "$d/init-$mode" "$TEST_SRCDIR/hostile-guest.c" || not_ok "build hostile guest $mode"
done

# hostile MODE: run with that guest; sets $run and $rc
hostile() {
	rm -rf "$d/results"
	(cd "$d" && KBENCH_RUNNER="$d/init-$1" "$KBENCH" run variants.conf > "$1.out" 2> "$1.err")
	rc=$?
	run=$(sed -n 's,/report.md$,,p' "$d/$1.out" | tail -n 1)
	run=${run:-$d/no-run-directory}
}
status() { jq -r '.status' "$run/boots.jsonl" 2>/dev/null; }

hostile FLOOD
check "flood: stopped at the serial limit, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = flood ] && jq -e '.serial_bytes == 65536' '$run/boots.jsonl' >/dev/null"
check "flood: serial log kept, capped" test "$(wc -c < "$run/boots/O2-1.serial")" -eq 65536

hostile GARBAGE
check "garbage: the boot ends, nothing forged is believed" sh -c \
	"[ \"$(status)\" = ok ] && [ ! -s '$run/samples.jsonl' ]"
check "garbage: bad checksums and overlong lines counted" \
	sh -c "jq -e '.garbled >= 3' '$run/boots.jsonl' >/dev/null"
check "garbage: well-formed but impossible samples rejected" \
	sh -c "jq -e '.rejected == 4' '$run/boots.jsonl' >/dev/null"
check "garbage: no guest markup in the report" sh -c "! grep -q '<script>' '$run/report.md'"

hostile HANG
check "hang: killed at the deadline, exit 1" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = timeout ]"
check "hang: the reason names the deadline" grep -q 'no end within 20 s' "$run/boots.jsonl"

hostile EXIT
check "init exits: kernel panic recorded" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = panic ]"
check "init exits: the panic line is the reason" grep -q 'Kernel panic' "$run/boots.jsonl"
check "report lists the failed boot" grep -q '| O2 | 1 | panic |' "$run/report.md"

# QEMU missing, and QEMU dying of a signal
rm -rf "$d/results"
(cd "$d" && KBENCH_QEMU=/nonexistent/qemu-system-i386 "$KBENCH" run variants.conf > nq.out 2> nq.err)
rc=$?
run=$(sed -n 's,/report.md$,,p' "$d/nq.out" | tail -n 1)
check "QEMU missing: recorded, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"\$(jq -r .status '$run/boots.jsonl')\" = qemu-failed ] && grep -q '/nonexistent/qemu-system-i386' '$d/nq.err'"

printf '#!/bin/sh\nkill -SEGV $$\n' > "$d/crashing-qemu"
chmod +x "$d/crashing-qemu"
rm -rf "$d/results"
(cd "$d" && KBENCH_QEMU="$d/crashing-qemu" "$KBENCH" run variants.conf > cq.out 2> cq.err)
rc=$?
run=$(sed -n 's,/report.md$,,p' "$d/cq.out" | tail -n 1)
check "QEMU crashing: recorded as crashed with its signal, exit 1" sh -c \
	"[ $rc -eq 1 ] && jq -e '.status == \"crashed\" and (.reason | test(\"signal 11\"))' '$run/boots.jsonl' >/dev/null"
check "the manifest still describes the run" sh -c "jq -e '.state == \"complete\"' '$run/manifest.json' >/dev/null"
