"""NodeResourcesFit scoring strategies: a name-to-function table.

Follows nodeResourceStrategyTypeMap in pkg/scheduler/framework/plugins/
noderesources/fit.go and least_allocated.go, most_allocated.go,
requested_to_capacity_ratio.go. Each entry turns the configured strategy
into a scorer over [candidate nodes x configured resources] matrices of
requested (with the incoming pod) and allocatable (and, where it has one, a
Python-int form for a single node); a resource whose allocatable is 0 on a
node is skipped there and its weight not counted.
A new strategy is one function and one entry in STRATEGIES.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    ScoringStrategy,
)
from engine.framework.interface import MAX_NODE_SCORE, BoolArray, IntArray

# config.MaxCustomPriorityScore: shape scores are given on 0..10.
MAX_CUSTOM_PRIORITY_SCORE = 10
MAX_UTILIZATION = 100


@dataclass(frozen=True, slots=True)
class Scorer:
    """A strategy's scores from [nodes x resources] matrices of requested
    (with the incoming pod) and allocatable.

    `one_node` is the same integer arithmetic in Python for one node's
    requested and allocatable lists, where a numpy call costs more than the
    work; None when the strategy has no such form.
    """

    nodes: Callable[[IntArray, IntArray], IntArray]
    one_node: Callable[[list[int], list[int]], int] | None = None


def go_div(numerator: IntArray, denominator: IntArray | int) -> IntArray:
    """Go's integer division, which truncates toward zero (numpy floors)."""
    quotient = np.abs(numerator) // np.abs(denominator)
    return np.where((numerator < 0) != (np.asarray(denominator) < 0), -quotient, quotient)


