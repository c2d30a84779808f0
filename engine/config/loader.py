"""KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as kube-scheduler reads it.

1. Decode strictly: an unknown field is an error, as with upstream's strict
   scheme (fields that only matter to a live scheduler, such as
   leaderElection, are accepted and kept on SchedulerConfig).
2. Default (pkg/scheduler/apis/config/v1/defaults.go): no profiles means one;
   a lone profile without a name is "default-scheduler"; each profile's
   plugins are merged into the default multiPoint set (mergePlugins in
   default_plugins.go) and every plugin's args get their defaults.
3. Validate as pkg/scheduler/apis/config/validation does.
4. Build each profile's per-extension-point plugin lists the way the
   framework does when it starts (framework.go NewFramework): explicit
   per-point enables (updatePluginList), then multiPoint expansion
   (expandMultiPointPlugins), then score weights (getScoreWeights).

Every problem is collected; ConfigError lists them all.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.config.args import NoArgs
from engine.config.args_parsing import check_known_fields, parse_plugin_args
from engine.config.defaults import (
    API_VERSION,
    DEFAULT_MULTI_POINT,
    DEFAULT_PARALLELISM,
    DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE,
    DEFAULT_POD_INITIAL_BACKOFF_SECONDS,
    DEFAULT_POD_MAX_BACKOFF_SECONDS,
    EXTENSION_POINTS,
    KIND,
    PLUGIN_EXTENSION_POINTS,
    PLUGIN_INTERFACE,
    REMOVED_PLUGINS,
)
from engine.config.types import DEFAULT_SCHEDULER_NAME, PluginRef, Profile, SchedulerConfig
from engine.ingest.fields import (
    Ctx,
    IngestError,
    LineMap,
    as_bool,
    as_int,
    as_list,
    as_map,
    as_str,
    child,
    duplicate,
    go_value,
    index,
    invalid,
    required,
    unsupported,
)
from engine.model.objects import ObjectRef, Source
from engine.plugins.registry import REGISTRY

MULTI_POINT = "multiPoint"

_TOP_LEVEL_FIELDS = (
    "apiVersion",
    "kind",
    "parallelism",
    "leaderElection",
    "clientConnection",
    "enableProfiling",
    "enableContentionProfiling",
    "percentageOfNodesToScore",
    "podInitialBackoffSeconds",
    "podMaxBackoffSeconds",
    "profiles",
    "extenders",
    "delayCacheUntilActive",
)
# Accepted and kept, but nothing in a simulation depends on them.
_OTHER_SETTINGS = (
    "leaderElection",
    "clientConnection",
    "enableProfiling",
    "enableContentionProfiling",
    "delayCacheUntilActive",
)
_PROFILE_FIELDS = ("schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig")
_PLUGIN_FIELDS = ("name", "weight")
_REMOVED_VERSIONS = {
    "kubescheduler.config.k8s.io/v1beta1": "1.23",
    "kubescheduler.config.k8s.io/v1beta2": "1.28",
    "kubescheduler.config.k8s.io/v1beta3": "1.29",
}

# The order in which the framework initialises extension points
# (getExtensionPoints); it decides which point a multiPoint error names.
_FRAMEWORK_ORDER = (
    "preFilter",
    "filter",
    "postFilter",
    "reserve",
    "preScore",
    "score",
    "preBind",
    "bind",
    "postBind",
    "permit",
    "preEnqueue",
    "queueSort",
)


class ConfigError(Exception):
    """A KubeSchedulerConfiguration kube-scheduler would refuse; one line per problem."""

    def __init__(self, problems: list[IngestError]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


# Configuration documents carry no name, so messages name the kind alone.
_CONFIG_REF = ObjectRef(KIND, None, "")


def default_config() -> SchedulerConfig:
    """kube-scheduler with no --config: one "default-scheduler" profile, upstream defaults."""
    return load_scheduler_config({"apiVersion": API_VERSION, "kind": KIND}, Source("<defaults>"))


def load_scheduler_config_file(path: str | Path) -> SchedulerConfig:
    """Read a `--config` file (one YAML or JSON document) with line numbers for errors."""
    name = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ConfigError(
            [IngestError(name, None, None, "", f"cannot read: {exc.strerror}")]
        ) from exc
    return load_scheduler_config_text(text, name)


def load_scheduler_config_text(text: str, name: str) -> SchedulerConfig:
    """One KubeSchedulerConfiguration document given as text (`name` labels errors)."""
    try:
        nodes = list(yaml.compose_all(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise ConfigError([IngestError(name, line, None, "", f"not valid YAML: {exc}")]) from exc
    nodes = [n for n in nodes if n is not None]
    if len(nodes) != 1:
        message = f"expected one {KIND} document, found {len(nodes)}"
        raise ConfigError([IngestError(name, None, None, "", message)])
    doc = yaml.safe_load(yaml.serialize(nodes[0]))
    return load_scheduler_config(doc, Source(name, nodes[0].start_mark.line + 1), LineMap(nodes[0]))


def load_scheduler_config(
    doc: dict[str, Any], source: Source, lines: LineMap | None = None
) -> SchedulerConfig:
    """Defaulted, validated and expanded configuration; raises ConfigError listing every problem."""
    problems: list[IngestError] = []
    ctx = Ctx(source.file, _CONFIG_REF, lines, problems)
    raw = as_map(doc, ctx, "")
    config = SchedulerConfig(profiles=[], source=source)
    if _check_type(raw, ctx):
        check_known_fields(raw, _TOP_LEVEL_FIELDS, ctx, "")
        _read_settings(raw, config, ctx)
        config.profiles = _read_profiles(raw.get("profiles"), config, ctx)
    if problems:
        for problem in problems:
            if problem.line is None:
                problem.line = source.line
        raise ConfigError(problems)
    return config


def _check_type(raw: dict[str, Any], ctx: Ctx) -> bool:
    """Only v1 exists since Kubernetes 1.29; older versions are refused, not guessed at."""
    api_version = raw.get("apiVersion")
    if api_version != API_VERSION:
        message = unsupported(api_version, [API_VERSION])
        if api_version in _REMOVED_VERSIONS:
            message += (
                f" ({api_version.rsplit('/', 1)[1]} was removed in Kubernetes"
                f" {_REMOVED_VERSIONS[api_version]}; v1 takes the same fields)"
            )
        ctx.error("apiVersion", message)
        return False
    if raw.get("kind") != KIND:
        ctx.error("kind", unsupported(raw.get("kind"), [KIND]))
        return False
    return True


# --- global settings -----------------------------------------------------------------


def _read_settings(raw: dict[str, Any], config: SchedulerConfig, ctx: Ctx) -> None:
    parallelism = as_int(raw.get("parallelism"), ctx, "parallelism", DEFAULT_PARALLELISM)
    config.parallelism = DEFAULT_PARALLELISM if parallelism is None else parallelism
    if config.parallelism <= 0:
        ctx.error(
            "parallelism",
            invalid(config.parallelism, "should be an integer value greater than zero"),
        )
    config.percentage_of_nodes_to_score = _read_percentage(
        raw, ctx, "percentageOfNodesToScore", DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE
    )
    initial = as_int(raw.get("podInitialBackoffSeconds"), ctx, "podInitialBackoffSeconds")
    maximum = as_int(raw.get("podMaxBackoffSeconds"), ctx, "podMaxBackoffSeconds")
    config.pod_initial_backoff_seconds = (
        DEFAULT_POD_INITIAL_BACKOFF_SECONDS if initial is None else initial
    )
    config.pod_max_backoff_seconds = DEFAULT_POD_MAX_BACKOFF_SECONDS if maximum is None else maximum
    if config.pod_initial_backoff_seconds <= 0:
        ctx.error(
            "podInitialBackoffSeconds",
            invalid(config.pod_initial_backoff_seconds, "must be greater than 0"),
        )
    if config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds:
        ctx.error(
            "podMaxBackoffSeconds",
            invalid(
                config.pod_max_backoff_seconds,
                "must be greater than or equal to PodInitialBackoffSeconds",
            ),
        )
    _check_leader_election(raw.get("leaderElection"), ctx)
    as_map(raw.get("clientConnection"), ctx, "clientConnection")
    for name in ("enableProfiling", "enableContentionProfiling", "delayCacheUntilActive"):
        as_bool(raw.get(name), ctx, name)
    config.other_settings = {name: raw[name] for name in _OTHER_SETTINGS if name in raw}
    config.extenders = _read_extenders(raw.get("extenders"), config, ctx)


def _read_percentage(raw: dict[str, Any], ctx: Ctx, path: str, default: int | None) -> int | None:
    """validatePercentageOfNodesToScore."""
    value = as_int(raw.get("percentageOfNodesToScore"), ctx, path, default)
    if value is not None and not 0 <= value <= 100:
        ctx.error(path, invalid(value, "not in valid range [0-100]"))
    return value


def _check_leader_election(data: Any, ctx: Ctx) -> None:
    raw = as_map(data, ctx, "leaderElection")
    leader_elect = as_bool(raw.get("leaderElect"), ctx, "leaderElection.leaderElect", True)
    lock = as_str(raw.get("resourceLock"), ctx, "leaderElection.resourceLock", "leases") or "leases"
    if leader_elect and lock != "leases":
        ctx.error(
            "leaderElection.resourceLock", invalid(lock, 'resourceLock value must be "leases"')
        )


def _read_extenders(data: Any, config: SchedulerConfig, ctx: Ctx) -> list[dict[str, Any]]:
    """validateExtenders' checks; extenders themselves are HTTP services we cannot call."""
    extenders: list[dict[str, Any]] = []
    binders = 0
    for i, item in enumerate(as_list(data, ctx, "extenders")):
        path = index("extenders", i)
        raw = as_map(item, ctx, path)
        weight = as_int(raw.get("weight"), ctx, child(path, "weight"), 0) or 0
        if as_str(raw.get("prioritizeVerb"), ctx, child(path, "prioritizeVerb")) and weight <= 0:
            ctx.error(
                child(path, "weight"), invalid(weight, "must have a positive weight applied to it")
            )
        if as_str(raw.get("bindVerb"), ctx, child(path, "bindVerb")):
            binders += 1
        extenders.append(raw)
    if binders > 1:
        ctx.error(
            "extenders",
            invalid(
                f"found {binders} extenders implementing bind",
                "only one extender can implement bind",
            ),
        )
    if extenders:
        _note(
            config,
            ctx,
            "extenders",
            f"{len(extenders)} extender(s) are not simulated: placements are what the "
            "scheduler decides before calling them, as if they accepted every node and scored none",
        )
    return extenders


