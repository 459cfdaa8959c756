#!/usr/bin/env python3
"""Turns the last `cargo bench --bench trees` run into the tables of BENCHMARKS.md.

Reads criterion's estimates (target/criterion/**/new/{benchmark,estimates}.json)
and prints, in Markdown: ns per tick (median) per tree x form with the ratios
compiled / hand-written and form / compiled, also with the script-only baseline
subtracted; the observation cost; the scale curve and the rayon speed-up.

    python3 benches/report.py [target/criterion]
"""
import json
import pathlib
import sys

EPISODE = 1000  # ticks per iteration, as in benches/trees.rs
TREES = ["t1_wild_dog", "t2_guard", "t3_synthetic", "t4_squad"]
FORMS = ["compiled", "hand_written", "interpreted", "bonsai", "bt_lite"]


def load(root):
    """{(group, function): median ns per iteration}"""
    out = {}
    for est in pathlib.Path(root).glob("**/new/estimates.json"):
        meta = json.loads((est.parent / "benchmark.json").read_text())
        median = json.loads(est.read_text())["median"]["point_estimate"]
        function = meta["function_id"] + ("/" + meta["value_str"] if meta.get("value_str") else "")
        out[(meta["group_id"], function)] = median
    return out


def fmt(x, digits=2):
    return "-" if x is None else f"{x:,.{digits}f}"


def trees_table(m):
    print("| tree | form | ns/tick (median) | / compiled | ns/tick minus script | / compiled, minus script |")
    print("|---|---|---:|---:|---:|---:|")
    for tree in TREES:
        base = m.get((tree, "baseline_script_only"))
        base = base / EPISODE if base is not None else 0.0
        comp = m.get((tree, "compiled"))
        comp = comp / EPISODE if comp is not None else None
        print(f"| {tree} | script only (baseline) | {fmt(base)} | | | |")
        for form in FORMS:
            v = m.get((tree, form))
            if v is None:
                continue
            v /= EPISODE
            ratio = v / comp if comp else None
            net, net_comp = v - base, (comp - base) if comp else None
            net_ratio = net / net_comp if net_comp else None
            print(f"| {tree} | {form} | {fmt(v)} | {fmt(ratio)}x | {fmt(net)} | {fmt(net_ratio)}x |")
    print()
    print("| tree | compiled / hand-written | same, minus script |")
    print("|---|---:|---:|")
    for tree in TREES:
        c, h = m.get((tree, "compiled")), m.get((tree, "hand_written"))
        b = m.get((tree, "baseline_script_only"), 0.0)
        if c and h:
            print(f"| {tree} | {c / h:.3f} | {(c - b) / (h - b):.3f} |")


def observe_table(m):
    print("| tree | tick_at (ns/tick) | tick_observed(NoopObserver) | / tick_at | counting observer | / tick_at |")
    print("|---|---:|---:|---:|---:|---:|")
    for tree in TREES:
        g = "observe_" + tree
        a, n, c = (m.get((g, f)) for f in ("tick_at", "noop_observer", "counting_observer"))
        if a:
            a, n, c = a / EPISODE, n / EPISODE, c / EPISODE
            print(f"| {tree} | {fmt(a)} | {fmt(n)} | {n / a:.3f} | {fmt(c)} | {c / a:.3f} |")


def scale_table(m):
    print("| agents | compiled, sequential ns/agent-tick | compiled, rayon (2 threads) | rayon speed-up | interpreted, sequential |")
    print("|---:|---:|---:|---:|---:|")
    for n in (1_000, 10_000, 100_000, 1_000_000):
        s, r, i = (m.get(("scale_t1", f"{f}/{n}")) for f in ("sequential", "rayon", "interpreted"))
        if s and r:
            i = fmt(i / n) if i else "-"
            print(f"| {n:,} | {fmt(s / n)} | {fmt(r / n)} | {s / r:.2f}x | {i} |")


def main():
    m = load(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
    trees_table(m)
    print()
    observe_table(m)
    print()
    scale_table(m)


if __name__ == "__main__":
    main()
