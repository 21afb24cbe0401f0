#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The modeled cycles of `kbench miss-o-meter --json`, read again.

usage: miss-o-meter-cycles-ref.py RUN_DIR MISS_JSON BLOCKS_DIR

BLOCKS_DIR holds, for each boots/<variant>-<n>.blocks of the run,
<variant>-<n>.json: `kbench blocks --json --map` of it (every region's
block cycles as the sim backend prices them, kb_mca_blocks_file, and the
cycles of each function's blocks, read apart).  Checked:

- every region: its functions' cycles sum to its block cycles, and their
  instructions to its instructions;
- every (variant, case) of the miss-o-meter: its functions' cycles per
  operation plus the user blocks' sum to the block cycles of the samples'
  regions (sim.jsonl's region numbers) over their iterations
  (samples.jsonl);
- every function of every case: its cycles per operation are the sum over
  those regions of kbench blocks' figure for it (bloat-o-meter's names:
  every '.' followed by digits removed) over the iterations;
- the list of functions whose cycles grow while their instructions do
  not: every row obeys the rule and is its case's row; largest growth
  first; each function once, in its case of largest growth; and it is the
  top of every function and case that obeys the rule.

Exit 0 when all hold.
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


def close(a, b, rel=1e-9, ab=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + ab


def main():
    run, miss_json, blocks_dir = sys.argv[1:4]
    miss = json.load(open(miss_json))
    bad = 0
    checked = defaultdict(int)

    # per boot, per region: block cycles, functions
    regions = {}
    for s in lines(run + '/sim.jsonl'):
        key = (s['variant'], s['vboot'])
        if key not in regions:
            j = json.load(open('%s/%s-%d.json' % (blocks_dir, s['variant'], s['vboot'])))
            regions[key] = {r['seq']: r for r in j['regions']}
    for key, rs in regions.items():
        for seq, r in rs.items():
            fc = sum(f[2] for f in r['functions'])
            fi = sum(f[1] for f in r['functions'])
            if not close(fc, r['block_cycles']) or fi != r['insns']:
                print('# %s region %d: functions %.6f cycles, %d instructions; region %.6f, %d' %
                      (key, seq, fc, fi, r['block_cycles'], r['insns']))
                bad += 1
            checked['regions'] += 1

    # the samples' regions, per (variant, case)
    iters = {}
    for s in lines(run + '/samples.jsonl'):
        iters[(s['variant'], s['boot'], s['case'], s['rep'])] = s['iterations']
    total = defaultdict(float)
    n_iter = defaultdict(float)
    func = defaultdict(float)
    for s in lines(run + '/sim.jsonl'):
        k = (s['variant'], s['boot'], s['case'], s['rep'])
        if k not in iters:
            continue
        r = regions[(s['variant'], s['vboot'])][s['region']]
        vc = (s['variant'], s['case'])
        total[vc] += r['block_cycles']
        n_iter[vc] += iters[k]
        for name, _, cyc in r['functions']:
            if name != '[user]':
                func[vc + (bname(name),)] += cyc

    for p in miss['pairs']:
        vs = (p['old'], p['new'])
        for c in p['cases']:
            for side in (0, 1):
                vc = (vs[side], c['case'])
                got = sum(f['cycles'][side] for f in c['functions']) + c['cycles_u'][side]
                want = total[vc] / n_iter[vc]
                if not close(got, want, 1e-9, 1e-6):
                    print('# %s: functions and user blocks %.6f cycles/op, regions %.6f' % (vc, got, want))
                    bad += 1
                checked['cases'] += 1
                for f in c['functions']:
                    want = func[vc + (f['function'],)] / n_iter[vc]
                    if not close(f['cycles'][side], want, 1e-9, 1e-9):
                        print('# %s %s: %.6f cycles/op, kbench blocks %.6f' %
                              (vc, f['function'], f['cycles'][side], want))
                        bad += 1
                    checked['functions'] += 1

        # the list's rule, and that it is the top of all that obey it
        rows = p['cycles_grow_instructions_not'] or []
        best = {}
        for c in p['cases']:
            for f in c['functions']:
                if f['function'] == '[kernel]':
                    continue
                i, y = f['ins'], f['cycles']
                if y[1] - y[0] > 1e-9 * abs(y[0]) and y[1] - y[0] > 1e-12 and i[1] <= i[0]:
                    d = y[1] - y[0]
                    if f['function'] not in best or d > best[f['function']][0]:
                        best[f['function']] = (d, c['case'])
        want = sorted(best.items(), key=lambda x: (-x[1][0], x[0]))[:10]
        if [r['function'] for r in rows] != [w[0] for w in want]:
            print('# %s -> %s: list %s, expected %s' % (vs + ([r['function'] for r in rows],
                                                         [w[0] for w in want])))
            bad += 1
        last = None
        for r in rows:
            d = r['cycles'][1] - r['cycles'][0]
            if not (d > 0 and r['ins'][1] <= r['ins'][0]):
                print('# %s: cycles %s, instructions %s: not the rule' % (r['function'], r['cycles'], r['ins']))
                bad += 1
            if last is not None and d > last:
                print('# %s: out of order' % r['function'])
                bad += 1
            last = d
            c = [c for c in p['cases'] if c['case'] == r['case']][0]
            f = [f for f in c['functions'] if f['function'] == r['function']][0]
            if f['cycles'] != r['cycles'] or f['ins'] != r['ins'] or best[r['function']][1] != r['case']:
                print('# %s: not its case %s row' % (r['function'], r['case']))
                bad += 1
            checked['rows'] += 1
    print('# checked: %s; %d disagreements' % (dict(checked), bad))
    sys.exit(1 if bad or not checked['rows'] or not checked['functions'] else 0)


if __name__ == '__main__':
    main()
