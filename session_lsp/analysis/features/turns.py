"""thndrs turn grouping lives in `thndrs.turns`; the tree payload groups a file's records with it."""

from ..thndrs.turns import Group, groups, segments

__all__ = ["Group", "groups", "segments"]