def _note(config: SchedulerConfig, ctx: Ctx, path: str, message: str) -> None:
    config.notes.append(str(IngestError(ctx.file, ctx.line(path), ctx.obj, path, message)))


# --- profiles ------------------------------------------------------------------------


@dataclass(slots=True)
class _Entry:
    """One plugin in an enabled list; `path` is where the user wrote it (None: a default)."""

    name: str
    weight: int = 0
    path: str | None = None


@dataclass(slots=True)
class _PluginSet:
    enabled: list[_Entry] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)

    def as_given(self) -> dict[str, Any]:
        return {
            "enabled": [{"name": e.name, "weight": e.weight} for e in self.enabled],
            "disabled": [{"name": name} for name in self.disabled],
        }


@dataclass(slots=True)
class _ProfileInput:
    path: str
    profile: Profile
    plugin_sets: dict[str, _PluginSet]  # after merging with the defaults
    queue_sort_given: _PluginSet
    raw_args: dict[str, Any]  # pluginConfig args as given, by plugin name


def _read_profiles(data: Any, config: SchedulerConfig, ctx: Ctx) -> list[Profile]:
    items = as_list(data, ctx, "profiles") or [{}]
    inputs = [
        _read_profile(item, index("profiles", i), len(items) == 1, config, ctx)
        for i, item in enumerate(items)
    ]
    seen: dict[str, int] = {}
    for i, given in enumerate(inputs):
        name = given.profile.scheduler_name
        if name in seen:
            ctx.error(
                child(given.path, "schedulerName"),
                duplicate(name) + f" (already used by profiles[{seen[name]}])",
            )
        seen.setdefault(name, i)
    flagged_queue_sort = _check_common_queue_sort(inputs, ctx)
    for i, given in enumerate(inputs):
        given.profile.plugins = _build_plugin_lists(given, i in flagged_queue_sort, ctx)
    return [given.profile for given in inputs]


