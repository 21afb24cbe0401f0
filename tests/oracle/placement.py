#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers of t0226 for the plugin's virtual layouts (vl_file format).

    placement.py craft DUMP              the identity, and the ranges of DUMP's
                                         first layout from its first page-aligned
                                         one on moved by 12288 (3 x 4096) or by 64
                                         bytes: those before stay, as user code
                                         does in a kernel's, and share no line
                                         with those that move
    placement.py shift DUMP DELTA...     per DELTA, every range of DUMP's first
                                         layout moved by DELTA bytes (0: identity)
    placement.py frommap DUMP MAP OTHER  the ranges of DUMP's first layout (MAP's
                                         functions) placed where OTHER, the map
                                         of another build, has the same symbols
                                         (the n-th of a name to its n-th)
    placement.py check NM DUMP FIRST     check DUMP's layouts FIRST.. as seeded
                                         layouts of the program whose `nm -n` is NM
                                         (vl_place=shuffle)
    placement.py padcheck NM DUMP FIRST PADS  the same for vl_place=pad with
                                         vl_pads=PADS

check says, one line per failed property, what is wrong (nothing: all hold):
the ranges are the text symbols of NM up to the next symbol of any kind (the
last one may be left out: it is bounded by nothing); every layout has the same
ranges; each range moves by a multiple of its alignment (the largest power
of two dividing its start, 16 at most); each run of contiguous ranges is
packed, from its start or later (at most 15 bytes of padding per range); no
two ranges overlap anywhere; some range moves; the layouts differ.
padcheck: the same ranges; in every layout each range moves by as much as
the one before it or more (so the map's order is kept and none overlap),
the moves growing in at most PADS steps, each a multiple of 16 from 16 to
PADS x 4080 bytes (two points may draw one function); some range moves; the
layouts differ.

    placement.py synth                   an nm-style map of 3 runs of 3000
                                         functions at any alignment (as -Os
                                         leaves them), a data symbol between runs
"""
import sys


def read(path):
    layouts = []
    for line in open(path):
        f = line.split("#")[0].split()
        if not f:
            continue
        if f[0] == "layout":
            layouts.append([])
        else:
            layouts[-1].append(tuple(int(x, 0) for x in f))
    return layouts


def synth():
    import random
    rnd = random.Random(5)
    addr = 0x08100001
    for run in range(3):
        for i in range(3000):
            print("%08x t f%d_%d" % (addr, run, i))
            addr += rnd.randint(1, 300)
        print("%08x d data%d" % (addr, run))
        addr += 64


def craft(dump):
    base = read(dump)[0]
    split = next(i for i, e in enumerate(base) if i and e[0] % 4096 == 0)
    for name, delta in (("identity", 0), ("shift by 3 x 4096", 12288), ("shift by 64", 64)):
        print("layout %s" % name)
        for i, (start, size, _) in enumerate(base):
            print("0x%x 0x%x 0x%x" % (start, size, start + (delta if i >= split else 0)))


def shift(dump, deltas):
    base = read(dump)[0]
    for delta in deltas:
        print("layout shift by %d" % delta)
        for start, size, _ in base:
            print("0x%x 0x%x 0x%x" % (start, size, start + delta))


def text_symbols(path):
    """[(address, name)] of the text symbols of an nm or System.map file, by address."""
    out = []
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[1] in "TtWw":
            out.append((int(f[0], 16), f[2]))
    return sorted(out)


def frommap(dump, base_map, other_map):
    names, seen, where = {}, {}, {}
    for addr, name in text_symbols(base_map):
        n = seen[name] = seen.get(name, 0) + 1
        names.setdefault(addr, []).append((name, n))
    seen = {}
    for addr, name in text_symbols(other_map):
        n = seen[name] = seen.get(name, 0) + 1
        where[(name, n)] = addr
    print("layout from %s" % other_map)
    missing, out = 0, []
    for start, size, _ in read(dump)[0]:
        new = [where[k] for k in names.get(start, []) if k in where]
        if not new:
            missing += 1
            new = [start]
        out.append([start, size, new[0]])
    # a range's tail that runs into the next one there was alignment padding
    # that the other link made shorter: cut it (never executed, or t0235 tells)
    cut = 0
    by_new = sorted(out, key=lambda e: e[2])
    for a, b in zip(by_new, by_new[1:]):
        if a[2] + a[1] > b[2]:
            a[1], cut = b[2] - a[2], cut + 1
    for start, size, new in out:
        if size > 0:
            print("0x%x 0x%x 0x%x" % (start, size, new))
    if missing or cut:
        print("placement.py: %d functions not in %s: left in place; %d ranges cut short where "
              "the next begins there" % (missing, other_map, cut), file=sys.stderr)


def ranges_of(nm, layouts, first):
    """What is wrong with the layouts' ranges: they must be NM's text
    symbols, each up to the next symbol of any kind, the same in each."""
    text, other = [], []
    for line in open(nm):
        f = line.split()
        if len(f) == 3 and f[1] not in "aAUN":
            (text if f[1] in "TtWw" else other).append(int(f[0], 16))
    text = sorted(set(text))
    bounds = sorted(set(text + other))
    bad = []
    ranges = [(s, n) for s, n, _ in layouts[0]]
    starts = [s for s, _ in ranges]
    if starts != text and starts != text[:-1]:
        bad.append("range starts %s are not the text symbols %s" % (starts[:5], text[:5]))
    for s, n in ranges:
        nxt = [b for b in bounds if b > s]
        if nxt and s + n != nxt[0]:
            bad.append("range 0x%x ends at 0x%x, not at the next symbol 0x%x" % (s, s + n, nxt[0]))
    for k, lay in enumerate(layouts):
        if [(s, n) for s, n, _ in lay] != ranges:
            bad.append("layout %d has other ranges" % (first + k))
    return bad


def padcheck(nm, dump, first, pads):
    layouts = read(dump)[first:]
    if not layouts:
        return ["no seeded layouts in %s" % dump]
    bad = ranges_of(nm, layouts, first)
    for k, lay in enumerate(layouts):
        shifts = [new - s for s, _, new in lay]
        steps = [b - a for a, b in zip([0] + shifts, shifts) if b != a]
        if any(x < 0 or x % 16 or x > pads * 4080 for x in steps):
            bad.append("layout %d: moves %s, not steps of 16 to %d bytes up" % (first + k, steps, pads * 4080))
        if len(steps) > pads:
            bad.append("layout %d: %d padding points, more than %d" % (first + k, len(steps), pads))
        if not steps:
            bad.append("layout %d moves nothing" % (first + k))
    if len(layouts) > 1 and all(lay == layouts[0] for lay in layouts[1:]):
        bad.append("the seeded layouts are all the same")
    return bad


def check(nm, dump, first):
    layouts = read(dump)[first:]
    if not layouts:
        return ["no seeded layouts in %s" % dump]
    bad = ranges_of(nm, layouts, first)
    for k, lay in enumerate(layouts):
        for s, n, new in lay:
            align = min(s & -s or 16, 16)
            if (new - s) % align:
                bad.append("layout %d moves 0x%x by %d, not a multiple of %d" % (first + k, s, new - s, align))
        by_new = sorted(lay, key=lambda e: e[2])
        for a, b in zip(by_new, by_new[1:]):
            if a[2] + a[1] > b[2]:
                bad.append("layout %d: 0x%x and 0x%x overlap there" % (first + k, a[0], b[0]))
        i = 0
        while i < len(lay):
            j = i + 1
            while j < len(lay) and lay[j - 1][0] + lay[j - 1][1] == lay[j][0]:
                j += 1
            lo, hi = lay[i][0], lay[j - 1][0] + lay[j - 1][1]
            run = sorted(lay[i:j], key=lambda e: e[2])
            if run[0][2] < lo or run[-1][2] + run[-1][1] - run[0][2] > hi - lo + 15 * (j - i):
                bad.append("layout %d: run 0x%x-0x%x is not packed" % (first + k, lo, hi))
            i = j
        if all(s == new for s, _, new in lay):
            bad.append("layout %d moves nothing" % (first + k))
    if len(layouts) > 1 and all(lay == layouts[0] for lay in layouts[1:]):
        bad.append("the seeded layouts are all the same")
    return bad


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "synth":
        synth()
    elif len(sys.argv) == 3 and sys.argv[1] == "craft":
        craft(sys.argv[2])
    elif len(sys.argv) > 3 and sys.argv[1] == "shift":
        shift(sys.argv[2], [int(x, 0) for x in sys.argv[3:]])
    elif len(sys.argv) == 5 and sys.argv[1] == "frommap":
        frommap(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        for b in check(sys.argv[2], sys.argv[3], int(sys.argv[4])):
            print(b)
    elif len(sys.argv) == 6 and sys.argv[1] == "padcheck":
        for b in padcheck(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])):
            print(b)
    else:
        sys.exit("usage: placement.py synth | craft DUMP | shift DUMP DELTA... | frommap DUMP MAP OTHER | "
                 "check NM DUMP FIRST | padcheck NM DUMP FIRST PADS")
