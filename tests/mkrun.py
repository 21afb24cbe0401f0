#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic kbench run directory (manifest.json, samples.jsonl,
boots.jsonl) from a JSON spec, so report, stats and compare can be tested on
known data without booting anything.  Standard library only.

spec: {"dir": PATH, "seed": N, "boots": N, "samples": N, "scale": 0.1,
       "backend": "clock", "accel": "tcg", "kernel_id": "...",
       "cases": [{"workload": "getppid", "case": "getppid", "ns": 400.0}, ...],
       "variants": [{"name": "O2", "text": 2000000, "factor": 1.0,
                     "factors": {"case": f}, "noise": 0.02}, ...],
       "brand": "cpu brand", "boot_failures": [["O2", 2, "timeout", "why"]],
       "spikes": [["O2", 3, 1.5]], "quantum": 10,
       "layouts": N, "layout_noise": 0.02, "min_effect": 0.01}
A variant's "order" (an object) is copied into its manifest entry as it is,
as kbench run records a variant's order = FILE.
spikes multiply one boot's level (an outlier boot); quantum rounds every
sample to a multiple (ties between boots).  layouts: every boot round runs
each variant in each of N layouts (samples and boots carry "layout"; the
manifest "layouts" and each variant's "replicas"); a layout multiplies the
level and the counts by 1 + layout_noise * N(0,1), drawn once per variant
and layout (a variant's "layout_noise" or "layout_factors" [f0, f1, ...]
instead).  min_effect goes into the manifest's run.  virtual_layouts: K
(with "virtual_noise", default 0.03): every sample's count fields but ins_*
also come under K virtual layouts, fields["vl_<field>"] = [K integers], the
count times 1 + virtual_noise * N(0,1) drawn once per variant, layout and
virtual layout (from a stream of their own: the other figures stay as
without them), as the sim backend's sim_virtual_layouts (the manifest's
"sim" {"virtual_layouts": {"n": K}} records it).
Each boot's level is ns * factor * (1 + noise * N(0,1)); each sample adds
noise / 4 around it.  Boots are interleaved in shuffled rounds like kbench's.
"""
import json
import os
import random
import sys


def main():
    spec = json.loads(sys.argv[1])
    rnd = random.Random(spec.get("seed", 1))
    d = spec["dir"]
    os.makedirs(d, exist_ok=True)
    variants = spec["variants"]
    workloads = []
    for c in spec["cases"]:
        if c["workload"] not in workloads:
            workloads.append(c["workload"])
    manifest = {
        "kbench": "test", "run_id": os.path.basename(d), "state": "complete",
        "seed": spec.get("seed", 1), "baseline": spec.get("baseline", variants[0]["name"]),
        "run": {"boots": spec.get("boots", 5), "workloads": ",".join(workloads),
                "samples": spec.get("samples", 3), "scale": spec.get("scale", 0.1),
                "timeout": 60, "memory_mb": 128},
        "host": {"cpu": {"brand": spec.get("brand", "synthetic")}},
        "kernel": {"source": "synthetic", "id": spec.get("kernel_id", "sha256:synthetic"),
                   "version": "6.1.0", "arch": "i386", "base": "tinyconfig"},
        "variants": [], "accel": {"chosen": spec.get("accel", "tcg"), "why": spec.get("why", "synthetic")},
        "backend": spec.get("backend", "clock"),
    }
    if "min_effect" in spec:
        manifest["run"]["min_effect"] = spec["min_effect"]
    nl = spec.get("layouts")
    if nl:
        manifest["layouts"] = nl
    lfac = {}
    for v in variants:
        lf = v.get("layout_factors")
        if lf is None and nl:
            ln = v.get("layout_noise", spec.get("layout_noise", 0.02))
            lf = [1 + ln * rnd.gauss(0, 1) for _ in range(nl)]
        lfac[v["name"]] = lf or [1.0]
    nvl = spec.get("virtual_layouts", 0)
    if nvl:
        manifest["sim"] = {"virtual_layouts": {"n": nvl}}
    vrnd = random.Random(spec.get("seed", 1) + 1)
    vfac = {(v["name"], lay): [1 + spec.get("virtual_noise", 0.03) * vrnd.gauss(0, 1) for _ in range(nvl)]
            for v in variants for lay in range(nl or 1)}
    for v in variants:
        mv = {"name": v["name"], "flags": v.get("flags", ""), "status": v.get("status", "built"),
              "vmlinux": "variants/%s/vmlinux" % v["name"]}
        if v.get("text") is not None:
            mv["size"] = {"text": v["text"], "data": 100000, "bss": 200000,
                          "dec": v["text"] + 300000}
        if nl:
            mv["replicas"] = [{"layout": r, "seed": 1000 + r, "pad": [r * 64, r * 128], "text": v.get("text")}
                              for r in range(nl)]
        if "order" in v:
            mv["order"] = v["order"]
        manifest["variants"].append(mv)
    samples, boots = [], []
    fail = {(f[0], f[1]): f for f in spec.get("boot_failures", [])}
    seq = 0
    vcount = {}
    runs = [(rnd_i, lay) for rnd_i in range(spec.get("boots", 5)) for lay in range(nl or 1)]
    for rnd_i, lay in runs:
        order = list(range(len(variants)))
        rnd.shuffle(order)
        for vi in order:
            v = variants[vi]
            lm = lfac[v["name"]][lay]
            seq += 1
            vcount[v["name"]] = vboot = vcount.get(v["name"], 0) + 1
            f = fail.get((v["name"], vboot))
            if f:
                boots.append({"variant": v["name"], "boot": seq, "vboot": vboot, "status": f[2],
                              "reason": f[3], "samples": 0, "serial": "boots/x.serial"})
                continue
            n = 0
            for c in spec["cases"]:
                factor = v.get("factors", {}).get(c["case"], v.get("factor", 1.0))
                noise = v.get("noise", spec.get("noise", 0.02))
                level = c["ns"] * factor * lm * (1 + noise * rnd.gauss(0, 1))
                for sv, sb, sf in spec.get("spikes", []):
                    if sv == v["name"] and sb == vboot:
                        level *= sf
                for rep in range(1, spec.get("samples", 3) + 1):
                    it = c.get("iterations", 10000)
                    per = level * (1 + noise / 4 * rnd.gauss(0, 1))
                    if spec.get("quantum"):
                        q = spec["quantum"]
                        per = max(q, round(per / q) * q)
                    fields = dict(c.get("fields", {}))
                    s = {"variant": v["name"], "boot": seq, "vboot": vboot,
                         "workload": c["workload"], "case": c["case"], "rep": rep,
                         "iterations": it, "ns": int(per * it), "ns_per_op": per,
                         "backend": manifest["backend"], "accel": manifest["accel"]["chosen"],
                         "fields": fields}
                    for k, per_op in c.get("counts", {}).items():
                        fields[k] = int(per_op * v.get("count_factors", {}).get(k, factor) * lm * it)
                    for k in c.get("counts", {}):
                        if nvl and not k.startswith("ins"):
                            fields["vl_" + k] = [int(fields[k] * f) for f in vfac[(v["name"], lay)]]
                    if nl:
                        s["layout"] = lay
                    samples.append(s)
                    n += 1
            boots.append({"variant": v["name"], "boot": seq, "vboot": vboot, "status": "ok",
                          "reason": "", "samples": n, "serial": "boots/%s-%d.serial" % (v["name"], vboot)})
            if nl:
                boots[-1]["layout"] = lay
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    with open(os.path.join(d, "samples.jsonl"), "w") as f:
        for s in samples:
            f.write(json.dumps(s) + "\n")
    with open(os.path.join(d, "boots.jsonl"), "w") as f:
        for b in boots:
            f.write(json.dumps(b) + "\n")


main()