def _read_profile(
    data: Any, path: str, only: bool, config: SchedulerConfig, ctx: Ctx
) -> _ProfileInput:
    raw = as_map(data, ctx, path)
    check_known_fields(raw, _PROFILE_FIELDS, ctx, path)
    name_path = child(path, "schedulerName")
    if raw.get("schedulerName") is None and only:
        name = DEFAULT_SCHEDULER_NAME  # only a lone profile gets the default name
    else:
        name = as_str(raw.get("schedulerName"), ctx, name_path)
        if not name:
            ctx.error(name_path, required())
    percentage = _read_percentage(raw, ctx, child(path, "percentageOfNodesToScore"), None)
    profile = Profile(scheduler_name=name, percentage_of_nodes_to_score=percentage)

    plugins_path = child(path, "plugins")
    plugins_raw = as_map(raw.get("plugins"), ctx, plugins_path)
    check_known_fields(plugins_raw, (MULTI_POINT, *EXTENSION_POINTS), ctx, plugins_path)
    custom = {
        point: _read_plugin_set(plugins_raw.get(point), child(plugins_path, point), ctx)
        for point in (MULTI_POINT, *EXTENSION_POINTS)
    }
    for point in EXTENSION_POINTS:
        _check_removed_plugins(custom[point], ctx)
    defaults = _PluginSet(enabled=[_Entry(ref.name, ref.weight) for ref in DEFAULT_MULTI_POINT])
    merged = {point: _merge_plugin_set(_PluginSet(), custom[point]) for point in EXTENSION_POINTS}
    merged[MULTI_POINT] = _merge_plugin_set(defaults, custom[MULTI_POINT])
    for point, plugin_set in custom.items():
        for name in plugin_set.disabled:
            if name != "*" and name not in REGISTRY:
                _note(
                    config,
                    ctx,
                    child(child(plugins_path, point), "disabled"),
                    f'disables "{name}", which is not a plugin kube-scheduler knows',
                )

    raw_args = _read_plugin_config(
        raw.get("pluginConfig"), child(path, "pluginConfig"), profile, config, ctx
    )
    return _ProfileInput(path, profile, merged, custom["queueSort"], raw_args)


