"""Pod.requests and Pod.nonzero_requests as the scheduler computes them.

Rows of the first table are upstream's TestPodResourceRequests
(k8s.io/component-helpers/resource/helpers_test.go); the non-zero rows follow
calculateResource / getNonMissingContainerRequests in
pkg/scheduler/framework/types.go (100m cpu and 200Mi memory for each
container that sets no request), and the pod-level rows PodRequests with
PodLevelResources plus defaultPodRequests (pkg/apis/core/v1/defaults.go).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.ingest import ingest_text

GI = 1024**3
MI = 1024**2


def container(
    name: str,
    requests: dict[str, Any] | None = None,
    limits: dict[str, Any] | None = None,
    sidecar: bool = False,
) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if requests is not None:
        resources["requests"] = requests
    if limits is not None:
        resources["limits"] = limits
    c: dict[str, Any] = {"name": name, "image": "busybox", "resources": resources}
    if sidecar:
        c["restartPolicy"] = "Always"
    return c


def cpu(amount: str) -> dict[str, str]:
    return {"cpu": amount}


def pod(
    containers: list[dict[str, Any]], init: list[dict[str, Any]] | None = None, **spec: Any
) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": "ml"},
        "spec": {"containers": containers, "initContainers": init or [], **spec},
    }


def ingest_pod(manifest: dict[str, Any]) -> Any:
    result = ingest_text(json.dumps(manifest), "pod.json")
    assert [str(e) for e in result.errors] == []
    (only,) = result.pods
    return only


UPSTREAM_ROWS = [
    (
        "nil options, larger init container",
        pod([container("c", cpu("1"))], [container("i", cpu("4"))]),
        {"cpu": 4000},
    ),
    (
        "nil options, larger containers",
        pod([container("c1", cpu("2")), container("c2", cpu("3"))], [container("i", cpu("2"))]),
        {"cpu": 5000},
    ),
    (
        "pod overhead included",
        pod(
            [container("c1", cpu("2")), container("c2", cpu("3"))],
            [container("i", cpu("2"), limits=cpu("2"))],
            overhead={"cpu": "1", "memory": "1Gi"},
        ),
        {"cpu": 6000, "memory": GI},
    ),
    (
        "restartable init container",
        pod([container("c", cpu("1"))], [container("s", cpu("1"), sidecar=True)]),
        {"cpu": 2000},
    ),
    (
        "multiple restartable init containers",  # max(5, 3+2+1 + 1) = 7
        pod(
            [container("c", cpu("1"))],
            [
                container("init-1", cpu("5")),
                container("s1", cpu("1"), sidecar=True),
                container("s2", cpu("2"), sidecar=True),
                container("s3", cpu("3"), sidecar=True),
            ],
        ),
        {"cpu": 7000},
    ),
    (
        "multiple restartable and regular init containers",  # init-2: 5 + sidecars before it (1+2)
        pod(
            [container("c", cpu("1"))],
            [
                container("init-1", cpu("5")),
                container("s1", cpu("1"), sidecar=True),
                container("s2", cpu("2"), sidecar=True),
                container("init-2", cpu("5")),
                container("s3", cpu("3"), sidecar=True),
            ],
        ),
        {"cpu": 8000},
    ),
    (
        "restartable-init, init and regular",
        pod(
            [container("c", cpu("100"))],
            [container("s", cpu("10"), sidecar=True), container("i", cpu("200"))],
        ),
        {"cpu": 210000},
    ),
]


@pytest.mark.parametrize(
    ("manifest", "expected"), [r[1:] for r in UPSTREAM_ROWS], ids=[r[0] for r in UPSTREAM_ROWS]
)
def test_upstream_pod_requests(manifest: dict[str, Any], expected: dict[str, int]) -> None:
    assert ingest_pod(manifest).requests == expected


DEFAULTING_ROWS = [
    (
        "limits stand in for requests",
        pod([container("c", limits={"nvidia.com/gpu": 2, "memory": "64Gi"})]),
        {"nvidia.com/gpu": 2, "memory": 64 * GI},
    ),
    (
        "requests win over limits",
        pod([container("c", {"cpu": "500m"}, {"cpu": "2", "memory": "1Gi"})]),
        {"cpu": 500, "memory": GI},
    ),
    (
        "per resource",
        pod([container("c", {"memory": "1Gi"}, {"cpu": "1500m", "memory": "2Gi"})]),
        {"cpu": 1500, "memory": GI},
    ),
    ("no resources at all", pod([{"name": "c"}]), {}),
    (
        "summed exactly before rounding",
        pod([container("a", cpu("0.0005")), container("b", cpu("0.0005"))]),
        {"cpu": 1},
    ),
    (
        "gpus across containers",
        pod(
            [
                container("a", limits={"nvidia.com/gpu": 1}),
                container("b", limits={"nvidia.com/gpu": 3}),
            ]
        ),
        {"nvidia.com/gpu": 4},
    ),
]


@pytest.mark.parametrize(
    ("manifest", "expected"), [r[1:] for r in DEFAULTING_ROWS], ids=[r[0] for r in DEFAULTING_ROWS]
)
def test_api_defaulting(manifest: dict[str, Any], expected: dict[str, int]) -> None:
    assert ingest_pod(manifest).requests == expected


NON_ZERO_ROWS = [
    ("one container without requests", pod([{"name": "c"}]), (100, 200 * MI)),
    ("two containers without requests", pod([{"name": "a"}, {"name": "b"}]), (200, 400 * MI)),
    ("gpu-only limits", pod([container("c", limits={"nvidia.com/gpu": 1})]), (100, 200 * MI)),
    ("explicit zero stays zero", pod([container("c", {"cpu": "0"})]), (0, 200 * MI)),
    ("set requests are used", pod([container("c", {"cpu": "2", "memory": "4Gi"})]), (2000, 4 * GI)),
    (
        "init container without requests",
        pod([container("c", cpu("1"))], [{"name": "i"}]),
        (1000, 200 * MI),
    ),
    (
        "sidecar without requests",
        pod([{"name": "c"}], [container("s", sidecar=True)]),
        (200, 400 * MI),
    ),
    (
        "overhead on top",
        pod([{"name": "c"}], overhead={"cpu": "250m", "memory": "120Mi"}),
        (350, 320 * MI),
    ),
]


@pytest.mark.parametrize(
    ("manifest", "expected"), [r[1:] for r in NON_ZERO_ROWS], ids=[r[0] for r in NON_ZERO_ROWS]
)
def test_non_zero_requests(manifest: dict[str, Any], expected: tuple[int, int]) -> None:
    assert ingest_pod(manifest).nonzero_requests == expected


POD_LEVEL_ROWS = [
    (
        "pod-level requests replace cpu and memory",
        pod(
            [container("c", {"cpu": "1", "memory": "1Gi"}, limits={"nvidia.com/gpu": 1})],
            resources={"requests": {"cpu": "4", "memory": "8Gi"}},
        ),
        {"cpu": 4000, "memory": 8 * GI, "nvidia.com/gpu": 1},
        (4000, 8 * GI),
    ),
    (
        "pod-level limits default requests to the containers' sum",
        pod(
            [container("a", cpu("1")), container("b", cpu("500m"))],
            resources={"limits": {"cpu": "4"}},
        ),
        {"cpu": 1500},
        (1500, 400 * MI),
    ),
    (
        "pod-level limits default requests to themselves when containers set none",
        pod([{"name": "c"}], resources={"limits": {"cpu": "2", "memory": "1Gi"}}),
        {"cpu": 2000, "memory": GI},
        (2000, GI),
    ),
    (
        "overhead is added after pod-level requests",
        pod([{"name": "c"}], resources={"requests": {"cpu": "1"}}, overhead={"cpu": "100m"}),
        {"cpu": 1100},
        (1100, 200 * MI),
    ),
]


@pytest.mark.parametrize(
    ("manifest", "expected", "non_zero"),
    [r[1:] for r in POD_LEVEL_ROWS],
    ids=[r[0] for r in POD_LEVEL_ROWS],
)
def test_pod_level_resources(
    manifest: dict[str, Any], expected: dict[str, int], non_zero: tuple[int, int]
) -> None:
    ingested = ingest_pod(manifest)
    assert ingested.requests == expected
    assert ingested.nonzero_requests == non_zero
