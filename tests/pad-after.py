#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# pad-after.py MAP VL_FILE PAD1 PAD2: in a placement (the sim plugin's
# vl_file, what kbench order --place writes) of a padded layout replica
# whose System.map is MAP, does the code placed next after each of
# kbench's padding objects (kb_layout_pad_1, kb_layout_pad_2) start that
# padding's bytes after it (and under 16 more: the next code's own
# alignment, 16 at most in a kernel's text)?  One line a padding; exit
# status: how many do not.  (The next code is the next placed symbol, not the map's next one,
# which the order may have moved to the front.)
import bisect
import sys

mapf, vlf, pads = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:5]]
syms = sorted((int(l.split()[0], 16), l.split()[2]) for l in open(mapf) if l.split()[1] in 'tTwW')
rng = sorted((int(f[0], 16), int(f[1]), int(f[2], 16)) for f in (l.split() for l in open(vlf))
             if len(f) == 3 and f[0].startswith('0x'))
starts = [x[0] for x in rng]
def new(a):
    i = bisect.bisect_right(starts, a) - 1
    return a - rng[i][0] + rng[i][2] if i >= 0 and a < rng[i][0] + rng[i][1] else a
bad = 0
for k, p in enumerate(pads, 1):
    i = [n for a, n in syms].index('kb_layout_pad_%d' % k)
    a, n = syms[i]
    # the code the placement puts next (the map's next symbol may be one
    # the order moved to the front)
    nxt = min(((new(b), m) for b, m in syms if new(b) > new(a)), default=(new(a), '-'))
    gap = nxt[0] - new(a)
    nxt = (None, nxt[1])
    print('pad %d: %s at %#x, %s %d bytes after it (the padding: %d)' % (k, n, new(a), nxt[1], gap, p))
    bad += not p <= gap < p + 16
sys.exit(bad)
