#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The reference for t0225: what a static i386 program of tests/oracle executes,
and what a textbook LRU instruction cache makes of it, per region.

    reference.py [--objdump PROG] [--trace] [--place FILE] PROGRAM GEOMETRY...

GEOMETRY is SIZE:WAYS:LINE (K and M suffixes).  For each geometry it prints
one line per region between kbench's marker NOPs, in the order they ran,
then one for the whole run:

    GEOMETRY SEQ ID INSTRUCTIONS MISSES FILLS
    GEOMETRY total - INSTRUCTIONS MISSES FILLS

Nothing here comes from the plugin or from QEMU.  The instructions' addresses
and lengths are objdump's (binutils decodes them, not QEMU); what each one
does is read from its bytes by the small interpreter below, which knows only
the handful of instructions the oracle programs use (tests/oracle/oracle.h)
and stops on anything else; the cache is the textbook one, looked up once per
instruction, not per translation block as the plugin does.

The counting rule is cachegrind's, the one the plugin documents: every
executed instruction is one access; it looks up each line it spans in address
order (each lookup updates the LRU order) and is one miss when any of those
lookups missed; each line that missed is one fill.  A begin marker runs before
its region opens and an end marker after its region closed: neither is
counted in the region, though both use the cache.  --trace prints the
executed instructions (address, length) instead.

