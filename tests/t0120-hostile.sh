#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Failures are contained: a guest that floods the serial port, prints garbage
# or forged records, hangs, or lets init die; QEMU missing or crashing.  Each
# is recorded with its reason, the run goes on, and the exit status is 1.
# A guest that puts markup and commands in every string it controls gets
# none of them into a report: records carrying them are refused, and the one
# string that does get through, its forged panic line as the boot's reason,
# is shown inert in report.md and report.html.
# Uses the O2 kernel t0100 built (cached).
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
needs_kernel_source "hostile"
write_tcg_conf "$d/variants.conf" timeout=20 serial_limit=65536 -- O2
# the markup guest's sample has no simulated region: the clock takes it
write_tcg_conf "$d/clock.conf" timeout=20 serial_limit=65536 backend=clock -- O2

# what the markup guest's commands would create, were one run (short: the
# panic line that carries it is kept to 255 bytes)
canary=${TMPDIR:-/tmp}/kb-pwned.$$
rm -f "$canary"
for mode in FLOOD GARBAGE HANG EXIT MARKUP; do
	cc -m32 -static -O2 -DMODE=$mode -DCANARY="\"$canary\"" -I"$TEST_SRCDIR/../src/base" \
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

hostile variants.conf KBENCH_RUNNER="$d/init-HANG"
check "hang: killed at the deadline, exit 1" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = timeout ]"
check "hang: the reason names the deadline" grep -q 'no end within 20 s' "$run/boots.jsonl"

hostile variants.conf KBENCH_RUNNER="$d/init-EXIT"
check "init exits: kernel panic recorded" sh -c "[ $rc -eq 1 ] && [ \"$(status)\" = panic ]"
check "init exits: the panic line is the reason" grep -q 'Kernel panic' "$run/boots.jsonl"
check "report lists the failed boot" grep -q '| O2 | 1 | panic |' "$run/report.md"

# Markup: <script>, a table's |, backticks, $(...) and a gnuplot command in
# every field of every record kind (all refused), plain records (taken), then
# a forged panic line with the same payloads (the boot's reason).
hostile clock.conf KBENCH_RUNNER="$d/init-MARKUP"
b=$run/boots.jsonl
sent=$(tr -d '\r' < "$run/boots/O2-1.serial" | sed -n 's/^hostile: \([0-9]*\) refused records sent$/\1/p')
check "markup: every record with a payload refused as garbled (${sent:-none} sent)" sh -c \
	"[ -n '$sent' ] && [ '$sent' -gt 0 ] && jq -e '.garbled == $sent' '$b' >/dev/null"
check "markup: samples with fields the runner never sends (hostile_1, host_cyc_k) rejected" \
	jq -e '.rejected == 2 and .first_rejected == "sample with a field the runner never sends"' "$b"
check "markup: the plain hello, sample and error that follow are taken" sh -c \
	"jq -e '.pmu == \"none: no_PMU:x.y+z-1\" and .guest_errors == 1 and .samples == 1' '$b' >/dev/null &&
	 jq -se 'length == 1 and .[0].fields == {\"ins_k\": 5}' '$run/samples.jsonl' >/dev/null"
want="Kernel panic - hostile: <script>alert(1)</script> | a | b | \`touch $canary\` \$(touch $canary) '; system(\"touch $canary\"); ' *x* [l](javascript:alert(2))"
reason=$(jq -r .reason "$b")
check "markup: the forged panic line is the boot's reason, whole" sh -c \
	"[ \"$(status)\" = panic ] && [ \"\${1%\\?}\" = \"\$2\" ]" - "$reason" "$want"
check "markup: nothing after the panic line (the console's CR is no part of it)" \
	test "$reason" = "$want"
# (issue 25: the per-metric tables, ins_k's among them, are report.html's)
check "markup: report.html shows the guest's counter (ins_k), neither report the made-up ones" sh -c \
	"grep -q '<td>ins_k/op<td>' '$run/report.html' &&
	 ! grep -qE 'hostile\\\\?_1|host\\\\?_cyc' '$run/report.md' '$run/report.html'"

# report.md: the boots table row keeps its five cells, nothing in the reason
# is markup, and unescaped it is the guest's line
row=$(grep '^| O2 | 1 | panic | ' "$run/report.md")
md_inert() {
	local bare cell
	bare=$(printf '%s' "$row" | sed 's/\\.//g')
	cell=$(printf '%s' "$row" | sed 's/^| O2 | 1 | panic | //; s/?\{0,1\} | boots\/O2-1\.serial |$//; s/\\\(.\)/\1/g')
	[ "$(printf '%s' "$bare" | tr -cd '|' | wc -c)" -eq 6 ] &&
		! printf '%s' "$bare" | grep -q '[]<>`*[]' && [ "$cell" = "$want" ] &&
		! sed 's/\\.//g' "$run/report.md" | grep -qi '<script'
}
check "markup: report.md boots row: five cells, the reason escaped, nothing raw" md_inert
[ -n "$row" ] && diag "report.md: $row"
# report.html: no raw markup, and the reason is there as text
h=$run/report.html
check "markup: no raw markup in report.html" sh -c \
	"test -s '$h' && ! grep -qiE '<script|href=.?javascript:' '$h'"
html_text() {
	sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&#39;/'/g; s/&#x27;/'/g; s/&apos;/'/g; s/&amp;/\&/g" "$1"
}
html_text "$h" > "$d/report.txt" 2>/dev/null
check "markup: report.html shows the boot's reason as text, escaped" sh -c \
	"grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' '$h' && grep -qF \"\$1\" '$d/report.txt'" - "$want"
check "markup: no terminal control from the guest in kbench's messages" \
	sh -c "! grep -q \"\$(printf '\\033')\" '$d/run.err'"
command -v gnuplot >/dev/null 2>&1 || diag "no gnuplot here: the plots' part of the next check is void"
check "markup: no payload command ran (no $canary)" test ! -e "$canary"
rm -f "$canary"

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
