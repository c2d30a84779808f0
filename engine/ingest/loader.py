"""Reading files and text into an IngestResult.

Files or folders (recursed in sorted order, .yaml/.yml/.json), each holding
one or many YAML documents, JSON (one object or several in a row), `kind:
List` or `*List` objects with items, such as `kubectl get nodes,pods -A -o
json|yaml`. JSON goes through the json module (kubectl output can be 100 MB);
YAML through libyaml's composer, whose nodes give every error its line.

Nothing here raises on bad input: every problem becomes an IngestError and
reading goes on with the next object. Checks that need every file (duplicate
names, priorities, generated pods whose real ones are in the input) run in
`finish` once all files are read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from engine.ingest.fields import IngestError, LineMap
from engine.ingest.kinds import read_document
from engine.ingest.kinds.common import Document
from engine.ingest.kinds.others import is_yunikorn_queues, record_yunikorn_queues
from engine.ingest.kinds.priority import add_built_in_classes, check_duplicates, resolve_priorities
from engine.ingest.kinds.workloads import prune_materialized
from engine.ingest.result import IngestResult
from engine.model.objects import Source

SUFFIXES = (".yaml", ".yml", ".json")
# JSON is composed again as YAML for line numbers only when an error needs
# them, and only below this size (PyYAML needs seconds per 10 MB).
JSON_LINES_LIMIT = 16 * 1024 * 1024
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def ingest_paths(paths: list[str]) -> IngestResult:
    """Read files and folders in the order given."""
    out = IngestResult()
    for path in paths:
        for file in _files(path, out):
            try:
                text = file.read_bytes().decode("utf-8-sig")
            except OSError as exc:
                out.errors.append(
                    IngestError(str(file), None, None, "", f"cannot read: {exc.strerror}")
                )
                continue
            except UnicodeDecodeError as exc:
                message = f"not UTF-8 text (byte {exc.start})"
                out.errors.append(IngestError(str(file), None, None, "", message))
                continue
            read_text(text, str(file), out)
    finish(out)
    return out


def ingest_text(text: str, filename: str) -> IngestResult:
    """Read one uploaded file's text; `filename` names it in errors."""
    out = IngestResult()
    read_text(text, filename, out)
    finish(out)
    return out


def _files(path: str, out: IngestResult) -> list[Path]:
    root = Path(path)
    if root.is_dir():
        return sorted(
            p
            for p in root.rglob("*")
            if p.is_file()
            and p.suffix.lower() in SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(root).parts)
        )
    if root.is_file():
        return [root]
    out.errors.append(IngestError(path, None, None, "", "no such file or directory"))
    return []


def read_text(text: str, filename: str, out: IngestResult) -> None:
    """Read every object in one file's text into `out` (without `finish`)."""
    text = text.removeprefix("\ufeff")
    is_json_name = filename.lower().endswith(".json")
    if is_json_name or text.lstrip().startswith(("{", "[")):
        if _read_json(text, filename, out, report=is_json_name):
            return
        if is_json_name:
            return
    _read_yaml(text, filename, out)


# --- JSON ----------------------------------------------------------------------


class _LazyYamlRoot:
    """Composes a JSON text as YAML the first time a line is needed."""

    def __init__(self, text: str) -> None:
        self._text: str | None = text if len(text) <= JSON_LINES_LIMIT else None
        self._root: yaml.Node | None = None

    def __call__(self) -> yaml.Node | None:
        if self._text is not None:
            try:
                self._root = yaml.compose(self._text, Loader=_YAML_LOADER)
            except yaml.YAMLError:
                self._root = None
            self._text = None
        return self._root


def _read_json(text: str, filename: str, out: IngestResult, report: bool) -> bool:
    """Read one or more JSON values; False (and an error if `report`) if not JSON."""
    decoder = json.JSONDecoder()
    values: list[tuple[Any, int, int]] = []  # (value, start, end)
    pos, end = 0, len(text)
    try:
        while True:
            while pos < end and text[pos].isspace():
                pos += 1
            if pos >= end:
                break
            value, next_pos = decoder.raw_decode(text, pos)
            values.append((value, pos, next_pos))
            pos = next_pos
    except json.JSONDecodeError as exc:
        if report:
            message = f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            out.errors.append(IngestError(filename, exc.lineno, None, "", message))
        return False
    counter = _Counter()
    for value, start, stop in values:
        load = _LazyYamlRoot(text if len(values) == 1 else text[start:stop])
        offset = 0 if len(values) == 1 else text.count("\n", 0, start)

        def lines(
            prefix: tuple[str | int, ...], load: Callable[[], Any] = load, offset: int = offset
        ) -> LineMap:
            return LineMap(prefix=prefix, load=load, offset=offset)

        _read_value(value, filename, lines, None, counter, out)
    return True


