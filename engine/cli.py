"""`python -m engine`: the command line users, tests and the web app share.

Exit codes: 0 on success (pods left Pending are a result, not an error),
2 on bad input, with one line per problem on stderr naming the file, the
object and the field.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.config import (
    ConfigError,
    default_config,
    load_scheduler_config,
    load_scheduler_config_file,
)
from engine.config.types import SchedulerConfig
from engine.framework.runtime import FrameworkError
from engine.ingest import IngestResult, ingest_paths
from engine.output.placement import placement_json, placement_table
from engine.scheduler.placement import place

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="gpu-whatif placement engine: kube-scheduler's decisions, explained.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    place_cmd = commands.add_parser(
        "place",
        help="place pending pods on a cluster snapshot, one by one, as kube-scheduler would",
        description=(
            "Place every pod without spec.nodeName on the nodes given, with the pods that "
            "have spec.nodeName already running where they are."
        ),
    )
    place_cmd.add_argument(
        "-f",
        "--filename",
        dest="paths",
        action="append",
        required=True,
        metavar="PATH",
        help="YAML or JSON file or folder of Kubernetes objects (repeatable)",
    )
    place_cmd.add_argument(
        "--config",
        metavar="KSC.yaml",
        help="a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); "
        "default: kube-scheduler's defaults",
    )
    place_cmd.add_argument("--seed", type=int, default=0, help="seed for tie-breaking (default 0)")
    place_cmd.add_argument(
        "--explain",
        action="store_true",
        help="per pod and evaluated node: filter verdict and each score plugin's score",
    )
    place_cmd.add_argument("-o", "--output", choices=("json", "table"), default="table")
    return parser


def load_inputs(
    paths: Sequence[str], config_path: str | None
) -> tuple[IngestResult, SchedulerConfig]:
    """Ingest objects and the scheduler configuration, or raise BadInput listing every problem.

    The configuration comes from `--config`, else from a
    KubeSchedulerConfiguration among the inputs, else upstream's defaults.
    """
    inputs = ingest_paths(list(paths))
    problems = [str(e) for e in inputs.errors]
    config = default_config()
    if config_path is not None:
        try:
            config = load_scheduler_config_file(config_path)
        except ConfigError as exc:
            problems.extend(str(p) for p in exc.problems)
    elif len(inputs.scheduler_configs) > 1:
        places = ", ".join(str(source) for _, source in inputs.scheduler_configs)
        problems.append(f"more than one KubeSchedulerConfiguration given ({places}); pass one")
    elif inputs.scheduler_configs:
        doc, source = inputs.scheduler_configs[0]
        try:
            config = load_scheduler_config(doc, source, inputs.config_lines(source))
        except ConfigError as exc:
            problems.extend(str(p) for p in exc.problems)
    if problems:
        raise BadInput(problems)
    return inputs, config


def not_simulated_notes(inputs: IngestResult) -> list[str]:
    return [f"{item.source}: {item.kind} {item.name}: {item.note}" for item in inputs.not_simulated]


def run_place(args: argparse.Namespace, out: TextIO) -> int:
    inputs, config = load_inputs(args.paths, args.config)
    try:
        placement = place(
            inputs.nodes,
            inputs.pods,
            config,
            namespaces=inputs.namespaces,
            controllers=inputs.controllers,
            seed=args.seed,
            explain=args.explain,
        )
    except FrameworkError as exc:
        raise BadInput([str(exc)]) from exc
    notes = not_simulated_notes(inputs)
    if args.output == "json":
        extra: dict[str, Any] = {"not_simulated": notes}
        json.dump(placement_json(placement, extra), out, indent=1)
        out.write("\n")
    else:
        out.write(placement_table(placement, notes))
    return EXIT_OK


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        if args.command == "place":
            return run_place(args, out)
    except BadInput as exc:
        for problem in exc.problems:
            err.write(problem + "\n")
        return EXIT_BAD_INPUT
    return EXIT_OK
