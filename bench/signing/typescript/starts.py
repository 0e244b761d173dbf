"""Times Node starts for bench.mjs's import figure (issue 36 item 3), the way a shared machine
allows: each start's own CPU time (user + system, all its threads, from wait4's rusage, which
Node's child_process does not give), beside its wall-clock time, in alternating rounds.

    python3 starts.py NODE CWD ROUNDS '{"name": [argv...], ...}'

Prints one JSON object: {"cpu_ms": {name: median}, "wall_ms": {name: median}}. NODE_EXTRA_CA_CERTS
is left out of every start (it makes each read a certificate file).
"""

import json
import os
import statistics
import sys
import time


def main() -> None:
    node, cwd, rounds, starts = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
    env = {k: v for k, v in os.environ.items() if k != "NODE_EXTRA_CA_CERTS"}
    os.chdir(cwd)

    def start(argv: list[str]) -> tuple[float, float]:
        began = time.perf_counter()
        pid = os.posix_spawn(node, [node, *argv], env)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - began
        if status != 0:
            sys.exit(f"node {' '.join(argv)} failed ({status})")
        return (usage.ru_utime + usage.ru_stime) * 1000, wall * 1000

    names = list(starts)
    for name in names:  # the files into the page cache
        start(starts[name])
    cpu: dict[str, list[float]] = {n: [] for n in names}
    wall: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            c, w = start(starts[name])
            cpu[name].append(c)
            wall[name].append(w)
    median = statistics.median
    print(json.dumps({"cpu_ms": {n: median(cpu[n]) for n in names}, "wall_ms": {n: median(wall[n]) for n in names}}))


if __name__ == "__main__":
    main()
