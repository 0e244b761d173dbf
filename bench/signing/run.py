#!/usr/bin/env python3
"""Signing speed of every language's SDK, each language in its own process (issue 36).

    python3 bench/signing/run.py                      # every language whose bench/signing/<lang>/run exists
    python3 bench/signing/run.py python typescript    # only these
    python3 bench/signing/run.py --json out.json      # also keep every figure

For each body of bench/signing/bodies.py (a 1.4 KB CNY Express request, a 30 KB and a 600 KB
getTransList page), each language's bench prints, per body:
  A  its SDK's verify of the body (parse, canonical string, SHA-256, compare), per call
  B  the floor: the language's standard JSON parse of the same bytes plus its SHA-256 of a
     buffer as long as the canonical string (what no signer in that language can go below)
  C  the signer a partner would write in 30 lines: standard parse, recursive flatten, sort,
     join, SHA-256
  and the peak memory of one A call and of one C call, as a multiple of the body's size.
A, B and C are timed in alternating rounds in one process (medians), so a busy machine
moves all three together; the load average before and after is printed.

Targets (issue 36): A/C <= 1.0 on every body with memory no more than C's; where a language
cannot reach 1.0, its bench names the floor that stops it and A/C stays within 1.5. Some
languages print further figures (import time, the Rust call against its floor) as `metric`
lines with their own targets.

The contract of a language's bench, so that adding one is a file: bench/signing/<lang>/run is
an executable taking the bodies' directory (with manifest.json) as its only argument and
printing JSON lines on stdout:
  {"lang", "body", "a_ns", "b_ns", "c_ns", "mem_a", "mem_c", "rounds", "floor"?, "stops"?}
  {"lang", "metric", "value", "target", "at_least"?, "unit"?, "note"?}
(`floor` says what B is in that language; `stops` says, where A/C > 1.0, what keeps it there.)
It exits non-zero if its verify disagrees with a manifest signature. Anything else it prints
goes to stderr.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ORDER = ["rust", "java", "typescript", "php", "python"]


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def langs(wanted: list[str]) -> list[str]:
    present = [p.name for p in sorted(HERE.iterdir()) if (p / "run").is_file()]
    known = [l for l in ORDER if l in present] + [l for l in present if l not in ORDER]
    if not wanted:
        return known
    unknown = [w for w in wanted if w not in present]
    if unknown:
        sys.exit(f"bench: no bench/signing/<lang>/run for {', '.join(unknown)} (have: {', '.join(known)})")
    return wanted


def run_lang(lang: str, bodies: Path) -> tuple[list[dict[str, Any]], int]:
    proc = subprocess.run([str(HERE / lang / "run"), str(bodies)], cwd=ROOT,
                          stdout=subprocess.PIPE, text=True)
    rows = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
        elif line:
            print(f"  {lang}: {line}", file=sys.stderr)
    return rows, proc.returncode


def verdict_body(r: dict[str, Any]) -> str:
    ac = r["a_ns"] / r["c_ns"]
    mem_ok = r["mem_a"] <= r["mem_c"]
    if ac <= 1.0 and mem_ok:
        return "met"
    if ac <= 1.5 and mem_ok and r.get("stops"):
        return "floor-bound (see below)"
    return "NOT MET" + ("" if mem_ok else " (memory)")


def verdict_metric(m: dict[str, Any]) -> str:
    ok = m["value"] >= m["target"] if m.get("at_least") else m["value"] <= m["target"]
    return "met" if ok else "NOT MET"


def main(argv: list[str]) -> int:
    out_json = None
    if "--json" in argv:
        i = argv.index("--json")
        out_json = Path(argv[i + 1])
        del argv[i:i + 2]
    chosen = langs(argv)
    bodies = Path(tempfile.mkdtemp(prefix="baas-bench-"))
    subprocess.run([sys.executable, str(HERE / "bodies.py"), str(bodies)], check=True)
    manifest = json.loads((bodies / "manifest.json").read_text())
    sizes = {m["name"]: m["bytes"] for m in manifest}
    print(f"bodies: " + ", ".join(f"{m['name']} {m['bytes']} bytes" for m in manifest))
    print(f"load average before: {load()}  ({os.cpu_count()} cores)")
    rows: list[dict[str, Any]] = []
    failed = []
    for lang in chosen:
        got, rc = run_lang(lang, bodies)
        if rc != 0 or not got:
            failed.append(lang)
        rows += got
    print(f"load average after:  {load()}")
    print()
    print("| language | body | A µs | B µs | C µs | A/B | A/C | memory A / C (x body) | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in (r for r in rows if "body" in r):
        print(f"| {r['lang']} | {r['body']} | {r['a_ns'] / 1e3:.1f} | {r['b_ns'] / 1e3:.1f} | "
              f"{r['c_ns'] / 1e3:.1f} | {r['a_ns'] / r['b_ns']:.2f} | {r['a_ns'] / r['c_ns']:.2f} | "
              f"{r['mem_a']:.2f} / {r['mem_c']:.2f} | {verdict_body(r)} |")
    metrics = [r for r in rows if "metric" in r]
    if metrics:
        print()
        print("| language | figure | value | target | |")
        print("|---|---|---|---|---|")
        for m in metrics:
            cmp = ">=" if m.get("at_least") else "<="
            unit = m.get("unit", "")
            print(f"| {m['lang']} | {m['metric']} | {m['value']:.3f}{unit} | {cmp} {m['target']}{unit} | "
                  f"{verdict_metric(m)} |")
    notes = [(r["lang"], r.get("body", r.get("metric")), k, r[k]) for r in rows for k in ("floor", "stops", "note") if r.get(k)]
    seen = set()
    if notes:
        print()
    for lang, what, k, text in notes:
        if (lang, k, text) in seen:
            continue
        seen.add((lang, k, text))
        print(f"- {lang} {k}: {text}")
    if out_json:
        out_json.write_text(json.dumps({"sizes": sizes, "rows": rows}, indent=1) + "\n")
    if failed:
        print(f"\nbench failed for: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