def weighted_mean(scores: IntArray, counted: BoolArray, weights: IntArray) -> IntArray:
    """sum(score * weight) / sum(weight) over counted resources, 0 when none count."""
    if counted.all():  # the usual case: every node has every resource
        result: IntArray = scores @ weights // int(weights.sum())
        return result
    w = np.where(counted, weights[np.newaxis, :], 0)
    weight_sum = w.sum(axis=1)
    total = (scores * w).sum(axis=1)
    return np.where(weight_sum > 0, total // np.maximum(weight_sum, 1), 0)


def least_allocated(strategy: ScoringStrategy) -> Scorer:
    """((allocatable - requested) * 100) / allocatable per resource, 0 when over."""
    weights = _weights(strategy)
    weight_sum = int(weights.sum())
    weight_list = weights.tolist()

    def score(requested: IntArray, allocatable: IntArray) -> IntArray:
        # Over capacity scores 0: a negative free amount is clamped to 0.
        free = np.maximum(allocatable - requested, 0)
        if allocatable.all():  # the usual case: every node has every resource
            result: IntArray = (free * MAX_NODE_SCORE // allocatable) @ weights // weight_sum
            return result
        counted = allocatable != 0
        per_resource = free * MAX_NODE_SCORE // np.where(counted, allocatable, 1)
        return weighted_mean(per_resource, counted, weights)

    def score_one(requested: list[int], allocatable: list[int]) -> int:
        return _weighted_mean_one(
            [
                max(a - r, 0) * MAX_NODE_SCORE // a if a else 0
                for r, a in zip(requested, allocatable, strict=True)
            ],
            allocatable,
            weight_list,
        )

    return Scorer(score, score_one if bool((weights > 0).all()) else None)


def most_allocated(strategy: ScoringStrategy) -> Scorer:
    """(requested * 100) / allocatable per resource, requested capped at allocatable."""
    weights = _weights(strategy)
    weight_sum = int(weights.sum())
    weight_list = weights.tolist()

    def score(requested: IntArray, allocatable: IntArray) -> IntArray:
        used = np.minimum(requested, allocatable)
        if allocatable.all():  # the usual case: every node has every resource
            result: IntArray = (used * MAX_NODE_SCORE // allocatable) @ weights // weight_sum
            return result
        counted = allocatable != 0
        per_resource = used * MAX_NODE_SCORE // np.where(counted, allocatable, 1)
        return weighted_mean(per_resource, counted, weights)

    def score_one(requested: list[int], allocatable: list[int]) -> int:
        return _weighted_mean_one(
            [
                min(r, a) * MAX_NODE_SCORE // a if a else 0
                for r, a in zip(requested, allocatable, strict=True)
            ],
            allocatable,
            weight_list,
        )

    return Scorer(score, score_one if bool((weights > 0).all()) else None)


def _weighted_mean_one(scores: list[int], allocatable: list[int], weights: list[int]) -> int:
    """weighted_mean for one node (positive weights): resources with
    allocatable 0 do not count."""
    total = weight_sum = 0
    for score, a, weight in zip(scores, allocatable, weights, strict=True):
        if a:
            total += score * weight
            weight_sum += weight
    return total // weight_sum if weight_sum else 0


def requested_to_capacity_ratio(strategy: ScoringStrategy) -> Scorer:
    """The shape's broken linear function of utilization, averaged with rounding.

    Shape scores (0..10) are scaled to 0..100. Utilization is
    requested * 100 / allocatable (100 when over capacity); only resources
    with a positive score count, and the weighted mean is rounded half away
    from zero (math.Round), which for non-negative integers is
    (2 * total + weight_sum) // (2 * weight_sum).
    """
    if not strategy.shape:
        raise ValueError("RequestedToCapacityRatio needs at least one shape point")
    weights = _weights(strategy)
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    shape_function = broken_linear_function(
        [p.utilization for p in strategy.shape], [p.score * scale for p in strategy.shape]
    )

    def score(requested: IntArray, allocatable: IntArray) -> IntArray:
        counted = allocatable != 0
        utilization = np.where(
            requested > allocatable,
            MAX_UTILIZATION,
            requested * MAX_UTILIZATION // np.where(counted, allocatable, 1),
        )
        per_resource = shape_function(utilization)
        counted &= per_resource > 0
        w = np.where(counted, weights[np.newaxis, :], 0)
        weight_sum = w.sum(axis=1)
        total = (per_resource * w).sum(axis=1)
        rounded = (2 * total + weight_sum) // np.maximum(2 * weight_sum, 1)
        return np.where(weight_sum > 0, rounded, 0)

    return Scorer(score)


def broken_linear_function(
    utilization: list[int], score: list[int]
) -> Callable[[IntArray], IntArray]:
    """helper.BuildBrokenLinearFunction, vectorised.

    f(p) = score[0] for p <= utilization[0], score[-1] beyond the last point,
    and between points score[i-1] + (score[i]-score[i-1]) * (p-u[i-1]) / (u[i]-u[i-1])
    with Go's truncating division.
    """
    u = np.asarray(utilization, dtype=np.int64)
    s = np.asarray(score, dtype=np.int64)

    def f(p: IntArray) -> IntArray:
        p = np.asarray(p, dtype=np.int64)
        if len(u) == 1:
            return np.full_like(p, s[0])
        i = np.searchsorted(u, p, side="left")  # first point with p <= u[i]
        inner = np.clip(i, 1, len(u) - 1)
        lo = inner - 1
        rise = s[inner] - s[lo]
        run = np.maximum(u[inner] - u[lo], 1)
        between = s[lo] + go_div(rise * (p - u[lo]), run)
        return np.where(i == 0, s[0], np.where(i >= len(u), s[-1], between))

    return f


def _weights(strategy: ScoringStrategy) -> IntArray:
    return np.array([r.weight for r in strategy.resources], dtype=np.int64)


STRATEGIES: dict[str, Callable[[ScoringStrategy], Scorer]] = {
    LEAST_ALLOCATED: least_allocated,
    MOST_ALLOCATED: most_allocated,
    REQUESTED_TO_CAPACITY_RATIO: requested_to_capacity_ratio,
}


def build_scorer(strategy: ScoringStrategy) -> Scorer:
    factory = STRATEGIES.get(strategy.type)
    if factory is None:
        raise ValueError(f"scoring strategy {strategy.type} is not supported")
    return factory(strategy)
