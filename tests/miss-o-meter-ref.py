#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An independent reading of a sim run for `kbench miss-o-meter`.

usage: miss-o-meter-ref.py RUN_DIR OLD NEW KBENCH_OUTPUT BLOAT_O_METER_OUTPUT

Per case, per function (bloat-o-meter's names: every '.' followed by digits
removed), the instructions and L1i misses per operation of variants OLD and
NEW: the sums over sim.jsonl's lines of the case divided by the iterations
of the same samples (variant, boot, case, rep) in samples.jsonl.  Every
function whose figures differ must be a row of kbench's output with the
same figures to its printed precision, and no other but those whose
instructions and misses are the same and whose modeled cycles differ (the
cycle columns, which t0246 checks against llvm-mca); the size delta of
every row whose function is in both kernels must be the one bloat-o-meter
-t prints for it (0 when it does not list it).  Exit 0 when all agree.
"""
import json
import re
import sys
from collections import defaultdict


def lines(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def bname(raw):
    return re.sub(r'\.[0-9]+', '', raw)


def reference(run, old, new):
    iters = {}
    for s in lines(run + '/samples.jsonl'):
        iters[(s['variant'], s['boot'], s['case'], s['rep'])] = s['iterations']
    ins = defaultdict(float)
    miss = defaultdict(float)
    total_iters = defaultdict(float)
    kernel = defaultdict(float)
    for r in lines(run + '/sim.jsonl'):
        v = r['variant']
        if v not in (old, new):
            continue
        key = (v, r['boot'], r['case'], r['rep'])
        if key not in iters:
            continue
        c = r['case']
        total_iters[(v, c)] += iters[key]
        kernel[(v, c)] += r['insn_k']
        for name, i, m in r['functions']:
            if name == '[user]':
                continue
            ins[(v, c, bname(name))] += i
            miss[(v, c, bname(name))] += m
    cases = {c for (_, c) in total_iters}
    out = {}
    for c in cases:
        if (old, c) not in total_iters or (new, c) not in total_iters:
            continue
        names = {n for (v, cc, n) in ins if cc == c}
        rows = {}
        for n in names:
            a = [ins[(v, c, n)] / total_iters[(v, c)] for v in (old, new)]
            b = [miss[(v, c, n)] / total_iters[(v, c)] for v in (old, new)]
            if a[0] != a[1] or b[0] != b[1]:
                rows[n] = a + b
        out[c] = (rows, [kernel[(v, c)] / total_iters[(v, c)] for v in (old, new)])
    return out


def kbench_rows(path):
    """case -> (rows {name: (ins old, ins new, miss old, miss new, size delta)},
    kernel instructions old, new)"""
    out = {}
    case = None
    for line in open(path):
        m = re.match(r'^case (\S+): ', line)
        if m:
            case = m.group(1)
            out[case] = ({}, None)
            continue
        m = re.match(r'^kernel instructions (\S+) -> (\S+) ', line)
        if m and case:
            out[case] = (out[case][0], [float(m.group(1)), float(m.group(2))])
            continue
        f = line.split()
        if case and len(f) == 13 and f[0] != 'Function':
            out[case][0][f[0]] = (float(f[1]), float(f[2]), float(f[4]), float(f[5]), f[12], f[9])
    return out


def bloat_deltas(path):
    deltas = {}
    body = False
    for line in open(path):
        f = line.split()
        if f[:1] == ['Function']:
            body = True
            continue
        if body and len(f) == 4 and f[0] != 'Total:':
            deltas[f[0]] = int(f[3])
    return deltas


def main():
    run, old, new, kout, bout = sys.argv[1:6]
    ref = reference(run, old, new)
    got = kbench_rows(kout)
    bom = bloat_deltas(bout)
    bad = 0
    checked = 0
    if set(ref) != set(got):
        print('# cases differ: reference %s, kbench %s' % (sorted(ref), sorted(got)))
        bad += 1
    for c in sorted(set(ref) & set(got)):
        rrows, rk = ref[c]
        grows, gk = got[c]
        if gk is None or any(abs(x - y) > 0.051 for x, y in zip(rk, gk)):
            print('# %s: kernel instructions per op %s, kbench %s' % (c, rk, gk))
            bad += 1
        # a row kbench adds for its modeled cycles alone
        extra = {n for n in set(grows) - set(rrows)
                 if grows[n][0] == grows[n][1] and grows[n][2] == grows[n][3] and
                 grows[n][5] != '-'}
        if set(rrows) != set(grows) - extra:
            print('# %s: functions only in the reference %s, only in kbench %s' %
                  (c, sorted(set(rrows) - set(grows))[:10], sorted(set(grows) - set(rrows) - extra)[:10]))
            bad += 1
        for n in sorted(set(rrows) & set(grows)):
            r, g = rrows[n], grows[n]
            tol = (0.051, 0.051, 0.0051, 0.0051)
            if any(abs(r[i] - g[i]) > tol[i] for i in range(4)):
                print('# %s %s: reference %s, kbench %s' % (c, n, r, g[:4]))
                bad += 1
            if g[4] != '-' and int(g[4]) != bom.get(n, 0):
                print('# %s %s: size delta %s, bloat-o-meter %s' % (c, n, g[4], bom.get(n, 0)))
                bad += 1
            checked += 1
    print('# %d function rows checked, %d disagreements' % (checked, bad))
    sys.exit(1 if bad or not checked else 0)


if __name__ == '__main__':
    main()
