#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read the forest plot back from report.html's first SVG (gnuplot's
drawing, not its data) and compare it with summary.json: per case and
variant, the mark's position is the ratio, the ends of its error bar the
ratio's interval, and the series it is drawn in its verdict; the band is
the variant's range over the baseline's median, the outline around 1 the
baseline's own range over its median, the grey zone spans 1 +- min_effect
from the plot's top to its bottom, and the axis label names the metric's
source (and model, where it has one) and which way is faster.  An end past
the axis must be drawn to the axis edge and labelled there with its value
("1.506 · band 1.957 →" on the right, "← spread 0.600" on the left); an
end inside the axis is drawn where it is, without a label.

usage: forest-check.py [--expect-cut] REPORT.HTML SUMMARY.JSON
--expect-cut: fail too if no end is cut (the run was made to need it).
Prints one line per check; exit 1 on any mismatch.  Standard library only.
"""
import html as htmllib
import json
import re
import sys

LABEL_TOL = 0.0006	# a label's value is written with 3 decimals


def shapes(body):
    """Bounding boxes (x0, y0, x1, y1) of a series' closed paths and polygons."""
    out = []
    for d in re.findall(r"<path [^>]*d='(M[^']*Z)'", body) + \
            re.findall(r"<polygon [^>]*points = '([^']*)'", body):
        pts = [(float(a), float(b)) for a, b in re.findall(r'([-\d.]+),([-\d.]+)', d)]
        if pts:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def main():
    args = sys.argv[1:]
    expect_cut = "--expect-cut" in args
    args = [a for a in args if a != "--expect-cut"]
    html = open(args[0], encoding="utf-8").read()
    summary = json.load(open(args[1]))
    svg = re.search(r'<figure><svg.*?</svg>', html, re.S).group(0)
    primary = summary["primary_metric"]
    base = summary["baseline"]
    metric = next(m for m in summary["metrics"] if m["name"] == primary)
    variants = [v["name"] for v in summary["variants"] if v["name"] != base]
    if len(variants) != 1:
        print("forest-check: one variant besides the baseline expected")
        return 1
    variant = variants[0]
    bad = 0

    def report(ok, what):
        nonlocal bad
        bad += not ok
        print("%s %s" % ("ok" if ok else "MISMATCH", what))

    # the plot's border: gnuplot's closed rectangle around the drawing area
    m = re.search(r"d='M([\d.]+),([\d.]+) L\1,([\d.]+) L([\d.]+),\3 L\4,\2 L\1,\2 Z'", svg)
    if not m:
        print("MISMATCH border: no plot border in the SVG")
        return 1
    left, top, bottom, right = float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4))
    # every text once (a boxed label is drawn twice: its box, then itself)
    texts = []
    for x, y, anchor, text in re.findall(
            r'<g transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*text-anchor="(\w+)"[^>]*><text>([^<]*)</text>',
            svg):
        t = (float(x), float(y), anchor, htmllib.unescape(text).strip())
        if t not in texts:
            texts.append(t)
    # the axes: numeric x tick labels (text-anchor middle) and the case
    # labels (text-anchor end) at the left
    ticks_x, rows = [], {}
    for x, y, anchor, text in texts:
        if anchor == "middle" and re.fullmatch(r'-?[\d.]+', text) and y > bottom:
            ticks_x.append((x, float(text)))
        elif anchor == "end" and x < left and text in [c.replace("<", "_") for c in summary["cases"]]:
            rows[text] = y - 3.58	# gnuplot sets a label's baseline under its row
    (x0, v0), (x1, v1) = ticks_x[0], ticks_x[-1]
    scale = (v1 - v0) / (x1 - x0)
    to_ratio = lambda px: v0 + (float(px) - x0) * scale
    tol = 1.0 * abs(scale)	# one pixel
    edge = (to_ratio(left), to_ratio(right))
    row_h = (max(rows.values()) - min(rows.values())) / max(1, len(rows) - 1) if len(rows) > 1 else 17
    row_of = lambda py: min(rows, key=lambda c: abs(rows[c] - py))

    # the axis label: the metric's source and model, and which way is faster
    below = " / ".join(t for x, y, a, t in texts if y > bottom and a == "middle" and not re.fullmatch(r'-?[\d.]+', t))
    want = r"ratio to %s of .*\(%s%s\)" % (re.escape(base), re.escape(metric["source"]),
                                           ", " + re.escape(metric["model"]) if metric.get("model") else "")
    report(re.search(want, below) is not None and "\u2190 %s faster" % variant in below
           and "%s slower \u2192" % variant in below and "lower is better" in below,
           "axis label: %r (the source %s%s, which way is faster)" % (below, metric["source"],
                                                                      ", model " + metric["model"] if metric.get("model") else ""))

    # the labels at the axis edges, per row and side: {(case, side): {kind: value}}
    cut_labels = {}
    for x, y, anchor, text in texts:
        if not (top < y < bottom + 4):
            continue
        if text.endswith("\u2192") and anchor == "end":
            side, body = "hi", text[:-1]
        elif text.startswith("\u2190") and anchor == "start":
            side, body = "lo", text[1:]
        else:
            continue
        parts = {}
        for part in body.split("\u00b7"):
            mm = re.fullmatch(r'\s*(?:(band|spread) )?(-?[\d.]+)\s*', part)
            if not mm:
                report(False, "edge label %r: not a list of values" % text)
                continue
            parts[mm.group(1) or "interval"] = float(mm.group(2))
        at_edge = abs(x - (right if side == "hi" else left)) < 6
        report(at_edge, "edge label %r at the %s edge" % (text, "right" if side == "hi" else "left"))
        cut_labels[(row_of(y), side)] = parts
    cuts = 0

    def end_check(case, kind, side, drawn_px, value):
        """One end of an interval, band or spread: drawn at value, or at the
        edge with a label saying value.  Returns a note, or None if wrong."""
        nonlocal cuts
        e = edge[0] if side == "lo" else edge[1]
        beyond = value < e - tol if side == "lo" else value > e + tol
        near = abs(value - e) <= tol
        label = cut_labels.get((case, side), {}).pop(kind, None)
        if beyond or (near and label is not None):
            cuts += 1
            ok = abs(drawn_px - (left if side == "lo" else right)) < 1.0 and label is not None \
                and abs(label - value) <= LABEL_TOL
            return ok, "cut at the edge %.4f, labelled %s" % (e, label)
        return abs(to_ratio(drawn_px) - value) <= tol and label is None, \
            "drawn %.4f%s" % (to_ratio(drawn_px), ", labelled %s" % label if label is not None else "")

    # each series: its title, its error-bar path, its marks, its boxes
    drawn, boxes = {}, {}
    for body in re.split(r"<title>gnuplot_plot_\d+a</title>", svg)[1:]:
        name = htmllib.unescape(re.search(r'<text>([^<]*)</text>', body).group(1))
        path = " ".join(re.findall(r"d='([^']*)'", body))
        pts = [(float(a), float(b)) for a, b in re.findall(r'([-\d.]+),([-\d.]+)', path)]
        for px, py in re.findall(r"<use xlink:href='#gpPt\d+' transform='translate\(([-\d.]+),([-\d.]+)\)", body):
            py = float(py)
            if py > bottom:
                continue	# the key's sample
            case = row_of(py)
            bar = [x for x, y in pts if abs(y - py) < 0.05]	# the bar, not its caps
            drawn[case] = (name, float(px), min(bar), max(bar))
        boxes[name] = [b for b in shapes(body) if b[3] <= bottom + 0.5]
    results = {(r["case"], r["variant"]): r for r in summary["results"] if r["metric"] == primary}

    # the zone 1 +- min_effect: grey, the plot's full height
    me = summary["min_effect"]
    zb = [b for b in shapes("".join(re.findall(r"<polygon fill = 'rgb\(228, 228, 228\)'[^>]*>", svg)))
          if b[3] <= bottom + 0.5]
    zok = len(zb) == 1 and abs(zb[0][1] - top) < 1 and abs(zb[0][3] - bottom) < 1 and \
        abs(to_ratio(zb[0][0]) - (1 - me)) <= tol and abs(to_ratio(zb[0][2]) - (1 + me)) <= tol
    report(zok and ("1 \u00b1 %g%% (min_effect)" % (100 * me)) in [t[3] for t in texts],
           "zone: %s, 1 +- min_effect %g, in the key" % (
               "drawn [%.4f, %.4f] from y %.1f to %.1f" % (to_ratio(zb[0][0]), to_ratio(zb[0][2]), zb[0][1], zb[0][3])
               if len(zb) == 1 else "%d grey boxes" % len(zb), me))

    for case in summary["cases"]:
        r = results[(case, variant)]
        b = results[(case, base)]
        got = drawn.get(case)
        want = (r["verdict"], r["ratio"], r["ratio_ci"][0], r["ratio_ci"][1])
        notes = []
        ok = got is not None and got[0] == want[0] and abs(to_ratio(got[1]) - want[1]) <= tol
        if got is not None:
            for side, px, value in (("lo", got[2], want[2]), ("hi", got[3], want[3])):
                eok, note = end_check(case, "interval", side, px, value)
                ok = ok and eok
                notes.append(note)
        report(ok, "%s: drawn %s, summary.json %s" % (
            case, got and "%s %.4f [%s]" % (got[0], to_ratio(got[1]), "; ".join(notes)),
            "%s %.4f [%.4f, %.4f]" % want))
        # the band (the variant's range over the baseline's median) and the
        # baseline's spread (its own range over its median), one box a row
        for kind, series, want_lo, want_hi in (
                ("band", "layouts' range", r["range"][0] / b["median"] if r.get("layouts") else None,
                 r["range"][1] / b["median"] if r.get("layouts") else None),
                ("spread", "%s's spread" % base, b["range"][0] / b["median"], b["range"][1] / b["median"])):
            mine = [x for x in boxes.get(series, []) if abs((x[1] + x[3]) / 2 - rows[case]) < row_h / 4]
            if want_lo is None:
                report(not mine, "%s %s: none drawn, none in summary.json" % (kind, case))
                continue
            if len(mine) != 1:
                report(False, "%s %s: %d boxes drawn in its row" % (kind, case, len(mine)))
                continue
            okl, nl = end_check(case, kind, "lo", mine[0][0], want_lo)
            okh, nh = end_check(case, kind, "hi", mine[0][2], want_hi)
            report(okl and okh, "%s %s: [%s; %s], summary.json [%.4f, %.4f]" % (kind, case, nl, nh, want_lo, want_hi))
    for (case, side), parts in cut_labels.items():
        for kind, value in parts.items():
            report(False, "edge label %s %s: %s %.3f names no end past the axis" % (case, side, kind, value))
    report(cuts > 0 or not expect_cut, "ends cut at the axis and labelled there: %d" % cuts)
    return 1 if bad or not drawn else 0


if __name__ == "__main__":
    sys.exit(main())