def _read_plugin_set(data: Any, path: str, ctx: Ctx) -> _PluginSet:
    raw = as_map(data, ctx, path)
    check_known_fields(raw, ("enabled", "disabled"), ctx, path)
    plugin_set = _PluginSet()
    enabled_path = child(path, "enabled")
    for i, item in enumerate(as_list(raw.get("enabled"), ctx, enabled_path)):
        item_path = index(enabled_path, i)
        entry = as_map(item, ctx, item_path)
        check_known_fields(entry, _PLUGIN_FIELDS, ctx, item_path)
        name = as_str(entry.get("name"), ctx, child(item_path, "name"))
        weight = as_int(entry.get("weight"), ctx, child(item_path, "weight"), 0) or 0
        plugin_set.enabled.append(_Entry(name, weight, item_path))
    disabled_path = child(path, "disabled")
    for i, item in enumerate(as_list(raw.get("disabled"), ctx, disabled_path)):
        item_path = index(disabled_path, i)
        entry = as_map(item, ctx, item_path)
        check_known_fields(entry, _PLUGIN_FIELDS, ctx, item_path)
        plugin_set.disabled.append(as_str(entry.get("name"), ctx, child(item_path, "name")))
    return plugin_set


def _check_removed_plugins(plugin_set: _PluginSet, ctx: Ctx) -> None:
    """validatePluginSetForInvalidPlugins (per-point enables only, as upstream)."""
    for entry in plugin_set.enabled:
        if entry.name in REMOVED_PLUGINS and entry.path is not None:
            ctx.error(entry.path, _removed(entry.name))


def _removed(name: str) -> str:
    return invalid(
        name,
        f'was invalid in version "{API_VERSION}" (KubeSchedulerConfiguration is version "{API_VERSION}")',
    )


