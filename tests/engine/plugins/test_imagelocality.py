"""ImageLocality against pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from engine.cluster.state import normalized_image_name
from engine.framework.interface import CycleState
from engine.model.objects import ImageState, Node
from engine.plugins.imagelocality import ImageLocality
from tests.engine.plugins.builders import all_nodes, by_name, make_cluster, make_node, make_pod

MB = 1024 * 1024


def image(size_mb: int, *names: str) -> ImageState:
    return ImageState(names=names, size_bytes=size_mb * MB)


NODE_40_300_2000 = (
    image(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
    image(300, "gcr.io/300:latest", "gcr.io/300:v1"),
    image(2000, "gcr.io/2000:latest"),
)
NODE_250_10 = (image(250, "gcr.io/250:latest"), image(10, "gcr.io/10:latest", "gcr.io/10:v1"))
NODE_600_40_900 = (
    image(600, "gcr.io/600:latest"),
    image(40, "gcr.io/40:latest"),
    image(900, "gcr.io/900:latest"),
)
NODE_300_600_900 = (
    image(300, "gcr.io/300:latest"),
    image(600, "gcr.io/600:latest"),
    image(900, "gcr.io/900:latest"),
)
NODE_4000_30 = (image(4000, "gcr.io/4000:latest"), image(30, "gcr.io/30:latest"))
NODE_20_30_40 = (
    image(20, "gcr.io/20:latest"),
    image(30, "gcr.io/30:latest"),
    image(40, "gcr.io/40:latest"),
)
NO_IMAGES: tuple[ImageState, ...] = ()


def scores(pod_images: Sequence[str], node_images: Sequence[tuple[ImageState, ...]]) -> list[int]:
    nodes: list[Node] = [
        make_node(f"node{i + 1}", images=images) for i, images in enumerate(node_images)
    ]
    cluster = make_cluster(nodes)
    plugin = ImageLocality()
    candidates = all_nodes(cluster)
    pod = make_pod("p", images=pod_images)
    result = plugin.score(CycleState(), pod, cluster, candidates)
    named = by_name(cluster, candidates, result.tolist())
    return [named[n.name] for n in nodes]


@pytest.mark.parametrize(
    ("pod_images", "node_images", "expected"),
    [
        pytest.param(
            # node1 has gcr.io/40 only: 40M/2 < 23M, min-threshold -> 0
            # node2 has gcr.io/250: 100 * (250M/2 - 23M) / (1000M * 2 - 23M) = 5
            ["gcr.io/40", "gcr.io/250"],
            [NODE_40_300_2000, NODE_250_10],
            [0, 5],
            id="two images spread on two nodes, prefer the larger image one",
        ),
        pytest.param(
            # node1: 100 * ((40M + 300M)/2 - 23M) / (1000M * 2 - 23M) = 7
            ["gcr.io/40", "gcr.io/300"],
            [NODE_40_300_2000, NODE_250_10],
            [7, 0],
            id="two images on one node, prefer this node",
        ),
        pytest.param(
            # node1: 4000M * 1/2 >= 1000M * 2, max-threshold -> 100
            ["gcr.io/10", "gcr.io/4000"],
            [NODE_4000_30, NODE_250_10],
            [100, 0],
            id="if exceed limit, use limit",
        ),
        pytest.param(
            # node1: 100 * (4000M/3 - 23M) / (1000M * 2 - 23M) = 66
            ["gcr.io/10", "gcr.io/4000"],
            [NODE_4000_30, NODE_250_10, NO_IMAGES],
            [66, 0, 0],
            id="if exceed limit, use limit (with node which has no images present)",
        ),
        pytest.param(
            # node1: 100 * (600M * 2/3 + 900M * 2/3 - 23M) / (1000M * 3 - 23M) = 32
            # node2: 100 * (300M * 1/3 + 600M * 2/3 + 900M * 2/3 - 23M) / (...) = 36
            ["gcr.io/300", "gcr.io/600", "gcr.io/900"],
            [NODE_600_40_900, NODE_300_600_900, NO_IMAGES],
            [32, 36, 0],
            id="pod with multiple large images, node2 is preferred",
        ),
        pytest.param(
            # node1: 100 * (30M + 40M * 1/2 - 23M) / (1000M * 2 - 23M) = 1
            # node2: 100 * (30M * 1/2 - 23M) -> min-threshold -> 0
            ["gcr.io/30", "gcr.io/40"],
            [NODE_20_30_40, NODE_4000_30],
            [1, 0],
            id="pod with multiple small images",
        ),
        pytest.param(
            # init container gcr.io/300 counts, and so does it as a container:
            # node1: 100 * (300M * 1/2 - 23M) / (1000M * 2 - 23M) = 6
            ["gcr.io/300", "gcr.io/30"],  # init containers first
            [NODE_40_300_2000, NODE_20_30_40],
            [6, 0],
            id="include InitContainers: two images spread on two nodes",
        ),
        pytest.param(
            # ours: two containers with the same image each count it:
            # 100 * (2 * 250M/2 - 23M) / (1000M * 2 - 23M) = 11
            ["gcr.io/250", "gcr.io/250:latest"],
            [NODE_40_300_2000, NODE_250_10],
            [0, 11],
            id="ours: an image used by two containers counts twice",
        ),
        pytest.param([], [NODE_40_300_2000, NODE_250_10], [0, 0], id="ours: no containers"),
    ],
)
def test_image_locality(
    pod_images: list[str], node_images: list[tuple[ImageState, ...]], expected: list[int]
) -> None:
    assert scores(pod_images, node_images) == expected


# TestNormalizedImageName
@pytest.mark.parametrize(
    ("name", "normalized"),
    [
        ("root", "root:latest"),
        ("gcr.io:5000/root", "gcr.io:5000/root:latest"),
        ("root:tag", "root:tag"),
        ("root@sha256:" + "ab" * 32, "root@sha256:" + "ab" * 32),
    ],
)
def test_normalized_image_name(name: str, normalized: str) -> None:
    assert normalized_image_name(name) == normalized


def test_scores_only_the_nodes_asked_for_and_reuses_image_sums() -> None:
    cluster = make_cluster(
        [
            make_node("node1", images=NODE_40_300_2000),
            make_node("node2", images=NODE_250_10),
            make_node("node3", images=NODE_300_600_900),
        ]
    )
    plugin = ImageLocality()
    pod = make_pod("p", images=["gcr.io/300", "gcr.io/40"])
    nodes = np.array([cluster.node_index["node3"], cluster.node_index["node1"]], dtype=np.int64)
    first = plugin.score(CycleState(), pod, cluster, nodes)
    # node3: 300M * 2/3 = 200M; node1: 300M * 2/3 + 40M * 1/3 = 213.3M; max 2000M
    assert by_name(cluster, nodes, first.tolist()) == {"node3": 8, "node1": 9}
    again = plugin.score(
        CycleState(), make_pod("q", images=["gcr.io/300", "gcr.io/40"]), cluster, nodes
    )
    assert again.tolist() == first.tolist()
