#!/usr/bin/env python3
"""The last `cargo bench -p behaved-bevy --bench guard_crowd` run as BENCHMARKS.md's table.

Reads criterion's medians (target/criterion/guard_crowd_*/*/new/estimates.json)
and prints, per group: each form's median per update, the AI's cost above the
world's own per changed guard, the ratio of ticking every guard to each
sleeping form, and the share of a 60 Hz frame.

    python3 bt-bevy/benches/guard_crowd_report.py [target/criterion] [guards] [stride]
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
guards = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
stride = int(sys.argv[3]) if len(sys.argv) > 3 else 100
changed = len(range(0, guards, stride))
FRAME_US = 1e6 / 60

for group in ["compiled", "interpreted", "compiled_200ns", "interpreted_200ns"]:
    med = {}
    for form in ["world", "sleeping", "filtered", "every"]:
        est = root / f"guard_crowd_{group}" / form / "new" / "estimates.json"
        if est.exists():
            med[form] = json.loads(est.read_text())["median"]["point_estimate"] / 1000  # us
    if "world" not in med:
        continue
    print(f"{group}: world {med['world']:.1f} us")
    for form in ["sleeping", "filtered", "every"]:
        if form not in med:
            continue
        us = med[form]
        above = (us - med["world"]) * 1000 / changed
        line = f"  {form}: {us:.1f} us ({100 * us / FRAME_US:.2f}% of a 60 Hz frame), {above:.0f} ns per changed guard above the world"
        if form != "every" and "every" in med:
            line += f", every guard / this = {med['every'] / us:.1f}x"
        print(line)