def _merge_plugin_set(default: _PluginSet, custom: _PluginSet) -> _PluginSet:
    """mergePluginSet: disabled defaults drop out ("*" drops all); a default the user
    enables again keeps its place with the user's weight; other user plugins follow."""
    disabled = [*custom.disabled, *default.disabled]
    custom_index = {entry.name: i for i, entry in enumerate(custom.enabled)}  # the last one wins
    replaced: set[int] = set()
    enabled: list[_Entry] = []
    if "*" not in disabled:
        for entry in default.enabled:
            if entry.name in disabled:
                continue
            if entry.name in custom_index:
                replaced.add(custom_index[entry.name])
                entry = custom.enabled[custom_index[entry.name]]
            enabled.append(entry)
    enabled.extend(entry for i, entry in enumerate(custom.enabled) if i not in replaced)
    return _PluginSet(enabled, disabled)


def _read_plugin_config(
    data: Any, path: str, profile: Profile, config: SchedulerConfig, ctx: Ctx
) -> dict[str, Any]:
    """pluginConfig: typed args for plugins that take them, defaults for the rest."""
    raw_args: dict[str, Any] = {}
    for i, item in enumerate(as_list(data, ctx, path)):
        item_path = index(path, i)
        entry = as_map(item, ctx, item_path)
        check_known_fields(entry, ("name", "args"), ctx, item_path)
        name = as_str(entry.get("name"), ctx, child(item_path, "name"))
        if name in raw_args:
            ctx.error(item_path, duplicate(name))
            continue
        raw_args[name] = entry.get("args")
        if name in REMOVED_PLUGINS:
            ctx.error(item_path, _removed(name))
            continue
        typed = parse_plugin_args(name, entry.get("args"), ctx, child(item_path, "args"))
        if typed is None:
            if name not in REGISTRY:
                _note(
                    config,
                    ctx,
                    item_path,
                    f'args for "{name}", which is not a plugin kube-scheduler knows, are not used',
                )
            elif entry.get("args"):
                _note(config, ctx, item_path, f"{name} takes no args; these are not used")
        elif not isinstance(typed, NoArgs):
            profile.plugin_args[name] = typed
    for name, spec in REGISTRY.items():
        if spec.args_type is not NoArgs and name not in profile.plugin_args:
            profile.plugin_args[name] = spec.args_type()
    return raw_args


def _check_common_queue_sort(inputs: list[_ProfileInput], ctx: Ctx) -> set[int]:
    """validateCommonQueueSort: every profile sorts one queue, so the queueSort
    plugin set and its args must be the same everywhere. Returns the profiles flagged."""
    flagged: set[int] = set()
    first = inputs[0]
    canon = first.queue_sort_given.as_given()
    queue_sort = first.queue_sort_given.enabled[0].name if first.queue_sort_given.enabled else ""
    if len(first.queue_sort_given.enabled) > 1:
        count = len(first.queue_sort_given.enabled)
        ctx.error(
            child(first.path, "plugins.queueSort.Enabled"),
            invalid(count, "only one queue sort plugin can be enabled"),
        )
        flagged.add(0)
    canon_args = first.raw_args.get(queue_sort)
    for i, given in enumerate(inputs[1:], start=1):
        current = given.queue_sort_given.as_given()
        if current != canon:
            ctx.error(
                child(given.path, "plugins.queueSort"),
                invalid(current, "must be the same for all profiles"),
            )
            flagged.add(i)
        if queue_sort and queue_sort in given.raw_args and given.raw_args[queue_sort] != canon_args:
            ctx.error(
                child(given.path, "pluginConfig.args"),
                invalid(given.raw_args[queue_sort], "queueSort must be the same for all profiles"),
            )
    return flagged


# --- the framework's view: plugins per extension point ---------------------------------


def _known(name: str) -> bool:
    return name in REGISTRY and name in PLUGIN_EXTENSION_POINTS


def _unknown_plugin(name: str) -> str:
    message = f"{go_value(name)} is not a plugin kube-scheduler knows"
    close = difflib.get_close_matches(name, sorted(REGISTRY), n=1, cutoff=0.6)
    return message + (f" (did you mean {go_value(close[0])}?)" if close else "")


