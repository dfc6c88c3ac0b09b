"""ge.graph: for now only the enums that callbacks see (ge.graph.types)."""
from .types import DataType, Format, Placement  # noqa: F401
