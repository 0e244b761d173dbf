#!/usr/bin/env python3
"""Checks every Python, TypeScript and PHP example of the READMEs as a partner would use it
(issue 34: the Python first call failed `mypy --strict` though the README said the SDK is
checked with it). The Rust examples are doctests already (tests/src/lib.rs).

Each README section (`## ...`) is one partner file per language: its ```python blocks, in
order, are one module, type-checked with `mypy --strict` against python/ and generated/python;
its ```ts blocks one ES module (.mts), type-checked with `tsc` (strict, exactOptionalPropertyTypes,
noUncheckedIndexedAccess, as the SDK) against the built @baas/client; every ```js block is a
CommonJS file (.cjs) type-checked in the same run (`checkJs`) against the CommonJS declarations a
`require("@baas/client")` resolves to; every ```php block is
linted with `php -l`. Fails when a README has none of the blocks it is known to hold, so the
check cannot pass by finding nothing.

    python3 tests/readme/check.py --mypy target/python-venv/bin/mypy \\
        --tsc node_modules/.bin/tsc --php php

Needs the TypeScript packages built first (`npm run build`: @baas/client's types are dist/).
A tool not given is not run (and says so). Takes about 20 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
READMES = ["README.md", "python/README.md", "typescript/README.md", "php/README.md"]
# Blocks each language has (the check fails on fewer: a block lost its fence or README).
AT_LEAST = {"python": 3, "ts": 3, "js": 1, "php": 14}
FENCE = re.compile(r"^```(\w+)")


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(section, language, code) of every fenced block, in order."""
    found: list[tuple[str, str, str]] = []
    section = "top"
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        # Indented fences (inside a list item) count too.
        m = FENCE.match(line.strip())
        if m:
            indent = len(line) - len(line.lstrip())
            lang = {"typescript": "ts"}.get(m.group(1), m.group(1))
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][indent:])
                i += 1
            found.append((section, lang, "\n".join(body) + "\n"))
        i += 1
    return found


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "top"


def write_examples(out: Path) -> tuple[dict[str, list[Path]], dict[str, int]]:
    files: dict[str, list[Path]] = {"python": [], "ts": [], "php": []}
    counts = {"python": 0, "ts": 0, "js": 0, "php": 0}
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for readme in READMES:
        path = REPO / readme
        if not path.exists():
            continue
        for n, (section, lang, code) in enumerate(blocks(path.read_text(encoding="utf-8"))):
            if lang in counts:
                counts[lang] += 1
            stem = f"{slug(readme.removesuffix('.md'))}__{slug(section)}"
            if lang == "php":
                target = out / "php" / f"{stem}_{n}.php"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(code, encoding="utf-8")
                files["php"].append(target)
            elif lang == "js":
                # Each block on its own: a CommonJS script, checked beside the .mts files.
                target = out / "ts" / f"{stem}_{n}.cjs"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"// from {readme}, {section}\n{code}", encoding="utf-8")
                files["ts"].append(target)
            elif lang in ("python", "ts"):
                grouped.setdefault((lang, stem, readme), []).append(f"# from {readme}, {section}\n" if lang == "python" else f"// from {readme}, {section}\n")
                grouped[(lang, stem, readme)].append(code)
    for (lang, stem, _), parts in grouped.items():
        suffix = ".py" if lang == "python" else ".mts"
        target = out / lang / f"{stem}{suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(parts), encoding="utf-8")
        files[lang].append(target)
    return files, counts


def run(what: str, command: list[str], env: dict[str, str] | None = None) -> bool:
    print(f"readme examples: {what}: {' '.join(command[:3])} ...", flush=True)
    result = subprocess.run(command, cwd=REPO, env=env)
    if result.returncode != 0:
        print(f"readme examples: {what} FAILED", file=sys.stderr)
    return result.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mypy", help="mypy to run (e.g. target/python-venv/bin/mypy)")
    parser.add_argument("--tsc", help="tsc to run (e.g. node_modules/.bin/tsc)")
    parser.add_argument("--php", help="php to run (php -l)")
    parser.add_argument("--out", default="target/readme-examples", help="where the examples are written")
    args = parser.parse_args()

    out = (REPO / args.out).resolve()
    shutil.rmtree(out, ignore_errors=True)
    files, counts = write_examples(out)
    ok = True
    for lang, least in AT_LEAST.items():
        if counts[lang] < least:
            print(f"readme examples: {counts[lang]} {lang} block(s) found, at least {least} expected", file=sys.stderr)
            ok = False
    if args.mypy:
        env = dict(os.environ, MYPYPATH=f"{REPO / 'python'}{os.pathsep}{REPO / 'generated/python'}")
        ok &= run(
            f"mypy --strict on {len(files['python'])} Python file(s)",
            [args.mypy, "--strict", "--python-version", "3.10", "--no-incremental", "--cache-dir", "/dev/null",
             *map(str, files["python"])],
            env,
        )
    else:
        print("readme examples: Python not checked (no --mypy)")
    if args.tsc:
        config = out / "ts" / "tsconfig.json"
        config.write_text(json.dumps({
            "compilerOptions": {
                "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
                "lib": ["ES2022", "DOM"], "types": ["node"], "strict": True,
                "exactOptionalPropertyTypes": True, "noUncheckedIndexedAccess": True,
                "noEmit": True, "skipLibCheck": True, "allowJs": True, "checkJs": True,
            },
            "files": [p.name for p in files["ts"]],
        }, indent=2), encoding="utf-8")
        ok &= run(f"tsc on {len(files['ts'])} TypeScript and CommonJS file(s)", [args.tsc, "-p", str(config)])
    else:
        print("readme examples: TypeScript not checked (no --tsc)")
    if args.php:
        print(f"readme examples: php -l on {len(files['php'])} PHP block(s)", flush=True)
        for f in files["php"]:
            lint = subprocess.run([args.php, "-l", str(f)], cwd=REPO, capture_output=True, text=True)
            if lint.returncode != 0:
                print(f"readme examples: php -l FAILED:\n{lint.stdout}{lint.stderr}", file=sys.stderr)
                ok = False
    else:
        print("readme examples: PHP not checked (no --php)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