--place FILE (the plugin's vl_file format: "layout" starts a placement,
then "START SIZE NEW" per range) adds, per geometry and placement N, the
same lines with GEOMETRY written GEOMETRY/N, for a cache that sees every
instruction at its place in that layout: an instruction in a range moves
with it (whole, by the range's NEW - START), one outside every range stays.
The ranges of a placement must be disjoint before and after.
"""
import re
import struct
import subprocess
import sys

MARK_BASE = 0x4B420000
MAX_STEPS = 20_000_000


def fail(msg):
    sys.exit("reference.py: " + msg)


def parse_size(s):
    m = re.fullmatch(r"(\d+)([KkMm]?)", s)
    if not m:
        fail("bad size '%s'" % s)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20}[m.group(2).lower()]


class Cache:
    """Set-associative, true LRU: each set a list of line numbers, most recently
    used first.  Any set count, power of two or not: set = line number mod sets."""

    def __init__(self, geometry):
        try:
            size, ways, line = geometry.split(":")
            self.size, self.ways, self.line = parse_size(size), int(ways), int(line)
        except ValueError:
            fail("bad geometry '%s' (SIZE:WAYS:LINE)" % geometry)
        if self.ways < 1 or self.line < 1 or self.size < 1 or self.size % (self.ways * self.line):
            fail("geometry '%s': size is not a positive multiple of ways x line" % geometry)
        self.n_sets = self.size // (self.ways * self.line)
        self.sets = [[] for _ in range(self.n_sets)]

    def lookup(self, ln):
        """True on a miss (the line is then brought in, evicting the LRU one)."""
        s = self.sets[ln % self.n_sets]
        if ln in s:
            s.remove(ln)
            s.insert(0, ln)
            return False
        s.insert(0, ln)
        if len(s) > self.ways:
            s.pop()
        return True

    def fetch(self, addr, length):
        """One instruction fetch: (missed, lines filled)."""
        fills = 0
        for ln in range(addr // self.line, (addr + length - 1) // self.line + 1):
            fills += self.lookup(ln)
        return fills > 0, fills


def elf_entry(path):
    with open(path, "rb") as f:
        h = f.read(52)
    if h[:4] != b"\x7fELF" or h[4] != 1 or struct.unpack_from("<H", h, 18)[0] != 3:
        fail("'%s' is not an i386 ELF program" % path)
    return struct.unpack_from("<I", h, 24)[0]


def disassemble(path, objdump):
    """{address: instruction bytes}, from objdump -d."""
    try:
        out = subprocess.run([objdump, "-d", "--insn-width=16", path], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail("cannot disassemble '%s' with %s: %s" % (path, objdump, e))
    insns = {}
    line_re = re.compile(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)")
    for line in out.splitlines():
        m = line_re.match(line)
        if m:
            insns[int(m.group(1), 16)] = bytes.fromhex(m.group(2))
    return insns


def s8(b):
    return b - 256 if b >= 128 else b


def s32(b):
    return struct.unpack("<i", bytes(b))[0]


def is_nop(b):
    """90, 66 90, and the 0f 1f /0 family with operand-size and segment prefixes."""
    while b and b[0] in (0x66, 0x2E, 0x3E):
        b = b[1:]
    return b == b"\x90" or (len(b) >= 3 and b[0] == 0x0F and b[1] == 0x1F and (b[2] >> 3) & 7 == 0)


def marker(b):
    """begin/end and the region's ID for a kbench marker, else None."""
    if len(b) != 8 or b[:4] != b"\x0f\x1f\x84\x00":
        return None
    mid = struct.unpack_from("<I", b, 4)[0]
    if mid & 0xFFFF0000 != MARK_BASE or mid & 0xFF not in (1, 2):
        return None
    return ("begin" if mid & 0xFF == 1 else "end", mid & ~0xFF | 1)


def execute(entry, insns):
    """The executed instructions in order, as (address, length, marker or None)."""
    reg = [None] * 8     # eax ecx edx ebx esp ebp esi edi; None: unknown
    zf = None            # ZF, set by dec
    stack = []
    pc, trace = entry, []
    for _ in range(MAX_STEPS):
        b = insns.get(pc)
        if b is None:
            fail("no instruction at 0x%x (objdump lost the instruction boundaries?)" % pc)
        n, nxt, mk = len(b), pc + len(b), marker(b)
        trace.append((pc, n, mk))
        op = b[0]
        if mk or is_nop(b):
            pass
        elif 0xB8 <= op <= 0xBF and n == 5:            # mov $imm32, %reg
            reg[op - 0xB8] = struct.unpack_from("<I", b, 1)[0]
        elif 0x48 <= op <= 0x4F and n == 1:            # dec %reg
            if reg[op - 0x48] is None:
                fail("dec at 0x%x of a register whose value is unknown" % pc)
            reg[op - 0x48] = (reg[op - 0x48] - 1) & 0xFFFFFFFF
            zf = reg[op - 0x48] == 0
        elif op == 0xEB and n == 2:                     # jmp rel8
            nxt += s8(b[1])
        elif op == 0xE9 and n == 5:                     # jmp rel32
            nxt += s32(b[1:5])
        elif (op == 0x75 and n == 2) or (op == 0x0F and n == 6 and b[1] == 0x85):  # jnz
            if zf is None:
                fail("jnz at 0x%x before any dec" % pc)
            if not zf:
                nxt += s8(b[1]) if n == 2 else s32(b[2:6])
        elif op == 0xE8 and n == 5:                     # call rel32
            stack.append(nxt)
            nxt += s32(b[1:5])
        elif op == 0xC3 and n == 1:                     # ret
            if not stack:
                fail("ret with nothing called at 0x%x" % pc)
            nxt = stack.pop()
        elif b == b"\xcd\x80":                          # int $0x80
            if reg[0] == 1:                             # exit
                return trace
            if reg[0] not in (20, 64):                  # getpid, getppid
                fail("system call %s at 0x%x: not one the reference knows" % (reg[0], pc))
            reg[0] = None                               # a pid: unknown here
        else:
            fail("instruction %s at 0x%x is not one the reference knows" % (b.hex(" "), pc))
        nxt &= 0xFFFFFFFF
        pc = nxt
    fail("no exit after %d instructions" % MAX_STEPS)


def read_placements(path):
    """[[(start, size, new), ...] sorted by start] per layout of the file."""
    layouts = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#")[0].split()
            if not line:
                continue
            if line[0] == "layout":
                layouts.append([])
                continue
            if not layouts or len(line) != 3:
                fail("%s:%d: expected 'layout' or START SIZE NEW" % (path, n))
            start, size, new = (int(x, 0) for x in line)
            if size <= 0:
                fail("%s:%d: size must be positive" % (path, n))
            layouts[-1].append((start, size, new))
    for lay in layouts:
        lay.sort()
        for key in (0, 2):
            r = sorted(lay, key=lambda e: e[key])
            for a, b in zip(r, r[1:]):
                if a[key] + a[1] > b[key]:
                    fail("%s: overlapping ranges 0x%x and 0x%x" % (path, a[key], b[key]))
    return layouts


def mover(layout):
    """addr -> addr in that layout (binary search over the ranges)."""
    import bisect
    starts = [e[0] for e in layout]

    def move(addr):
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and addr < layout[i][0] + layout[i][1]:
            return addr - layout[i][0] + layout[i][2]
        return addr
    return move


def simulate(trace, geometry, move=None):
    """[(seq, id, instructions, misses, fills)] per region, then the whole run."""
    cache = Cache(geometry)
    regions, total = [], [0, 0, 0]
    cur = None
    for addr, length, mk in trace:
        if mk and mk[0] == "end":
            if cur is None:
                fail("end marker at 0x%x with no region open" % addr)
            if mk[1] != cur[1]:
                fail("end marker at 0x%x for region 0x%08x while 0x%08x is open" % (addr, mk[1], cur[1]))
            regions.append((cur[0], cur[1], *cur[2]))
            cur = None
        missed, fills = cache.fetch(move(addr) if move else addr, length)
        for c in [total] if cur is None else [total, cur[2]]:
            c[0] += 1
            c[1] += missed
            c[2] += fills
        if mk and mk[0] == "begin":
            if cur is not None:
                fail("begin marker at 0x%x inside region 0x%08x" % (addr, cur[1]))
            cur = (len(regions) + 1, mk[1], [0, 0, 0])
    if cur is not None:
        fail("region 0x%08x never ended" % cur[1])
    return regions, total


def main(argv):
    objdump, show_trace, place = "objdump", False, None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--objdump" and len(argv) > 1:
            objdump, argv = argv[1], argv[2:]
        elif argv[0] == "--place" and len(argv) > 1:
            place, argv = read_placements(argv[1]), argv[2:]
        elif argv[0] == "--trace":
            show_trace, argv = True, argv[1:]
        else:
            fail("unknown option '%s'" % argv[0])
    if len(argv) < (1 if show_trace else 2):
        sys.exit("usage: reference.py [--objdump PROG] [--trace] [--place FILE] PROGRAM GEOMETRY...")
    trace = execute(elf_entry(argv[0]), disassemble(argv[0], objdump))
    if show_trace:
        for addr, length, _ in trace:
            print("0x%x %d" % (addr, length))
        return
    for g in argv[1:]:
        runs = [(g, None)] + [("%s/%d" % (g, k), mover(lay)) for k, lay in enumerate(place or [])]
        for label, move in runs:
            regions, total = simulate(trace, g, move)
            for seq, mid, insn, miss, fill in regions:
                print("%s %d 0x%08x %d %d %d" % (label, seq, mid, insn, miss, fill))
            print("%s total - %d %d %d" % (label, *total))


if __name__ == "__main__":
    main(sys.argv[1:])
