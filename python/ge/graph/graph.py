"""ge.graph.Graph: a built graph (an ES graph over a ge::Graph), with AIR files.

Graphs come from ge.es.GraphBuilder.build_and_reset() or Graph.load_from_air(path) (a class
call returns a new Graph; an instance call replaces the instance's graph).
"""
from .._capi import pyes_graph_builder_wrapper as _w


class _LoadFromAir:
    """load_from_air works on the class (new Graph) and on an instance (replaced in place)."""

    def __get__(self, obj, cls):
        def load(path):
            handle = _w.check_handle(_w.esb_lib().EsGraphLoadFromAir(str(path).encode()),
                                     "load_from_air('{}')".format(path))
            if obj is None:
                return cls._from_handle(handle)
            obj._reset(handle)
            return 0
        return load


class Graph:
    def __init__(self, name=None):
        self._handle = None
        self._name = name

    @classmethod
    def _from_handle(cls, handle):
        g = cls.__new__(cls)
        g._handle = None
        g._name = None
        g._reset(handle)
        return g

    def _reset(self, handle):
        self._release()
        self._handle = handle
        name = _w.esb_lib().EsGraphName(handle)
        self._name = name.decode() if name else self._name

    def _release(self):
        if getattr(self, "_handle", None):
            _w.esb_lib().EsDestroyGraph(self._handle)
        self._handle = None

    def __del__(self):
        try:
            self._release()
        except Exception:  # interpreter shutdown: the library may be gone
            pass

    @property
    def name(self):
        return self._name

    def _native_graph(self):
        """The address of the ge::Graph inside (for ge.session)."""
        if not self._handle:
            raise RuntimeError("graph '{}' is empty: build it with ge.es.GraphBuilder or load_from_air".format(
                self._name))
        return _w.esb_lib().EsGraphNative(self._handle)

    def save_to_air(self, path):
        """Writes the graph as an AIR file; returns 0, raises RuntimeError on failure."""
        if not self._handle:
            raise RuntimeError("graph '{}' is empty: nothing to save".format(self._name))
        _w.check_status(_w.esb_lib().EsGraphSaveToAir(self._handle, str(path).encode()),
                        "save_to_air('{}')".format(path))
        return 0

    load_from_air = _LoadFromAir()
