"""Resource plugins: NodeResourcesFit and NodeResourcesBalancedAllocation.

Follows pkg/scheduler/framework/plugins/noderesources: `fit` (Filter and
Score), `strategies` (the scoring strategy table), `resource_allocation`
(what the scorers read per node) and `balanced_allocation`.
"""
