#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read the forest plot back from report.html's first SVG (gnuplot's
drawing, not its data) and compare it with summary.json: per case and
variant, the mark's position is the ratio, the ends of its error bar the
ratio's interval, and the series it is drawn in its verdict.

usage: forest-check.py REPORT.HTML SUMMARY.JSON
Prints one line per point; exit 1 on any mismatch.  Standard library only.
"""
import json
import re
import sys


def main():
    html = open(sys.argv[1]).read()
    summary = json.load(open(sys.argv[2]))
    svg = re.search(r'<figure><svg.*?</svg>', html, re.S).group(0)
    primary = summary["primary_metric"]
    base = summary["baseline"]
    # the axes: numeric x tick labels (text-anchor middle) and the case
    # labels (text-anchor end) at the left
    ticks_x, rows = [], {}
    for x, y, anchor, text in re.findall(
            r'<g transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*text-anchor="(\w+)"[^>]*><text>([^<]*)</text>',
            svg):
        text = text.strip()
        if anchor == "middle" and re.fullmatch(r'-?[\d.]+', text):
            ticks_x.append((float(x), float(text)))
        elif anchor == "end" and text in [c.replace("<", "_") for c in summary["cases"]]:
            rows[text] = float(y) - 3.58	# gnuplot sets a label's baseline under its row
    (x0, v0), (x1, v1) = ticks_x[0], ticks_x[-1]
    scale = (v1 - v0) / (x1 - x0)
    to_ratio = lambda px: v0 + (float(px) - x0) * scale
    tol = 1.0 * abs(scale)	# one pixel
    bottom = max(rows.values()) + 12
    # each verdict's series: its title, its error-bar path, its marks
    drawn = {}
    for body in re.split(r"<title>gnuplot_plot_\d+a</title>", svg)[1:]:
        name = re.search(r'<text>([^<]*)</text>', body).group(1)
        path = " ".join(re.findall(r"d='([^']*)'", body))
        pts = [(float(a), float(b)) for a, b in re.findall(r'([-\d.]+),([-\d.]+)', path)]
        for px, py in re.findall(r"<use xlink:href='#gpPt\d+' transform='translate\(([-\d.]+),([-\d.]+)\)", body):
            py = float(py)
            if py > bottom:
                continue	# the key's sample
            case = min(rows, key=lambda c: abs(rows[c] - py))
            bar = [x for x, y in pts if abs(y - py) < 0.05]	# the bar, not its caps
            drawn[case] = (name, to_ratio(px), to_ratio(min(bar)), to_ratio(max(bar)))
    bad = 0
    results = {(r["case"], r["variant"]): r for r in summary["results"] if r["metric"] == primary}
    variants = [v["name"] for v in summary["variants"] if v["name"] != base]
    if len(variants) != 1:
        print("forest-check: one variant besides the baseline expected")
        return 1
    for case in summary["cases"]:
        r = results[(case, variants[0])]
        got = drawn.get(case)
        want = (r["verdict"], r["ratio"], r["ratio_ci"][0], r["ratio_ci"][1])
        ok = got is not None and got[0] == want[0] and all(abs(g - w) <= tol for g, w in zip(got[1:], want[1:]))
        bad += not ok
        print("%s %s: drawn %s, summary.json %s" % ("ok" if ok else "MISMATCH", case,
              got and "%s %.4f [%.4f, %.4f]" % got, "%s %.4f [%.4f, %.4f]" % want))
    return 1 if bad or not drawn else 0


if __name__ == "__main__":
    sys.exit(main())