# --- YAML ----------------------------------------------------------------------


def _yaml_documents(text: str) -> Iterator[tuple[yaml.Node, Any]]:
    loader = _YAML_LOADER(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            yield node, loader.construct_document(node)
    finally:
        loader.dispose()


def _read_yaml(text: str, filename: str, out: IngestResult) -> None:
    counter = _Counter()
    try:
        for node, data in _yaml_documents(text):

            def lines(prefix: tuple[str | int, ...], node: yaml.Node = node) -> LineMap:
                return LineMap(node, prefix)

            _read_value(data, filename, lines, node, counter, out)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "cannot parse"
        context = f" {exc.context}" if exc.context else ""
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        line = mark.line + 1 if mark else None
        out.errors.append(
            IngestError(filename, line, None, "", f"invalid YAML: {problem}{context}{where}")
        )
    except yaml.YAMLError as exc:
        out.errors.append(IngestError(filename, None, None, "", f"invalid YAML: {exc}"))


# --- documents -----------------------------------------------------------------


class _Counter:
    """Numbers the objects of one file (documents and List items alike)."""

    def __init__(self) -> None:
        self.value = -1

    def next(self) -> int:
        self.value += 1
        return self.value


def _read_value(
    data: Any,
    filename: str,
    lines: Callable[[tuple[str | int, ...]], LineMap],
    eager_node: yaml.Node | None,
    counter: _Counter,
    out: IngestResult,
) -> None:
    """One YAML document or JSON value: an object, a List, or a bare list."""
    if data is None:
        return  # an empty document, e.g. a trailing `---`
    if isinstance(data, list):
        for i, item in enumerate(data):
            _read_object(item, filename, lines((i,)), eager_node is not None, counter, out)
        return
    if isinstance(data, dict) and _is_list(data):
        items = data.get("items") or []
        if not isinstance(items, list):
            line = lines(("items",)).line()
            out.errors.append(IngestError(filename, line, None, "items", "must be a list"))
            return
        for i, item in enumerate(items):
            _read_object(item, filename, lines(("items", i)), eager_node is not None, counter, out)
        return
    _read_object(data, filename, lines(()), eager_node is not None, counter, out)


def _is_list(data: dict[str, Any]) -> bool:
    kind = data.get("kind")
    return isinstance(kind, str) and kind.endswith("List") and "items" in data


def _read_object(
    data: Any, filename: str, lines: LineMap, eager: bool, counter: _Counter, out: IngestResult
) -> None:
    index = counter.next()
    line = lines.line() if eager else None
    source = Source(filename, line, index)
    if not isinstance(data, dict):
        shown = {str: "string", int: "number", float: "number", bool: "boolean"}.get(
            type(data), type(data).__name__
        )
        message = (
            f"not a Kubernetes object: expected a mapping with apiVersion and kind, got a {shown}"
        )
        out.errors.append(IngestError(filename, lines.line(), None, "", message))
        return
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if not isinstance(api_version, str) or not api_version or not isinstance(kind, str) or not kind:
        if is_yunikorn_queues(data):
            record_yunikorn_queues(Document(data, filename, lines, source, "", ""), out)
            return
        out.errors.append(IngestError(filename, lines.line(), None, "", _not_an_object(data)))
        return
    read_document(Document(data, filename, lines, source, api_version, kind), out)


def _not_an_object(data: dict[str, Any]) -> str:
    missing = "/".join(
        k for k in ("apiVersion", "kind") if not isinstance(data.get(k), str) or not data.get(k)
    )
    keys = ", ".join(str(k) for k in list(data)[:5])
    hint = f"; top-level keys: {keys}" if keys else ""
    if any(
        k in data
        for k in ("nodeAffinity", "podAffinity", "podAntiAffinity", "containers", "tolerations")
    ):
        hint += " (a fragment of a pod spec: put it under a Pod's spec)"
    return f"not a Kubernetes object (missing {missing}){hint}"


# --- checks across files --------------------------------------------------------


def finish(out: IngestResult) -> None:
    """The checks that need everything read; safe to run again after a merge."""
    prune_materialized(out)
    for i, pod in enumerate(out.pods):
        pod.arrival_index = i
    out.errors[:] = [e for e in out.errors if not e.cross_object]
    add_built_in_classes(out)
    check_duplicates(out)
    resolve_priorities(out)
    for site in out.priority_sites:
        site.lines = None  # release parsed YAML; needed lines are kept in site.line
