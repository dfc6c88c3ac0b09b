"""ge.es: eager-style graph building (GraphBuilder, TensorHolder, attr_scope); the ES wrapper
packages installed with a `ge.es.plugins` entry point are mounted as ge.es.<name>."""
import sys as _sys

from .graph_builder import GraphBuilder, TensorHolder, attr_scope  # noqa: F401
from . import _plugin_loader

__all__ = ["GraphBuilder", "TensorHolder", "attr_scope"]

_plugin_loader.load_plugins(_sys.modules[__name__])
