#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile and unlucky input that needs no kernel (issue: hostile input, round
# two): values that make or a shell would expand, special files where files
# are read, output directories that cannot be, a configuration too big, a
# byte-order mark, a key outside any section, a QEMU that hangs.  Each is a
# clear error naming the file (and line) before any run directory is made,
# and nothing is executed.
. "${TEST_SRCDIR:-$(dirname "$0")}/lib.sh"
d=$(scratch)
cd "$d" || exit 1
pwned=$d/pwned

# refused NAME LINE PATTERN: `kbench run NAME.conf` exits 2 with
# NAME.conf:LINE: ...PATTERN, ran nothing and made no run directory
refused() {
	timeout 60 "$KBENCH" run "$1.conf" > "$1.out" 2> "$1.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "^$1.conf:$2: .*$3" "$1.err" && [ ! -e "$pwned" ] &&
	   [ -z "$(ls -A results 2>/dev/null)" ]; then
		ok "$1: exit 2 at $1.conf:$2, nothing run, no run directory"
	else
		not_ok "$1: exit 2 at $1.conf:$2, nothing run, no run directory (rc=$rc)"
		sed 's/^/# /' "$1.err"
	fi
	rm -rf results "$pwned"
}

# make would run $(shell ...) in O=, -C or a fragment's path
printf '[kernel]\ncache = %s/c$(shell id > %s)\n[variant a]\n' "$d" "$pwned" > cache.conf
refused cache 2 "'cache': .*'\\$' not allowed in a path the kernel build gets"
printf '[kernel]\nsource = %s/s`id > %s`\n[variant a]\n' "$d" "$pwned" > source.conf
refused source 2 "'source': .*'\`' not allowed"
printf '[kernel]\nfragment = x;id>%s\n[variant a]\n' "$pwned" > fragment.conf
refused fragment 2 "'fragment': .*';' not allowed"
printf '[variant a]\nkcflags = -O2 $(shell id > %s)\n' "$pwned" > kcflags.conf
refused kcflags 2 "'kcflags': character '\\$' not allowed"
printf '[variant a]\n' > env.conf
KBENCH_CACHE="$d/\$(shell id > $pwned)" timeout 60 "$KBENCH" run env.conf > env.out 2> env.err
check "a cache from \$KBENCH_CACHE that make would expand: exit 2, named" sh -c \
	"[ $? -eq 2 ] && grep -q 'env.conf: the build cache .*KBENCH_CACHE.*not allowed' env.err && [ ! -e '$pwned' ]"

# the file itself
printf '\357\273\277[run]\nboots = 0\n[variant a]\n' > bom.conf
refused bom 2 "'boots': 0 is out of range"
printf 'boots = 3\n[variant a]\n' > stray.conf
refused stray 1 "'boots' before any section"
{ printf '[variant a]\n'; head -c 2000000 /dev/zero | tr '\0' '#'; } > big.conf
timeout 60 "$KBENCH" run big.conf > big.out 2> big.err
check "a 2 MB configuration: refused, its size said" sh -c \
	"[ $? -eq 2 ] && grep -q \"'big.conf': 2000012 bytes; a configuration is at most 1048576\" big.err"
timeout 20 "$KBENCH" run /dev/zero > zero.out 2> zero.err
check "kbench run /dev/zero: exit 2 at once, not a regular file" sh -c \
	"[ $? -eq 2 ] && grep -q \"cannot read '/dev/zero': not a regular file\" zero.err"
mkfifo fifo.conf
timeout 20 "$KBENCH" run fifo.conf > fifo.out 2> fifo.err
check "a FIFO as the configuration: exit 2 at once" sh -c \
	"[ $? -eq 2 ] && grep -q \"cannot read 'fifo.conf': not a regular file\" fifo.err"

# a terminal escape in a value: the message shows it, the terminal never gets it
printf '[run]\nbaseline = \033]0;kbench-pwned\007x\n[variant a]\n' > esc.conf
"$KBENCH" run esc.conf > esc.out 2> esc.err
check "terminal control in a configuration value: '?' in the message, no escape byte" sh -c \
	"[ $? -eq 2 ] && grep -qF \"esc.conf:2: 'baseline': unknown variant '?]0;kbench-pwned?x'\" esc.err &&
	 ! grep -q \"\$(printf '\\033')\" esc.err"

# what the configuration names on disk
printf '[run]\noutput = /proc/kbench\n[variant a]\n' > proc.conf
refused proc 2 "'output': '/proc/kbench': is in /proc or /sys"
touch plain
printf '[run]\noutput = plain/results\n[variant a]\n' > plainout.conf
refused plainout 2 "'output': '$d/plain/results': cannot be made: a parent is not a directory"
printf '[kernel]\nsource = /etc/hostname\n[variant a]\n' > nottar.conf
refused nottar 2 "'source': '/etc/hostname': neither a tarball"
printf '[kernel]\nsource = %s/nonexistent.tar.xz\n[variant a]\n' "$d" > nosrc.conf
refused nosrc 2 "'source': .*: not found"
printf '[kernel]\n\nfragment = missing.config\n[variant a]\n' > nofrag.conf
refused nofrag 3 "'fragment': '$d/missing.config': No such file or directory"
# a fragment's lines reach .config and make's auto.conf: a value make would expand is refused
printf '# extra\n\nCONFIG_PRINTK=y \nCONFIG_LOCALVERSION="-$(shell id > %s)"\n' "$pwned" > evil.config
printf '[kernel]\nfragment = evil.config\n[variant a]\n' > evilfrag.conf
timeout 60 "$KBENCH" run evilfrag.conf > evilfrag.out 2> evilfrag.err
rc=$?
check "fragment with \$(shell ...): exit 2 (got $rc) at evil.config:4, nothing run" sh -c "
	[ $rc -eq 2 ] && grep -q '/evil.config:4: not a Kconfig line' evilfrag.err &&
	grep -q 'the fragment of evilfrag.conf:2' evilfrag.err && [ ! -e '$pwned' ] &&
	[ -z \"\$(ls -A results 2>/dev/null)\" ]"
rm -rf results
mkdir -p ro
if mount -t tmpfs -o ro tmpfs ro 2>/dev/null; then
	printf '[run]\noutput = ro/results\n[variant a]\n' > ro.conf
	refused ro 2 "'output': .*: is on a read-only filesystem"
	umount ro
else
	skip "needs:root (mount)" "ro: output on a read-only mount"
fi

# special files as arguments
timeout 20 "$KBENCH" size fifo.conf > size.out 2> size.err
check "kbench size FIFO: refused at once (exit 1)" sh -c \
	"[ $? -eq 1 ] && grep -q \"'fifo.conf': not a regular file\" size.err"

# a QEMU that hangs on everything: kbench probe still ends, and says so
printf '#!/bin/sh\nexec sleep 1000\n' > hang-qemu
chmod +x hang-qemu
start=$(date +%s)
KBENCH_QEMU=$d/hang-qemu timeout 300 "$KBENCH" probe --json --no-kvm > hang.json 2> hang.err
rc=$?
took=$(($(date +%s) - start))
check "QEMU hanging on --version: probe ends in ${took} s (< 120), version unknown" sh -c \
	"[ $rc -eq 0 ] && [ $took -lt 120 ] && jq -e '.qemu.version == null and .tcg.usable == false' hang.json >/dev/null"
test_done
