#!/usr/bin/env python3
"""Run a command and measure its whole process tree: CPU seconds (user + system) of every
process it starts, and the peak of their summed resident memory. For a job of many
processes (Spark's JVM and its Python workers) `/usr/bin/time` is not enough: it sees
only children that were waited for, and the largest one's peak, not the sum.

    python3 bench/proc_meter.py OUT.json -- COMMAND [ARGS...]

Polls /proc every 0.1 s: a process's CPU is its last value seen, and the processes the
command waited for are counted from the kernel's own total for them (so a
single-process run is exact). Writes {"cpu_seconds", "wall_seconds", "peak_rss_mb",
"exit_code", "processes"} to OUT.json; the command's stdout and stderr pass through.
"""

import json
import os
import resource
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def children_of():
    """{pid: parent pid} of every process now running."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parents[int(name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                pass
    return parents


def tree(root):
    parents = children_of()
    pids, frontier = {root}, [root]
    while frontier:
        p = frontier.pop()
        for child, parent in parents.items():
            if parent == p and child not in pids:
                pids.add(child)
                frontier.append(child)
    return pids


def usage(pid):
    """(cpu seconds, rss bytes) of one process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/statm") as f:
            rss = int(f.read().split()[1]) * PAGE
        return (int(fields[11]) + int(fields[12])) / TICK, rss
    except (OSError, IndexError, ValueError):
        return None


def main():
    out, cmd = sys.argv[1], sys.argv[sys.argv.index("--") + 1 :]
    start = time.monotonic()
    proc = subprocess.Popen(cmd)
    cpu_seen, peak, seen = {}, 0, set()
    while proc.poll() is None:
        total = 0
        for pid in tree(proc.pid):
            u = usage(pid)
            if u:
                cpu_seen[pid] = u[0]
                total += u[1]
                seen.add(pid)
        peak = max(peak, total)
        time.sleep(0.1)
    wall = time.monotonic() - start
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    waited_cpu = waited.ru_utime + waited.ru_stime
    # Processes the command reaped are in the kernel's total; those it did not (a JVM
    # killed at exit, daemons) only in what was seen.
    cpu = max(waited_cpu, sum(cpu_seen.values()))
    peak = max(peak, waited.ru_maxrss * 1024)
    result = {
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2),
        "peak_rss_mb": round(peak / 2**20, 1),
        "exit_code": proc.returncode,
        "processes": len(seen),
    }
    with open(out, "w") as f:
        json.dump(result, f)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
