#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# place-check.py UNORDERED_MAP VL_FILE BUILT_MAP: does a placement (the sim
# plugin's vl_file: "START SIZE NEW" lines, what kbench order --place
# writes) put each function of the unordered kernel where the built
# kernel has it?  Each function name found once in each System.map, from
# the unordered kernel's text start to its _etext, is moved as the range
# holding it says (or kept where none does) and compared with the built
# map.  The linker's own markers (_etext, __*_text_start, __*_text_end)
# are no code and are left out.  Prints "N M" (at the built address, and
# elsewhere), then up to 5 of those elsewhere, one a line.
import bisect
import collections
import re
import sys


def load(path):
    m = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[1] in "tTwW":
                m[w[2]].append(int(w[0], 16))
    return m


unordered, built = load(sys.argv[1]), load(sys.argv[3])
ranges = []
with open(sys.argv[2]) as f:
    for line in f:
        w = line.split("#")[0].split()
        if len(w) == 3 and w[0].startswith("0x"):
            ranges.append((int(w[0], 0), int(w[1], 0), int(w[2], 0)))
ranges.sort()
starts = [r[0] for r in ranges]


def moved(a):
    k = bisect.bisect_right(starts, a) - 1
    if k >= 0 and a < ranges[k][0] + ranges[k][1]:
        return ranges[k][2] + a - ranges[k][0]
    return a


lo = min(unordered["_stext"] or unordered["_text"] or [0])
hi = min(unordered["_etext"] or [1 << 64])
marker = re.compile(r"^(_s?text|_etext|__\w+_text_(start|end))$")
same = 0
other = []
for name, a in sorted(unordered.items()):
    if len(a) != 1 or len(built.get(name, [])) != 1 or marker.match(name) or not lo <= a[0] < hi:
        continue
    if moved(a[0]) == built[name][0]:
        same += 1
    else:
        other.append("%s 0x%x: placed at 0x%x, built at 0x%x" % (name, a[0], moved(a[0]), built[name][0]))
print(same, len(other))
for line in other[:5]:
    print(line)
