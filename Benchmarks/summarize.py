#!/usr/bin/env python3
"""Turns `benchmark --format markdown` output into BENCHMARKS.md's tables (p50 per unit, ratios from the same run)."""
import re
import sys

UNITS = {"ns": 1, "μs": 1_000, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


def parse(text):
    results, name = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            name = line[4:].strip()
            results[name] = {}
        elif name and line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            metric = cells[0]
            wall = re.match(r"Time \(wall clock\) \((\S+)\)", metric)
            if wall:
                results[name]["ns"] = float(cells[3]) * UNITS[wall.group(1)]
            elif metric.startswith("Malloc (total)"):
                results[name]["mallocs"] = int(cells[3])
    return results


def fmt(ns):
    return "< 1" if ns < 1 else f"{ns:,.0f}"


def ratio(a, b):
    return f"{a / b:.2f}×" if a >= 1 and b >= 1 else "n/a"


def main():
    results = parse(open(sys.argv[1]).read())
    shapes = ["SubjectPumping", "SubjectPumpingTwoSubscribers", "SubjectCreating", "MapFilterPumping",
              "MapFilterCreating", "FlatMapsPumping", "FlatMapsCreating", "FlatMapLatestPumping",
              "FlatMapLatestCreating", "CombineLatestPumping", "CombineLatestCreating"]
    print("| workload | library | ns/unit (p50) | mallocs/unit | × faster than OpenCombine | × baseline (ns ÷ baseline ns) |")
    print("|---|---|---:|---:|---:|---:|")
    for shape in shapes:
        oc = results.get(f"{shape}/OpenCombine", {}).get("ns")
        base = results.get(f"{shape}/Baseline", {}).get("ns")
        for lib in ["Baseline", "OpenCombine", "Signals", "Nodes"]:
            row = results.get(f"{shape}/{lib}")
            if row is None or "ns" not in row:
                continue
            vs_oc = "—" if lib in ("Baseline", "OpenCombine") or oc is None else ratio(oc, row["ns"])
            vs_base = "—" if lib == "Baseline" or base is None else ratio(row["ns"], base)
            print(f"| {shape} | {lib} | {fmt(row['ns'])} | {row.get('mallocs', '?')} | {vs_oc} | {vs_base} |")
    print()
    # Ripple-only workloads; the pipes and pipeline rows also show their overhead over the direct calls they replace.
    direct = {"ActionPipe1/Ripple": "ActionPipe/DirectCall", "ActionPipe10/Ripple": "ActionPipe/DirectCall",
              "Pipeline4Stages/Ripple": "Pipeline4Stages/DirectCalls"}
    print("| workload | ns/unit (p50) | mallocs/unit | overhead over the direct calls (ns) |")
    print("|---|---:|---:|---:|")
    for name in sorted(results):
        row = results[name]
        if name.split("/")[0] in shapes or "ns" not in row:
            continue
        base = results.get(direct.get(name, ""), {}).get("ns")
        overhead = f"{row['ns'] - base:,.0f}" if base is not None else "—"
        print(f"| {name} | {fmt(row['ns'])} | {row.get('mallocs', '?')} | {overhead} |")

main()
