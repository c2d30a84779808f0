"""KubeSchedulerConfiguration loading, following kube-scheduler v1.35.

Expected plugin lists follow pkg/scheduler/apis/config/v1/default_plugins.go
(getDefaultPlugins, mergePlugins and default_plugins_test.go's
TestMergePlugins), pkg/scheduler/framework/runtime/framework.go
(expandMultiPointPlugins, getScoreWeights; rows of framework_test.go's
TestNewFrameworkMultiPointExpansion redone with real plugins), and the
messages of pkg/scheduler/apis/config/validation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.config import ConfigError, default_config, load_scheduler_config
from engine.config.args import (
    DefaultPreemptionArgs,
    InterPodAffinityArgs,
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    PodTopologySpreadArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from engine.config.defaults import PLUGIN_EXTENSION_POINTS, SYSTEM_DEFAULT_SPREAD_CONSTRAINTS
from engine.config.loader import load_scheduler_config_file
from engine.config.types import Profile, SchedulerConfig
from engine.ingest.fields import LineMap
from engine.model.objects import NodeSelectorRequirement, Source
from engine.plugins.registry import REGISTRY

# The seed article's examples live beside the repository (../shared), like the openb traces.
SEED = Path(__file__).resolve().parents[3] / "shared" / "examples" / "seed-article"
V1 = "kubescheduler.config.k8s.io/v1"
KSC = "KubeSchedulerConfiguration: "

# --- tiny builders ---------------------------------------------------------------------


def ksc(**fields: Any) -> dict[str, Any]:
    return {"apiVersion": V1, "kind": "KubeSchedulerConfiguration", **fields}


def one_profile(**fields: Any) -> dict[str, Any]:
    return ksc(profiles=[{"schedulerName": "gpu", **fields}])


def plugin_set(*enabled: str | tuple[str, int], disabled: tuple[str, ...] = ()) -> dict[str, Any]:
    entries = [
        {"name": e} if isinstance(e, str) else {"name": e[0], "weight": e[1]} for e in enabled
    ]
    return {"enabled": entries, "disabled": [{"name": d} for d in disabled]}


def fit_config(**args: Any) -> dict[str, Any]:
    return one_profile(pluginConfig=[{"name": "NodeResourcesFit", "args": args}])


def load(doc: dict[str, Any]) -> SchedulerConfig:
    return load_scheduler_config(doc, Source("ksc.yaml"))


def only(doc: dict[str, Any]) -> Profile:
    profiles = load(doc).profiles
    assert len(profiles) == 1
    return profiles[0]


def names(profile: Profile, point: str) -> list[str]:
    return [ref.name for ref in profile.enabled(point)]


def weights(profile: Profile) -> list[tuple[str, int]]:
    return [(ref.name, ref.weight) for ref in profile.enabled("score")]


def problems(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        load(doc)
    return [str(p) for p in raised.value.problems]


# --- the default profile -----------------------------------------------------------------

DEFAULT_FILTER = [
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodeAffinity",
    "NodePorts",
    "NodeResourcesFit",
    "VolumeRestrictions",
    "NodeVolumeLimits",
    "VolumeBinding",
    "VolumeZone",
    "PodTopologySpread",
    "InterPodAffinity",
    "DynamicResources",
]
DEFAULT_SCORE = [
    ("TaintToleration", 3),
    ("NodeAffinity", 2),
    ("NodeResourcesFit", 1),
    ("VolumeBinding", 1),
    ("PodTopologySpread", 2),
    ("InterPodAffinity", 2),
    ("DynamicResources", 2),
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
]
DEFAULT_PLUGINS = {
    "preEnqueue": ["SchedulingGates", "DynamicResources", "DefaultPreemption"],
    "queueSort": ["PrioritySort"],
    "preFilter": [
        "NodeAffinity",
        "NodePorts",
        "NodeResourcesFit",
        "VolumeRestrictions",
        "NodeVolumeLimits",
        "VolumeBinding",
        "VolumeZone",
        "PodTopologySpread",
        "InterPodAffinity",
        "DynamicResources",
    ],
    "filter": DEFAULT_FILTER,
    "postFilter": ["DynamicResources", "DefaultPreemption"],
    "preScore": [
        "TaintToleration",
        "NodeAffinity",
        "NodeResourcesFit",
        "VolumeBinding",
        "PodTopologySpread",
        "InterPodAffinity",
        "NodeResourcesBalancedAllocation",
    ],
    "score": [name for name, _ in DEFAULT_SCORE],
    "reserve": ["VolumeBinding", "DynamicResources"],
    "permit": [],
    "preBind": ["VolumeBinding", "DynamicResources"],
    "bind": ["DefaultBinder"],
    "postBind": [],
}


@pytest.mark.parametrize("point", list(DEFAULT_PLUGINS), ids=list(DEFAULT_PLUGINS))
def test_default_profile_runs_upstream_plugins_at_each_point(point: str) -> None:
    (profile,) = default_config().profiles
    assert profile.scheduler_name == "default-scheduler"
    assert names(profile, point) == DEFAULT_PLUGINS[point]


def test_default_profile_score_weights_and_settings() -> None:
    config = default_config()
    assert weights(config.profiles[0]) == DEFAULT_SCORE
    assert config.percentage_of_nodes_to_score == 0  # adaptive
    assert config.profiles[0].percentage_of_nodes_to_score is None  # falls back to global
    assert (config.pod_initial_backoff_seconds, config.pod_max_backoff_seconds) == (1, 10)
    assert config.parallelism == 16
    assert config.notes == []


def test_default_args_are_upstream_defaults() -> None:
    args = default_config().profiles[0].plugin_args
    assert args["NodeResourcesFit"] == NodeResourcesFitArgs(
        scoring_strategy=ScoringStrategy(
            "LeastAllocated", (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
        )
    )
    assert args["NodeResourcesBalancedAllocation"].resources == (
        ResourceSpec("cpu", 1),
        ResourceSpec("memory", 1),
    )
    assert args["InterPodAffinity"] == InterPodAffinityArgs(1, False)
    assert args["PodTopologySpread"] == PodTopologySpreadArgs((), "System")
    assert args["DefaultPreemption"] == DefaultPreemptionArgs(10, 100)
    assert args["NodeAffinity"].added_affinity is None
    # Parsing empty args gives the same objects as the registry's defaults.
    empty = {name: {} for name in args}
    parsed = only(one_profile(pluginConfig=[{"name": n, "args": a} for n, a in empty.items()]))
    assert parsed.plugin_args == args


def test_every_registered_plugin_has_extension_points() -> None:
    assert set(REGISTRY) == set(PLUGIN_EXTENSION_POINTS)


def test_system_default_spread_constraints() -> None:
    # podtopologyspread/plugin.go systemDefaultConstraints
    assert [
        (c.topology_key, c.max_skew, c.when_unsatisfiable)
        for c in SYSTEM_DEFAULT_SPREAD_CONSTRAINTS
    ] == [
        ("kubernetes.io/hostname", 3, "ScheduleAnyway"),
        ("topology.kubernetes.io/zone", 5, "ScheduleAnyway"),
    ]


# --- the seed-article configurations -----------------------------------------------------

TAIL = [
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodePorts",
    "VolumeRestrictions",
    "NodeVolumeLimits",
    "VolumeBinding",
    "VolumeZone",
]
SEED_CASES = [
    pytest.param(
        "19-ksc-gpu-fragmentation-mostallocated.yaml",
        "gpu-optimized-scheduler",
        # Explicit score enables are overrides: they run first with their own
        # weights, the other default score plugins follow with theirs.
        [
            ("NodeResourcesBalancedAllocation", 2),
            ("NodeResourcesFit", 4),
            ("TaintToleration", 3),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ],
        DEFAULT_FILTER,
        ("MostAllocated", [("nvidia.com/gpu", 10), ("cpu", 3), ("memory", 1)]),
        id="19-mostallocated",
    ),
    pytest.param(
        "20-ksc-gpu-balanced-leastallocated.yaml",
        "gpu-balanced-scheduler",
        [
            ("NodeResourcesBalancedAllocation", 5),
            ("NodeResourcesFit", 2),
            ("TaintToleration", 1),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ],
        DEFAULT_FILTER,
        ("LeastAllocated", [("nvidia.com/gpu", 8), ("cpu", 2), ("memory", 1)]),
        id="20-leastallocated",
    ),
    pytest.param(
        "21-ksc-large-model.yaml",
        "large-model-scheduler",
        [
            ("NodeResourcesBalancedAllocation", 1),
            ("NodeResourcesFit", 10),
            ("TaintToleration", 3),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ],
        # The three explicit filters move to the front; the rest keep default order.
        [
            "NodeResourcesFit",
            "NodeName",
            "NodeUnschedulable",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
        ],
        ("MostAllocated", [("nvidia.com/gpu", 10), ("memory", 5), ("cpu", 3)]),
        id="21-large-model",
    ),
    pytest.param(
        "22-ksc-nvlink-aware.yaml",
        "nvlink-aware-scheduler",
        [
            ("NodeResourcesFit", 8),
            ("NodeAffinity", 5),
            ("PodTopologySpread", 3),
            ("InterPodAffinity", 2),
            ("TaintToleration", 3),
            ("VolumeBinding", 1),
            ("DynamicResources", 2),
            ("NodeResourcesBalancedAllocation", 1),
            ("ImageLocality", 1),
        ],
        [
            "NodeResourcesFit",
            "NodeAffinity",
            "PodTopologySpread",
            *TAIL,
            "InterPodAffinity",
            "DynamicResources",
        ],
        (
            "MostAllocated",
            [("nvidia.com/gpu", 15), ("hugepages-2Mi", 8), ("memory", 5), ("cpu", 3)],
        ),
        id="22-nvlink",
    ),
    pytest.param(
        "23-ksc-multi-profile.yaml",
        "inference-scheduler",
        [
            ("NodeResourcesFit", 3),
            ("NodeResourcesBalancedAllocation", 5),
            ("ImageLocality", 2),
            ("TaintToleration", 3),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
        ],
        DEFAULT_FILTER,
        ("LeastAllocated", [("nvidia.com/gpu", 8), ("cpu", 3), ("memory", 2)]),
        id="23-multi-profile",
    ),
    pytest.param(
        "24-ksc-mig-aware.yaml",
        "mig-aware-scheduler",
        [
            ("NodeResourcesFit", 10),
            ("NodeResourcesBalancedAllocation", 3),
            ("NodeAffinity", 2),
            ("TaintToleration", 3),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ],
        [
            "NodeResourcesFit",
            "NodeAffinity",
            *TAIL,
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
        ],
        (
            "MostAllocated",
            [
                ("nvidia.com/mig-1g.5gb", 8),
                ("nvidia.com/mig-2g.10gb", 10),
                ("nvidia.com/mig-3g.20gb", 12),
                ("nvidia.com/mig-7g.40gb", 15),
                ("memory", 4),
                ("cpu", 2),
            ],
        ),
        id="24-mig",
    ),
]


@pytest.mark.parametrize(("file", "scheduler", "score", "filters", "fit"), SEED_CASES)
def test_seed_article_configs(
    file: str,
    scheduler: str,
    score: list[tuple[str, int]],
    filters: list[str],
    fit: tuple[str, list[tuple[str, int]]],
) -> None:
    config = load_scheduler_config_file(SEED / file)
    (profile,) = config.profiles
    assert profile.scheduler_name == scheduler
    assert weights(profile) == score
    assert names(profile, "filter") == filters
    strategy = profile.plugin_args["NodeResourcesFit"].scoring_strategy
    assert (strategy.type, [(r.name, r.weight) for r in strategy.resources]) == fit
    assert names(profile, "queueSort") == ["PrioritySort"]
    assert names(profile, "bind") == ["DefaultBinder"]


def test_seed_21_explicit_prefilter_and_prescore_go_first() -> None:
    profile = load_scheduler_config_file(SEED / "21-ksc-large-model.yaml").profiles[0]
    assert names(profile, "preFilter")[:3] == ["NodeResourcesFit", "NodePorts", "NodeAffinity"]
    assert names(profile, "preScore") == [
        "InterPodAffinity",
        "NodeAffinity",
        "NodeResourcesFit",
        "TaintToleration",
        "VolumeBinding",
        "PodTopologySpread",
        "NodeResourcesBalancedAllocation",
    ]


def test_seed_22_added_affinity() -> None:
    profile = load_scheduler_config_file(SEED / "22-ksc-nvlink-aware.yaml").profiles[0]
    added = profile.plugin_args["NodeAffinity"].added_affinity
    assert added is not None and added.required is not None
    assert added.required[0].match_expressions == (
        NodeSelectorRequirement("nvidia.com/gpu.nvlink", "Exists"),
        NodeSelectorRequirement("node.kubernetes.io/instance-type", "In", ("gpu-h100-8x",)),
    )


# --- multiPoint expansion (framework_test.go TestNewFrameworkMultiPointExpansion,
# default_plugins_test.go TestMergePlugins), with real plugins ---------------------------

ONLY = ("*",)  # multiPoint.disabled "*": start from no default plugin
MULTI_POINT_CASES = [
    pytest.param(
        {
            "multiPoint": plugin_set(
                "PrioritySort", "DefaultBinder", "TaintToleration", "ImageLocality", disabled=ONLY
            )
        },
        {
            "queueSort": ["PrioritySort"],
            "filter": ["TaintToleration"],
            "preScore": ["TaintToleration"],
            "score": [("TaintToleration", 1), ("ImageLocality", 1)],
            "bind": ["DefaultBinder"],
        },
        id="multiple multiPoint plugins",
    ),
    pytest.param(
        {
            "multiPoint": plugin_set(
                "PrioritySort", "DefaultBinder", "TaintToleration", disabled=ONLY
            ),
            "preScore": plugin_set(disabled=("*",)),
        },
        {"preScore": [], "score": [("TaintToleration", 1)], "filter": ["TaintToleration"]},
        id="disable multiPoint expansion at one point",
    ),
    pytest.param(
        {
            "multiPoint": plugin_set(
                "PrioritySort",
                "DefaultBinder",
                "NodeAffinity",
                "TaintToleration",
                "ImageLocality",
                disabled=ONLY,
            ),
            "score": plugin_set("ImageLocality", "TaintToleration"),
        },
        {"score": [("ImageLocality", 1), ("TaintToleration", 1), ("NodeAffinity", 1)]},
        id="specified extension takes precedence",
    ),
    pytest.param(
        {
            "multiPoint": plugin_set(
                "PrioritySort", "DefaultBinder", "TaintToleration", "ImageLocality", disabled=ONLY
            ),
            "score": plugin_set("NodeAffinity", "ImageLocality", "TaintToleration"),
        },
        {"score": [("ImageLocality", 1), ("TaintToleration", 1), ("NodeAffinity", 1)]},
        id="specified extension only takes precedence when in multiPoint",
    ),
    pytest.param(
        {
            "multiPoint": plugin_set(
                "PrioritySort", "DefaultBinder", "TaintToleration", "ImageLocality", disabled=ONLY
            ),
            "score": plugin_set(("ImageLocality", 5), ("NodeAffinity", 5), ("TaintToleration", 3)),
        },
        {"score": [("ImageLocality", 5), ("TaintToleration", 3), ("NodeAffinity", 5)]},
        id="override multiPoint weights without loading twice",
    ),
    pytest.param(
        {"multiPoint": plugin_set(("NodeAffinity", 5))},
        {
            "score": [
                ("NodeAffinity", 5) if n == "NodeAffinity" else (n, w) for n, w in DEFAULT_SCORE
            ]
        },
        id="override a default's weight in place",
    ),
    pytest.param(
        {"multiPoint": plugin_set(("ImageLocality", 4), disabled=("ImageLocality",))},
        {"score": [*DEFAULT_SCORE[:-1], ("ImageLocality", 4)]},
        id="disabled then enabled again moves to the end",
    ),
    pytest.param(
        {"multiPoint": plugin_set(disabled=("NodeResourcesBalancedAllocation",))},
        {
            "score": DEFAULT_SCORE[:-2] + DEFAULT_SCORE[-1:],
            "preScore": DEFAULT_PLUGINS["preScore"][:-1],
        },
        id="disable a default everywhere",
    ),
    pytest.param(
        {"score": plugin_set(disabled=("TaintToleration",))},
        {
            "score": DEFAULT_SCORE[1:],
            "filter": DEFAULT_FILTER,
            "preScore": DEFAULT_PLUGINS["preScore"],
        },
        id="disable a default at one point only",
    ),
    pytest.param(
        {"score": plugin_set(("ImageLocality", 0), disabled=("*",))},
        {"score": [("ImageLocality", 1)], "filter": DEFAULT_FILTER},
        id="only the point's own plugins after '*', weight 0 is 1",
    ),
    pytest.param(
        {"score": plugin_set(("TaintToleration", 4), disabled=("TaintToleration",))},
        {"score": [*DEFAULT_SCORE[1:], ("TaintToleration", 4)]},
        id="enabled wins over disabled at a point, and runs last",
    ),
    pytest.param(
        {"filter": plugin_set("NodeName", "NodeUnschedulable")},
        {"filter": ["NodeName", "NodeUnschedulable", *DEFAULT_FILTER[2:]]},
        id="reorder default filters",
    ),
]


@pytest.mark.parametrize(("plugins", "want"), MULTI_POINT_CASES)
def test_multi_point_expansion(plugins: dict[str, Any], want: dict[str, list[Any]]) -> None:
    profile = only(one_profile(plugins=plugins))
    for point, expected in want.items():
        got = weights(profile) if point == "score" else names(profile, point)
        assert got == expected, point


# --- percentageOfNodesToScore and other settings -------------------------------------------


@pytest.mark.parametrize(
    ("doc", "global_pct", "profile_pct"),
    [
        pytest.param(ksc(), 0, None, id="unset: adaptive"),
        pytest.param(ksc(percentageOfNodesToScore=30), 30, None, id="global"),
        pytest.param(
            ksc(percentageOfNodesToScore=30, profiles=[{"percentageOfNodesToScore": 70}]),
            30,
            70,
            id="profile overrides global",
        ),
        pytest.param(ksc(profiles=[{"percentageOfNodesToScore": 0}]), 0, 0, id="profile 0"),
    ],
)
def test_percentage_of_nodes_to_score(
    doc: dict[str, Any], global_pct: int, profile_pct: int | None
) -> None:
    config = load(doc)
    assert config.percentage_of_nodes_to_score == global_pct
    assert config.profiles[0].percentage_of_nodes_to_score == profile_pct


def test_settings_without_effect_are_kept_and_extenders_noted() -> None:
    config = load(
        ksc(
            parallelism=32,
            podInitialBackoffSeconds=2,
            podMaxBackoffSeconds=60,
            leaderElection={"leaderElect": False},
            clientConnection={"qps": 100},
            extenders=[{"urlPrefix": "http://gpu-extender", "filterVerb": "filter"}],
        )
    )
    assert (
        config.parallelism,
        config.pod_initial_backoff_seconds,
        config.pod_max_backoff_seconds,
    ) == (32, 2, 60)
    assert config.other_settings == {
        "leaderElection": {"leaderElect": False},
        "clientConnection": {"qps": 100},
    }
    assert config.extenders == [{"urlPrefix": "http://gpu-extender", "filterVerb": "filter"}]
    assert len(config.notes) == 1 and "1 extender(s) are not simulated" in config.notes[0]


def test_two_profiles_with_the_same_queue_sort() -> None:
    config = load(
        ksc(
            profiles=[
                {"schedulerName": "a"},
                {"schedulerName": "b", "plugins": {"score": plugin_set(("ImageLocality", 9))}},
            ]
        )
    )
    assert [p.scheduler_name for p in config.profiles] == ["a", "b"]
    assert config.profile_for("b") is not None
    assert dict(weights(config.profiles[1]))["ImageLocality"] == 9
    assert dict(weights(config.profiles[0]))["ImageLocality"] == 1


# --- args ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "want"),
    [
        pytest.param({}, ScoringStrategy(), id="no strategy: LeastAllocated cpu+memory"),
        pytest.param(
            {"scoringStrategy": {"type": "MostAllocated"}},
            ScoringStrategy("MostAllocated"),
            id="no resources: cpu+memory",
        ),
        pytest.param(
            {
                "scoringStrategy": {
                    "type": "MostAllocated",
                    "resources": [{"name": "nvidia.com/gpu"}, {"name": "cpu", "weight": 0}],
                }
            },
            ScoringStrategy(
                "MostAllocated", (ResourceSpec("nvidia.com/gpu", 1), ResourceSpec("cpu", 1))
            ),
            id="weight unset or 0 is 1",
        ),
        pytest.param(
            {
                "scoringStrategy": {
                    "type": "RequestedToCapacityRatio",
                    "resources": [{"name": "nvidia.com/gpu", "weight": 3}],
                    "requestedToCapacityRatio": {
                        "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]
                    },
                }
            },
            ScoringStrategy(
                "RequestedToCapacityRatio",
                (ResourceSpec("nvidia.com/gpu", 3),),
                (UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)),
            ),
            id="requested to capacity ratio",
        ),
    ],
)
def test_fit_scoring_strategy(args: dict[str, Any], want: ScoringStrategy) -> None:
    profile = only(fit_config(**args))
    assert profile.plugin_args["NodeResourcesFit"].scoring_strategy == want


def test_fit_ignored_resources_and_other_args() -> None:
    profile = only(
        one_profile(
            pluginConfig=[
                {
                    "name": "NodeResourcesFit",
                    "args": {
                        "apiVersion": V1,
                        "kind": "NodeResourcesFitArgs",
                        "ignoredResources": ["example.com/foo"],
                        "ignoredResourceGroups": ["example.org"],
                    },
                },
                {
                    "name": "InterPodAffinity",
                    "args": {
                        "hardPodAffinityWeight": 0,
                        "ignorePreferredTermsOfExistingPods": True,
                    },
                },
                {"name": "DefaultPreemption", "args": {"minCandidateNodesAbsolute": 0}},
                {
                    "name": "NodeResourcesBalancedAllocation",
                    "args": {"resources": [{"name": "nvidia.com/gpu"}]},
                },
                {
                    "name": "PodTopologySpread",
                    "args": {
                        "defaultingType": "List",
                        "defaultConstraints": [
                            {
                                "maxSkew": 1,
                                "topologyKey": "topology.kubernetes.io/zone",
                                "whenUnsatisfiable": "DoNotSchedule",
                            }
                        ],
                    },
                },
            ]
        )
    )
    fit = profile.plugin_args["NodeResourcesFit"]
    assert (fit.ignored_resources, fit.ignored_resource_groups) == (
        ("example.com/foo",),
        ("example.org",),
    )
    assert profile.plugin_args["InterPodAffinity"] == InterPodAffinityArgs(0, True)
    assert profile.plugin_args["DefaultPreemption"] == DefaultPreemptionArgs(10, 0)
    assert profile.plugin_args[
        "NodeResourcesBalancedAllocation"
    ] == NodeResourcesBalancedAllocationArgs((ResourceSpec("nvidia.com/gpu", 1),))
    spread = profile.plugin_args["PodTopologySpread"]
    assert spread.defaulting_type == "List"
    assert [(c.topology_key, c.max_skew) for c in spread.default_constraints] == [
        ("topology.kubernetes.io/zone", 1)
    ]


# --- errors ------------------------------------------------------------------------------------

ARGS0 = "profiles[0].pluginConfig[0].args."
STRATEGY = ARGS0 + "scoringStrategy."
ERROR_CASES = [
    pytest.param(
        one_profile(plugins={"score": plugin_set("ImageLocality", "Foo")}),
        'profiles[0].plugins.score.enabled[1].name: "Foo" is not a plugin kube-scheduler knows',
        id="unknown plugin",
    ),
    pytest.param(
        one_profile(plugins={"multiPoint": plugin_set("NodeResourceFit")}),
        'profiles[0].plugins.multiPoint.enabled[0].name: "NodeResourceFit" is not a plugin'
        ' kube-scheduler knows (did you mean "NodeResourcesFit"?)',
        id="misspelt plugin",
    ),
    pytest.param(
        one_profile(plugins={"filter": plugin_set("ImageLocality")}),
        'profiles[0].plugins.filter.enabled[0].name: plugin "ImageLocality" does not extend FilterPlugin plugin',
        id="does not extend",
    ),
    pytest.param(
        one_profile(plugins={"filter": plugin_set("NodeName", "NodeName")}),
        'profiles[0].plugins.filter.enabled[1].name: plugin "NodeName" already registered as "FilterPlugin"',
        id="twice at one point",
    ),
    pytest.param(
        one_profile(plugins={"multiPoint": plugin_set("TaintToleration", "TaintToleration")}),
        'profiles[0].plugins.multiPoint.enabled[0].name: plugin "TaintToleration" already registered as "FilterPlugin"',
        id="twice in multiPoint",
    ),
    pytest.param(
        one_profile(plugins={"filter": plugin_set("EBSLimits")}),
        'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version'
        ' "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
        id="removed plugin",
    ),
    pytest.param(
        one_profile(plugins={"bind": plugin_set(disabled=("DefaultBinder",))}),
        'profiles[0].plugins.bind: at least one bind plugin is needed for profile with scheduler name "gpu"',
        id="no binder",
    ),
    pytest.param(
        one_profile(plugins={"queueSort": plugin_set(disabled=("*",))}),
        'profiles[0].plugins.queueSort: only one queue sort plugin required for profile with scheduler name "gpu", but got 0',
        id="no queue sort",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={
                "type": "MostAllocated",
                "resources": [{"name": "nvidia.com/gpu", "weight": 101}],
            }
        ),
        STRATEGY
        + "resources[0].weight: Invalid value: 101: resource weight of nvidia.com/gpu not in valid range (0, 100]",
        id="resource weight over 100",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={"type": "MostAllocated", "resources": [{"name": "cpu", "weight": -1}]}
        ),
        STRATEGY
        + "resources[0].weight: Invalid value: -1: resource weight of cpu not in valid range (0, 100]",
        id="negative resource weight",
    ),
    pytest.param(
        fit_config(scoringStrategy={"type": "MostAlocated"}),
        STRATEGY + 'type: Unsupported value: "MostAlocated": supported values: "LeastAllocated",'
        ' "MostAllocated", "RequestedToCapacityRatio"',
        id="unknown strategy",
    ),
    pytest.param(
        fit_config(scoringStrategy={"type": "RequestedToCapacityRatio"}),
        STRATEGY
        + "requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio",
        id="ratio without shape",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={
                "type": "RequestedToCapacityRatio",
                "requestedToCapacityRatio": {"shape": []},
            }
        ),
        STRATEGY
        + "requestedToCapacityRatio.shape: Required value: at least one point must be specified",
        id="empty shape",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={
                "type": "RequestedToCapacityRatio",
                "requestedToCapacityRatio": {
                    "shape": [{"utilization": 30, "score": 1}, {"utilization": 10, "score": 2}]
                },
            }
        ),
        STRATEGY
        + "requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted in increasing order",
        id="unsorted shape",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={
                "type": "RequestedToCapacityRatio",
                "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 11}]},
            }
        ),
        STRATEGY
        + "requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]",
        id="shape score over 10",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={
                "type": "RequestedToCapacityRatio",
                "requestedToCapacityRatio": {"shape": [{"utilization": 101, "score": 1}]},
            }
        ),
        STRATEGY
        + "requestedToCapacityRatio.shape[0].utilization: Invalid value: 101: not in valid range [0, 100]",
        id="utilization over 100",
    ),
    pytest.param(
        fit_config(
            scoringStrategy={"type": "MostAllocated", "requestedToCapacityRatio": {"shape": []}}
        ),
        STRATEGY
        + "requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio",
        id="shape for another strategy",
    ),
    pytest.param(
        fit_config(ignoredResourceGroups=["example.com/aaa"]),
        ARGS0
        + "ignoredResourceGroups[0]: Invalid value: \"example.com/aaa\": resource group name can't contain '/'",
        id="resource group with slash",
    ),
    pytest.param(
        fit_config(scoringStrategy={"type": "MostAllocated", "weights": []}),
        STRATEGY
        + 'weights: unknown field "weights" (known fields: type, resources, requestedToCapacityRatio)',
        id="unknown args field",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[{"name": "NodeResourcesFit", "args": {"kind": "NodeAffinityArgs"}}]
        ),
        ARGS0
        + 'kind: Invalid value: "NodeAffinityArgs": args for plugin NodeResourcesFit must be of kind NodeResourcesFitArgs',
        id="args of another kind",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[{"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 101}}]
        ),
        ARGS0 + "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]",
        id="hard pod affinity weight",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[
                {
                    "name": "NodeResourcesBalancedAllocation",
                    "args": {"resources": [{"name": "cpu", "weight": 2}]},
                }
            ]
        ),
        ARGS0 + "resources[0].weight: Invalid value: 2: must be 1",
        id="balanced allocation weight",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[
                {
                    "name": "NodeResourcesBalancedAllocation",
                    "args": {"resources": [{"name": "cpu"}, {"name": "cpu"}]},
                }
            ]
        ),
        ARGS0 + 'resources[1].name: Duplicate value: "cpu"',
        id="balanced allocation duplicate",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[
                {
                    "name": "PodTopologySpread",
                    "args": {
                        "defaultConstraints": [
                            {
                                "maxSkew": 1,
                                "topologyKey": "zone",
                                "whenUnsatisfiable": "DoNotSchedule",
                            }
                        ]
                    },
                }
            ]
        ),
        ARGS0 + 'defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
        id="system defaulting with constraints",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[{"name": "PodTopologySpread", "args": {"defaultingType": "unknown"}}]
        ),
        ARGS0 + 'defaultingType: Unsupported value: "unknown": supported values: "System", "List"',
        id="unknown defaulting type",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[
                {
                    "name": "PodTopologySpread",
                    "args": {
                        "defaultingType": "List",
                        "defaultConstraints": [
                            {
                                "maxSkew": 1,
                                "topologyKey": "key",
                                "whenUnsatisfiable": "DoNotSchedule",
                                "labelSelector": {"matchLabels": {"a": "b"}},
                            }
                        ],
                    },
                }
            ]
        ),
        ARGS0
        + "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod",
        id="default constraint with selector",
    ),
    pytest.param(
        one_profile(
            pluginConfig=[
                {"name": "DefaultPreemption", "args": {"minCandidateNodesPercentage": 900}}
            ]
        ),
        ARGS0 + "minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]",
        id="preemption percentage",
    ),
    pytest.param(
        one_profile(pluginConfig=[{"name": "VolumeBinding", "args": {"bindTimeoutSeconds": -10}}]),
        ARGS0
        + "bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a negative value",
        id="volume binding timeout",
    ),
    pytest.param(
        one_profile(pluginConfig=[{"name": "ImageLocality"}, {"name": "ImageLocality"}]),
        'profiles[0].pluginConfig[1]: Duplicate value: "ImageLocality"',
        id="plugin configured twice",
    ),
    pytest.param(
        ksc(percentageOfNodesToScore=120),
        "percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]",
        id="global percentage",
    ),
    pytest.param(
        ksc(profiles=[{"percentageOfNodesToScore": -1}]),
        "profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]",
        id="profile percentage",
    ),
    pytest.param(
        ksc(profiles=[{"schedulerName": "gpu"}, {"schedulerName": "gpu"}]),
        'profiles[1].schedulerName: Duplicate value: "gpu" (already used by profiles[0])',
        id="duplicate scheduler name",
    ),
    pytest.param(
        ksc(profiles=[{"schedulerName": "a"}, {}]),
        "profiles[1].schedulerName: Required value",
        id="second profile without name",
    ),
    pytest.param(
        ksc(
            profiles=[
                {"schedulerName": "a"},
                {"schedulerName": "b", "plugins": {"queueSort": plugin_set("PrioritySort")}},
            ]
        ),
        'profiles[1].plugins.queueSort: Invalid value: {"enabled": [{"name": "PrioritySort", "weight": 0}],'
        ' "disabled": []}: must be the same for all profiles',
        id="different queue sort",
    ),
    pytest.param(
        {"apiVersion": "kubescheduler.config.k8s.io/v1beta3", "kind": "KubeSchedulerConfiguration"},
        'apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v1beta3": supported values:'
        ' "kubescheduler.config.k8s.io/v1" (v1beta3 was removed in Kubernetes 1.29; v1 takes the same fields)',
        id="v1beta3",
    ),
    pytest.param(
        ksc(profile=[{"schedulerName": "a"}]),
        'profile: unknown field "profile" (known fields: apiVersion, kind, parallelism, leaderElection,'
        " clientConnection, enableProfiling, enableContentionProfiling, percentageOfNodesToScore,"
        " podInitialBackoffSeconds, podMaxBackoffSeconds, profiles, extenders, delayCacheUntilActive)",
        id="unknown top-level field",
    ),
    pytest.param(
        ksc(parallelism=0),
        "parallelism: Invalid value: 0: should be an integer value greater than zero",
        id="parallelism",
    ),
    pytest.param(
        ksc(podInitialBackoffSeconds=20),
        "podMaxBackoffSeconds: Invalid value: 10: must be greater than or equal to PodInitialBackoffSeconds",
        id="backoff",
    ),
    pytest.param(
        ksc(leaderElection={"resourceLock": "endpoints"}),
        'leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"',
        id="resource lock",
    ),
]


@pytest.mark.parametrize(("doc", "message"), ERROR_CASES)
def test_errors(doc: dict[str, Any], message: str) -> None:
    assert problems(doc) == [f"ksc.yaml: {KSC}{message}"]


def test_every_problem_is_listed() -> None:
    found = problems(
        ksc(
            percentageOfNodesToScore=101,
            profiles=[
                {
                    "plugins": {"score": plugin_set("Foo")},
                    "pluginConfig": [
                        {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": -1}}
                    ],
                }
            ],
        )
    )
    assert len(found) == 3


def test_error_names_file_and_line(tmp_path: Path) -> None:
    text = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: gpu
  plugins:
    score:
      enabled:
      - name: NodeResourcesFit
        weight: 4
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: nvidia.com/gpu
          weight: 101
"""
    node = yaml.compose(text)
    with pytest.raises(ConfigError) as raised:
        load_scheduler_config(yaml.safe_load(text), Source("ksc.yaml", 1), LineMap(node))
    assert str(raised.value) == (
        "ksc.yaml:17: KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy"
        ".resources[0].weight: Invalid value: 101: resource weight of nvidia.com/gpu not in valid range (0, 100]"
    )
    path = tmp_path / "ksc.yaml"
    path.write_text(
        text.replace("NodeResourcesFit\n        weight", "NodeResourceFit\n        weight")
    )
    with pytest.raises(ConfigError) as raised:
        load_scheduler_config_file(path)
    assert [str(p).split(": ")[0] for p in raised.value.problems] == [f"{path}:17", f"{path}:8"]
    assert str(raised.value.problems[1]) == (
        f'{path}:8: {KSC}profiles[0].plugins.score.enabled[0].name: "NodeResourceFit" is not'
        ' a plugin kube-scheduler knows (did you mean "NodeResourcesFit"?)'
    )


@pytest.mark.parametrize(
    ("doc", "note"),
    [
        pytest.param(
            one_profile(
                pluginConfig=[{"name": "Coscheduling", "args": {"permitWaitingTimeSeconds": 10}}]
            ),
            'profiles[0].pluginConfig[0]: args for "Coscheduling", which is not a plugin kube-scheduler knows, are not used',
            id="args for an unknown plugin",
        ),
        pytest.param(
            one_profile(pluginConfig=[{"name": "TaintToleration", "args": {"x": 1}}]),
            "profiles[0].pluginConfig[0]: TaintToleration takes no args; these are not used",
            id="args for a plugin without args",
        ),
        pytest.param(
            one_profile(plugins={"score": plugin_set(disabled=("SelectorSpread",))}),
            'profiles[0].plugins.score.disabled: disables "SelectorSpread", which is not a plugin kube-scheduler knows',
            id="disabling an unknown plugin",
        ),
    ],
)
def test_notes_for_what_upstream_accepts_silently(doc: dict[str, Any], note: str) -> None:
    assert load(doc).notes == [f"ksc.yaml: {KSC}{note}"]
