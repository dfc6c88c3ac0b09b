"""ge.session.Session: GE's online flow from Python (ge::Session of libge_runner.so). It runs in
the calling interpreter, which also hosts the Python custom ops ASCEND_CUSTOM_OPP_PATH names."""
from .._capi import native as _native
from ..ge_global import _options
from ..graph.graph import Graph
from ..graph.tensor import Tensor


class Session:
    def __init__(self, config=None):
        self._session = _native().Session(_options(config, "Session"))
        self._graphs = {}  # keeps each added graph alive while the session may compile it

    def add_graph(self, graph_id, graph, options=None):
        if not isinstance(graph, Graph):
            raise TypeError("add_graph: expected a ge.graph.Graph, got {}".format(type(graph).__name__))
        self._session.add_graph(int(graph_id), graph._native_graph(), _options(options, "add_graph"))
        self._graphs[int(graph_id)] = graph
        return 0

    def run_graph(self, graph_id, inputs=None):
        """Runs graph graph_id on a list of ge.graph.Tensor; returns the output Tensors."""
        tensors = list(inputs or [])
        for k, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError("run_graph: input {} is a {}, expected ge.graph.Tensor".format(k, type(t).__name__))
        outs = self._session.run_graph(int(graph_id), [t._to_native() for t in tensors])
        return [Tensor._from_native(o) for o in outs]

    def remove_graph(self, graph_id):
        self._session.remove_graph(int(graph_id))
        self._graphs.pop(int(graph_id), None)
        return 0


__all__ = ["Session"]
