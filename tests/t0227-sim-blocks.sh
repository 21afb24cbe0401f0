#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin's block counts (issue 24, item 1) on the oracle programs of
# t0225 (tests/oracle/*.S, under qemu-i386 by kbench sim --blocks): in every
# region, the sum over the blocks file's units of executions x instructions
# is the region's instruction count, kernel and user, exactly; every unit's
# bytes are the program's own bytes at its address, and objdump finds in
# them as many instructions as the unit says.
. "${TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
progs="lines sets pages"
d=$(scratch)
objdump=${OBJDUMP:-objdump}

oracle_programs "$d" struct

for p in $progs; do
	"$KBENCH" sim --l2 off --out "$d/$p.sim" --blocks "$d/$p.blocks" "$d/$p" > /dev/null 2> "$d/$p.err"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$d/$p.err"
	blocks_sums "$d/$p.sim" "$d/$p.blocks" "$d/$p.sums"
	if [ $rc -eq 0 ] && [ -s "$d/$p.sums.sim" ] && cmp -s "$d/$p.sums.sim" "$d/$p.sums.blocks"; then
		ok "$p: every region's instructions are its units' executions x instructions ($(wc -l < "$d/$p.sums.sim") regions)"
	else
		not_ok "$p: every region's instructions are its units' executions x instructions (exit $rc)"
		diff "$d/$p.sums.sim" "$d/$p.sums.blocks" | sed 's/^/# /'
	fi
	check "$p: the blocks file ends" grep -q '^end units=[1-9]' "$d/$p.blocks"
	# each unit's bytes against the program's, and its instructions by objdump
	"$objdump" -d -z --no-show-raw-insn "$d/$p" | awk -F: '/^ *[0-9a-f]+:\t/ { gsub(/ /, "", $1); print $1 }' > "$d/$p.starts"
	$PY - "$d/$p" "$d/$p.blocks" "$d/$p.starts" > "$d/$p.bytes" <<'PYEOF'
import struct, sys
elf = open(sys.argv[1], 'rb').read()
phoff, = struct.unpack_from('<I', elf, 28)
phentsize, phnum = struct.unpack_from('<HH', elf, 42)
segs = []
for i in range(phnum):
    typ, off, va, pa, fsz, msz = struct.unpack_from('<IIIIII', elf, phoff + i * phentsize)
    if typ == 1:
        segs.append((va, off, fsz))
starts = set(int(l, 16) for l in open(sys.argv[3]) if l.strip())
bad = 0
for l in open(sys.argv[2]):
    f = l.split()
    if f[0] != 'b':
        continue
    va, n, b = int(f[2], 16), int(f[3]) + int(f[4]), bytes.fromhex(f[5])
    own = next((elf[o + va - s:o + va - s + len(b)] for s, o, z in segs if s <= va < s + z), b'')
    ins = sum(1 for a in starts if va <= a < va + len(b))
    if own != b or ins != n:
        bad += 1
        print('unit %s at %#x: bytes %s, %d instructions by objdump, %d by the plugin' %
              (f[1], va, 'equal' if own == b else 'differ', ins, n))
print('bad', bad)
PYEOF
	check "$p: every unit's bytes are the program's, with its instructions" grep -qx 'bad 0' "$d/$p.bytes"
	grep -v '^bad' "$d/$p.bytes" | head -n 5 | sed 's/^/# /'
done
test_done
