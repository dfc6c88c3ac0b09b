"""ge.graph: host tensors, built graphs (AIR files) and GE's enums (ge.graph.types)."""
from .graph import Graph  # noqa: F401
from .tensor import Shape, Tensor  # noqa: F401
from .types import DataType, Format, Placement  # noqa: F401

__all__ = ["Graph", "Tensor", "Shape", "DataType", "Format", "Placement"]
