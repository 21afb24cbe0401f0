#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Failures are contained: a guest that floods the serial port, prints garbage
# or forged records, hangs, or lets init die; QEMU missing or crashing.  Each
# is recorded with its reason, the run goes on, and the exit status is 1.
# Uses the O2 kernel t0100 built (cached).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "hostile"
write_tcg_conf "$d/variants.conf" timeout=20 serial_limit=65536 -- O2

for mode in FLOOD GARBAGE HANG EXIT; do
	cc -m32 -static -O2 -DMODE=$mode -I"$TEST_SRCDIR/../src" \
		-o "$d/init-$mode" "$TEST_SRCDIR/hostile-guest.c" || not_ok "build hostile guest $mode"
done

# hostile CONF VAR=VALUE...: a fresh run of CONF with those variables; sets
# $run and $rc
hostile() {
	local conf=$1
	shift
	rm -rf "$d/results"
	run_in "$d" "$@" "$KBENCH" run "$conf"
}
status() { jq -r '.status' "$run/boots.jsonl" 2>/dev/null; }

hostile variants.conf KBENCH_RUNNER="$d/init-FLOOD"
check "flood: stopped at the serial limit, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = flood ] && jq -e '.serial_bytes == 65536' '$run/boots.jsonl' >/dev/null"
check "flood: serial log kept, capped" test "$(wc -c < "$run/boots/O2-1.serial")" -eq 65536

hostile variants.conf KBENCH_RUNNER="$d/init-GARBAGE"
check "garbage: the boot ends, nothing forged is believed" sh -c \
	"[ \"$(status)\" = ok ] && [ ! -s '$run/samples.jsonl' ]"
check "garbage: bad checksums and overlong lines counted" \
	sh -c "jq -e '.garbled >= 3' '$run/boots.jsonl' >/dev/null"
check "garbage: well-formed but impossible samples rejected" \
	sh -c "jq -e '.rejected == 4' '$run/boots.jsonl' >/dev/null"
check "garbage: no guest markup in the report" sh -c "! grep -q '<script>' '$run/report.md'"

hostile variants.conf KBENCH_RUNNER="$d/init-HANG"
check "hang: killed at the deadline, exit 1" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = timeout ]"
check "hang: the reason names the deadline" grep -q 'no end within 20 s' "$run/boots.jsonl"

hostile variants.conf KBENCH_RUNNER="$d/init-EXIT"
check "init exits: kernel panic recorded" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = panic ]"
check "init exits: the panic line is the reason" grep -q 'Kernel panic' "$run/boots.jsonl"
check "report lists the failed boot" grep -q '| O2 | 1 | panic |' "$run/report.md"

# QEMU missing, and QEMU dying of a signal
hostile variants.conf KBENCH_QEMU=/nonexistent/qemu-system-i386
check "QEMU missing: recorded, exit 1" sh -c \
	"[ $rc -eq 1 ] && [ \"$(status)\" = qemu-failed ] && grep -q '/nonexistent/qemu-system-i386' '$d/run.err'"

printf '#!/bin/sh\nkill -SEGV $$\n' > "$d/crashing-qemu"
chmod +x "$d/crashing-qemu"
hostile variants.conf KBENCH_QEMU="$d/crashing-qemu"
check "QEMU crashing: recorded as crashed with its signal, exit 1" sh -c \
	"[ $rc -eq 1 ] && jq -e '.status == \"crashed\" and (.reason | test(\"signal 11\"))' '$run/boots.jsonl' >/dev/null"
check "the manifest still describes the run" sh -c "jq -e '.state == \"complete\"' '$run/manifest.json' >/dev/null"
test_done
