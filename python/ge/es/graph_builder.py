"""ge.es.graph_builder: GraphBuilder, TensorHolder and attr_scope over
libeager_style_graph_builder_base.so (include/ge/es_graph_builder_c.h)."""
import contextlib
import ctypes

from .._capi import pyes_graph_builder_wrapper as _w
from ..graph.graph import Graph
from ..graph.types import DataType, Format


def _dims(shape, what):
    if shape is None:
        return _w.int_array([], what)
    return _w.int_array(list(shape), what)


class TensorHolder:
    """One output of a node in a GraphBuilder; the setters return self (chainable)."""

    def __init__(self, handle, builder):
        self._handle = handle
        self._builder = builder  # keeps the builder (which owns the handle) alive

    def set_shape(self, shape):
        arr, n = _dims(shape, "shape")
        _w.check_status(_w.esb_lib().EsSetShape(self._handle, arr, n), "TensorHolder.set_shape")
        return self

    def set_format(self, format):
        _w.check_status(_w.esb_lib().EsSetFormat(self._handle, int(format)), "TensorHolder.set_format")
        return self

    def set_data_type(self, data_type):
        _w.check_status(_w.esb_lib().EsSetDataType(self._handle, int(data_type)), "TensorHolder.set_data_type")
        return self


_SETTERS = {bool: "Bool", int: "Int", float: "Float", str: "String"}


def _typed(name, value):
    for t in (bool, int, float, str):  # bool before int: True is an int too
        if isinstance(value, t):
            return _SETTERS[t], value.encode() if t is str else value
    raise TypeError("attribute '{}' has unsupported type {} (bool, int, float or str)".format(
        name, type(value).__name__))


@contextlib.contextmanager
def attr_scope(attrs):
    """Every node created inside gets `attrs` ({name: bool|int|float|str})."""
    if not isinstance(attrs, dict):
        raise TypeError("attr_scope takes a dict of attributes, got {}".format(type(attrs).__name__))
    lib = _w.esb_lib()
    lib.EsAttrScopePush()
    try:
        for name, value in attrs.items():
            kind, v = _typed(name, value)
            _w.check_status(getattr(lib, "EsAttrScopeSet" + kind)(str(name).encode(), v),
                            "attr_scope('{}')".format(name))
        yield
    finally:
        lib.EsAttrScopePop()


class GraphBuilder:
    def __init__(self, name):
        if not isinstance(name, str) or not name:
            raise TypeError("GraphBuilder(name): name must be a non-empty str")
        self._name = name
        self._handle = _w.check_handle(_w.esb_lib().EsCreateGraphBuilder(name.encode()), "GraphBuilder")

    def __del__(self):
        try:
            if getattr(self, "_handle", None):
                _w.esb_lib().EsDestroyGraphBuilder(self._handle)
        except Exception:  # interpreter shutdown
            pass
        self._handle = None

    @property
    def name(self):
        return self._name

    def create_input(self, index, name=None, data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=None):
        arr, n = _dims(shape, "shape")
        h = _w.esb_lib().EsCreateGraphInput(self._handle, _w.as_int(index, "index"),
                                            name.encode() if name is not None else None, int(data_type),
                                            int(format), arr, n)
        return TensorHolder(_w.check_handle(h, "create_input({})".format(index)), self)

    def create_const_float(self, value, shape=None):
        values = [float(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
        dims = [len(values)] if shape is None else list(shape)
        arr, n = _dims(dims, "shape")
        data = (ctypes.c_float * len(values))(*values)
        h = _w.esb_lib().EsCreateConstFloat(self._handle, data, len(values), arr, n)
        return TensorHolder(_w.check_handle(h, "create_const_float"), self)

    def _check_holder(self, tensor, what):
        if not isinstance(tensor, TensorHolder) or tensor._builder is not self:
            raise TypeError("{}: expected a TensorHolder of this builder".format(what))

    def set_node_attr_bool(self, tensor, name, value):
        self._check_holder(tensor, "set_node_attr_bool")
        _w.check_status(_w.esb_lib().EsSetNodeAttrBool(tensor._handle, name.encode(), 1 if value else 0),
                        "set_node_attr_bool('{}')".format(name))

    def set_graph_output(self, tensor, index):
        self._check_holder(tensor, "set_graph_output")
        _w.check_status(_w.esb_lib().EsSetGraphOutput(tensor._handle, _w.as_int(index, "index")),
                        "set_graph_output({})".format(index))

    def build_and_reset(self):
        """The Graph of everything built so far; the builder starts empty again."""
        h = _w.check_handle(_w.esb_lib().EsBuildGraphAndReset(self._handle), "build_and_reset")
        return Graph._from_handle(h)
