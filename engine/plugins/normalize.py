"""DefaultNormalizeScore, shared by score plugins.

Follows pkg/scheduler/framework/plugins/helper/normalize_score.go: scores in
[0, max(scores)] are scaled to [0, max_priority] with integer arithmetic
(score * max_priority // max_score), optionally reversed.
"""

from __future__ import annotations

import numpy as np

from engine.framework.interface import IntArray


def default_normalize_score(max_priority: int, reverse: bool, scores: IntArray) -> IntArray:
    """Scale non-negative raw scores to [0, max_priority].

    When every score is 0 upstream leaves them at 0, or sets them all to
    max_priority when reversing (no node is worse than another).
    """
    scores = np.asarray(scores, dtype=np.int64)
    # All zero is the usual case (e.g. no PreferNoSchedule taint on the
    # candidates): answered with one count, without the max and the division.
    max_score = int(np.maximum.reduce(scores)) if np.count_nonzero(scores) else 0
    if max_score <= 0:
        if reverse:
            constant = np.empty(len(scores), dtype=np.int64)
            constant.fill(max_priority)
            return constant
        return scores.copy()
    # Scores are non-negative, so floor division equals Go's truncation.
    normalized = scores * max_priority // max_score
    if reverse:
        normalized = max_priority - normalized
    return normalized