def _build_plugin_lists(
    given: _ProfileInput, queue_sort_flagged: bool, ctx: Ctx
) -> dict[str, list[PluginRef]]:
    """NewFramework: updatePluginList per point, expandMultiPointPlugins, getScoreWeights."""
    sets = given.plugin_sets
    multi = sets[MULTI_POINT]
    for entry in multi.enabled:
        if not _known(entry.name) and entry.path is not None:
            ctx.error(child(entry.path, "name"), _unknown_plugin(entry.name))
    reported: set[int] = set()  # multiPoint entries already reported as duplicates
    names: dict[str, list[str]] = {}
    for point in _FRAMEWORK_ORDER:
        explicit = _explicit_plugins(point, sets[point], ctx)
        names[point] = _expand_multi_point(point, explicit, sets[point], multi, reported, ctx)

    weights = _score_weights([*sets["score"].enabled, *multi.enabled])
    plugins = {
        point: [PluginRef(n, weights[n] if point == "score" else 0) for n in names[point]]
        for point in EXTENSION_POINTS
    }
    name = given.profile.scheduler_name
    if len(plugins["queueSort"]) != 1 and not queue_sort_flagged:
        ctx.error(
            child(given.path, "plugins.queueSort"),
            f"only one queue sort plugin required for profile with scheduler name {go_value(name)}, "
            f"but got {len(plugins['queueSort'])}",
        )
    if not plugins["bind"]:
        ctx.error(
            child(given.path, "plugins.bind"),
            f"at least one bind plugin is needed for profile with scheduler name {go_value(name)}",
        )
    return plugins


def _explicit_plugins(point: str, plugin_set: _PluginSet, ctx: Ctx) -> list[str]:
    """updatePluginList: the plugins enabled at this very point, each checked."""
    names: list[str] = []
    for entry in plugin_set.enabled:
        path = entry.path or ""
        if entry.name in REMOVED_PLUGINS:
            continue  # reported by validation
        if not _known(entry.name):
            ctx.error(child(path, "name"), _unknown_plugin(entry.name))
        elif point not in PLUGIN_EXTENSION_POINTS[entry.name]:
            ctx.error(
                child(path, "name"),
                f"plugin {go_value(entry.name)} does not extend {PLUGIN_INTERFACE[point]} plugin",
            )
        elif entry.name in names:
            ctx.error(
                child(path, "name"),
                f"plugin {go_value(entry.name)} already registered as {go_value(PLUGIN_INTERFACE[point])}",
            )
        else:
            names.append(entry.name)
    return names


def _expand_multi_point(
    point: str,
    explicit: list[str],
    plugin_set: _PluginSet,
    multi: _PluginSet,
    reported: set[int],
    ctx: Ctx,
) -> list[str]:
    """expandMultiPointPlugins for one point.

    A multiPoint plugin the user also enabled at this point is an override:
    overrides run first, in the point's own order, then the remaining
    multiPoint plugins, then the point's other plugins. Disabling "*" at a
    point leaves only what the point enables itself.
    """
    if "*" in plugin_set.disabled:
        return explicit
    overrides: set[str] = set()
    expanded: list[str] = []
    for i, entry in enumerate(multi.enabled):
        if not _known(entry.name) or point not in PLUGIN_EXTENSION_POINTS[entry.name]:
            continue
        if entry.name in plugin_set.disabled:
            continue
        if entry.name in explicit:
            overrides.add(entry.name)
        elif entry.name in expanded:
            if i not in reported:
                reported.add(i)
                ctx.error(
                    child(entry.path or "plugins.multiPoint", "name"),
                    f"plugin {go_value(entry.name)} already registered as {go_value(PLUGIN_INTERFACE[point])}",
                )
        else:
            expanded.append(entry.name)
    first = [n for n in explicit if n in overrides]
    rest = [n for n in explicit if n not in overrides]
    return [*first, *expanded, *rest]


def _score_weights(entries: Iterable[_Entry]) -> dict[str, int]:
    """getScoreWeights: a point's own score weight beats multiPoint's; unset (0) is 1."""
    weights: dict[str, int] = {}
    for entry in entries:
        if not _known(entry.name) or "score" not in PLUGIN_EXTENSION_POINTS[entry.name]:
            continue
        weights.setdefault(entry.name, entry.weight or 1)
    return weights
