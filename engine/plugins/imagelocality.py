"""ImageLocality (pkg/scheduler/framework/plugins/imagelocality/image_locality.go).

Favors nodes that already hold the pod's container images:

1. For every container (init containers first) whose image (":latest"
   added when untagged) is on the node, add
   int64(size * (nodes with the image / all nodes)); the spread factor keeps
   pods from piling onto the few nodes that have an image.
2. Clamp the sum to [23 MiB, 1000 MiB * number of containers] and scale it
   to 0..100: 100 * (sum - 23 MiB) / (max - 23 MiB), integer division.

There is no NormalizeScore. Node images do not change during a run, so the
per-node sums are cached per distinct image list.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from engine.cluster.state import ClusterState, normalized_image_name
from engine.config.args import NoArgs
from engine.framework.interface import MAX_NODE_SCORE, CycleState, IntArray, ScorePlugin
from engine.model.objects import Pod

NAME = "ImageLocality"

MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB


class ImageLocality(ScorePlugin):
    name: ClassVar[str] = NAME
    node_local: ClassVar[bool] = True
    reads_placed_pods: ClassVar[bool] = False

    def __init__(self, args: NoArgs | None = None) -> None:
        self._cluster: ClusterState | None = None
        self._image_scores: dict[str, IntArray] = {}
        self._pod_sums: dict[tuple[str, ...], IntArray] = {}

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        num_containers = len(pod.images)
        if num_containers == 0:
            return np.zeros(len(nodes), dtype=np.int64)
        sums = self._sum_image_scores(cluster, pod.images)[nodes]
        max_threshold = MAX_CONTAINER_THRESHOLD * num_containers
        clamped = np.clip(sums, MIN_THRESHOLD, max_threshold)
        result: IntArray = (
            MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) // (max_threshold - MIN_THRESHOLD)
        )
        return result

    def _sum_image_scores(self, cluster: ClusterState, images: tuple[str, ...]) -> IntArray:
        """sumImageScores for every node of the cluster."""
        if cluster is not self._cluster:
            self._cluster = cluster
            self._image_scores.clear()
            self._pod_sums.clear()
        sums = self._pod_sums.get(images)
        if sums is None:
            sums = np.zeros(cluster.num_nodes, dtype=np.int64)
            for image in images:
                sums = sums + self._scaled_image_score(cluster, normalized_image_name(image))
            if len(self._pod_sums) > 4096:  # one entry per distinct image list
                self._pod_sums.clear()
            self._pod_sums[images] = sums
        return sums

    def _scaled_image_score(self, cluster: ClusterState, image: str) -> IntArray:
        """scaledImageScore per node: int64(float64(size) * numNodes / totalNumNodes)."""
        scores = self._image_scores.get(image)
        if scores is None:
            spread = cluster.image_num_nodes.get(image, 0) / cluster.num_nodes
            sizes = np.array(
                [node_images.get(image, 0) for node_images in cluster.node_images],
                dtype=np.float64,
            )
            scores = (sizes * spread).astype(np.int64)
            self._image_scores[image] = scores
        return scores
