"""Placement benchmark: synthetic GPU cluster, default profile, pods per second.

Two scenarios, each in its own child process pinned to one core, so that the
peak memory reported is that scenario's own:

1. mix: every kind of pod bench/synthetic.py makes (a quarter with node
   constraints, a tenth with topology spread or pod anti-affinity);
2. resource-only: the same pods asking for resources only.

Generating the objects is timed apart from placing them; pods per second is
the number of pending pods (scheduled or not) divided by the CPU seconds
`place` took: the child is single-threaded, so on an idle core that equals
wall-clock time, and a busy neighbour on the same core does not skew it.
Exit 1 when a target is missed, unless --no-check.

    .venv/bin/python bench/placement.py [--nodes 5000] [--pods 50000] [--only mix]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MAX_PEAK_RSS_MIB = 2048
PROFILE_LINES = 30


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    constraints: bool
    min_pods_per_second: int


SCENARIOS = {
    "mix": Scenario("mix", constraints=True, min_pods_per_second=5_000),
    "resource-only": Scenario("resource-only", constraints=False, min_pods_per_second=20_000),
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5_000, help="GPU nodes (default 5000)")
    parser.add_argument("--pods", type=int, default=50_000, help="pending pods (default 50000)")
    parser.add_argument("--seed", type=int, default=0, help="generator and tie-break seed")
    parser.add_argument(
        "--only", choices=[*SCENARIOS, "all"], default="all", help="scenario to run (default all)"
    )
    parser.add_argument(
        "--profile-output",
        metavar="PATH",
        help="write a cProfile dump of placement per scenario (PATH with the scenario name "
        "before its suffix) and print the top functions; timings then include profiling overhead",
    )
    parser.add_argument("--no-check", action="store_true", help="exit 0 even if a target is missed")
    parser.add_argument("--child", choices=list(SCENARIOS), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return run_child(args)
    names = list(SCENARIOS) if args.only == "all" else [args.only]
    rows: list[dict[str, Any]] = []
    crashed = False
    for name in names:
        row = run_scenario(name, args)
        if row is None:
            crashed = True
        else:
            rows.append(row)
    print_table(rows)
    missed = [r["scenario"] for r in rows if not r["passed"]]
    if crashed:
        return 1
    if missed and not args.no_check:
        print(f"target missed: {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


def run_scenario(name: str, args: argparse.Namespace) -> dict[str, Any] | None:
    """One scenario in a fresh interpreter; its result is the JSON on its last stdout line."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        name,
        "--nodes",
        str(args.nodes),
        "--pods",
        str(args.pods),
        "--seed",
        str(args.seed),
    ]
    if args.profile_output:
        command += ["--profile-output", args.profile_output]
    # One core: keep numpy's BLAS from starting threads of its own.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=env, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        print(f"scenario {name} failed (exit {done.returncode})", file=sys.stderr)
        return None
    row: dict[str, Any] = json.loads(lines[-1])
    scenario = SCENARIOS[name]
    row["target"] = f">={scenario.min_pods_per_second} pods/s, <{MAX_PEAK_RSS_MIB} MiB"
    row["passed"] = (
        row["pods_per_second"] >= scenario.min_pods_per_second
        and row["peak_rss_mib"] < MAX_PEAK_RSS_MIB
    )
    return row


def run_child(args: argparse.Namespace) -> int:
    """Generate, place and print one JSON line with the figures."""
    pin_to_one_core()
    scenario = SCENARIOS[args.child]

    from bench.synthetic import synthetic_nodes, synthetic_pods
    from engine.config import default_config
    from engine.model.objects import GPU
    from engine.scheduler.placement import place
    from engine.scheduler.result import SCHEDULED, UNSCHEDULABLE

    started = time.perf_counter()
    nodes = synthetic_nodes(args.nodes, args.seed)
    pods = synthetic_pods(args.pods, nodes, args.seed, constraints=scenario.constraints)
    generate_seconds = time.perf_counter() - started
    config = default_config()

    profiler = None
    if args.profile_output:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu_started = time.perf_counter(), time.process_time()
    placement = place(nodes, pods, config, seed=args.seed)
    place_seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    if profiler is not None:
        profiler.disable()
        write_profile(profiler, profile_path(args.profile_output, scenario.name))

    statuses = [r.status for r in placement.results]
    cluster = placement.cluster
    gpu = cluster.column(GPU)
    gpu_total = int(cluster.allocatable[:, gpu].sum()) if gpu is not None else 0
    gpu_used = int(cluster.requested[:, gpu].sum()) if gpu is not None else 0
    figures = {
        "scenario": scenario.name,
        "nodes": len(nodes),
        "pods": len(pods),
        "scheduled": statuses.count(SCHEDULED),
        "unschedulable": statuses.count(UNSCHEDULABLE),
        "generate_seconds": round(generate_seconds, 3),
        "seconds": round(place_seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "pods_per_second": round(len(pods) / cpu_seconds) if cpu_seconds > 0 else 0,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "gpu_allocation_percent": round(100 * gpu_used / gpu_total, 1) if gpu_total else 0.0,
    }
    print(json.dumps(figures))
    return 0


def pin_to_one_core() -> None:
    """The targets are for one core: run on the first core this process may use."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def profile_path(path: str, scenario: str) -> Path:
    """bench.prof -> bench.mix.prof: one dump per scenario."""
    target = Path(path)
    return target.with_name(f"{target.stem}.{scenario}{target.suffix or '.prof'}")


def write_profile(profiler: Any, path: Path) -> None:
    import pstats

    profiler.dump_stats(path)
    print(f"profile written to {path}", file=sys.stderr)
    stats = pstats.Stats(profiler, stream=sys.stderr).strip_dirs()
    stats.sort_stats("cumulative").print_stats(PROFILE_LINES)
    stats.sort_stats("tottime").print_stats(PROFILE_LINES)


COLUMNS = (
    ("scenario", "scenario"),
    ("nodes", "nodes"),
    ("pods", "pods"),
    ("scheduled", "scheduled"),
    ("unschedulable", "unschedulable"),
    ("generate s", "generate_seconds"),
    ("wall s", "seconds"),
    ("cpu s", "cpu_seconds"),
    ("pods/s", "pods_per_second"),
    ("peak RSS MiB", "peak_rss_mib"),
    ("GPU alloc %", "gpu_allocation_percent"),
    ("target", "target"),
    ("result", "passed"),
)


def print_table(rows: list[dict[str, Any]]) -> None:
    cells = [[title for title, _ in COLUMNS]]
    for row in rows:
        cells.append(
            [
                ("PASS" if row[key] else "FAIL") if key == "passed" else str(row[key])
                for _, key in COLUMNS
            ]
        )
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS))]
    for line in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))


if __name__ == "__main__":
    sys.exit(main())
