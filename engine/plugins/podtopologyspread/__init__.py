"""PodTopologySpread: spread matching pods evenly over topology domains."""
