"""ctypes bindings of libeager_style_graph_builder_base.so (include/ge/es_graph_builder_c.h) and
the helpers the gen_esb-generated wrappers (es_<m>_ops.py) call."""
import ctypes

from . import load_cdll

_c = ctypes.c_void_p
_i64 = ctypes.c_int64
_i32 = ctypes.c_int32
_SIGNATURES = {
    "EsLastError": (ctypes.c_char_p, []),
    "EsCreateGraphBuilder": (_c, [ctypes.c_char_p]),
    "EsDestroyGraphBuilder": (None, [_c]),
    "EsCreateGraphInput": (_c, [_c, _i64, ctypes.c_char_p, _i32, _i32, ctypes.POINTER(_i64), _i64]),
    "EsCreateConstFloat": (_c, [_c, ctypes.POINTER(ctypes.c_float), _i64, ctypes.POINTER(_i64), _i64]),
    "EsNodeOutput": (_c, [_c, _i64]),
    "EsSetShape": (_i32, [_c, ctypes.POINTER(_i64), _i64]),
    "EsSetFormat": (_i32, [_c, _i32]),
    "EsSetDataType": (_i32, [_c, _i32]),
    "EsSetNodeAttrBool": (_i32, [_c, ctypes.c_char_p, _i32]),
    "EsSetNodeAttrInt": (_i32, [_c, ctypes.c_char_p, _i64]),
    "EsSetNodeAttrFloat": (_i32, [_c, ctypes.c_char_p, ctypes.c_float]),
    "EsSetNodeAttrString": (_i32, [_c, ctypes.c_char_p, ctypes.c_char_p]),
    "EsAttrScopePush": (None, []),
    "EsAttrScopeSetBool": (_i32, [ctypes.c_char_p, _i32]),
    "EsAttrScopeSetInt": (_i32, [ctypes.c_char_p, _i64]),
    "EsAttrScopeSetFloat": (_i32, [ctypes.c_char_p, ctypes.c_float]),
    "EsAttrScopeSetString": (_i32, [ctypes.c_char_p, ctypes.c_char_p]),
    "EsAttrScopePop": (_i32, []),
    "EsSetGraphOutput": (_i32, [_c, _i64]),
    "EsBuildGraphAndReset": (_c, [_c]),
    "EsDestroyGraph": (None, [_c]),
    "EsCopyGraph": (_c, [_c]),
    "EsGraphNative": (_c, [_c]),
    "EsGraphSaveToAir": (_i32, [_c, ctypes.c_char_p]),
    "EsGraphLoadFromAir": (_c, [ctypes.c_char_p]),
    "EsGraphName": (ctypes.c_char_p, [_c]),
}

_lib = None


def esb_lib():
    """libeager_style_graph_builder_base.so with its function signatures set."""
    global _lib
    if _lib is None:
        lib = load_cdll("libeager_style_graph_builder_base.so")
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        _lib = lib
    return _lib


def last_error():
    text = esb_lib().EsLastError()
    return text.decode("utf-8", "replace") if text else ""


def check_status(status, what):
    """Raise RuntimeError with EsLastError when a call returned non-zero."""
    if status != 0:
        raise RuntimeError("{} failed: {}".format(what, last_error() or "unknown error"))


def check_handle(handle, what):
    """Raise RuntimeError with EsLastError when a call returned NULL; else the handle."""
    if not handle:
        raise RuntimeError("{} failed: {}".format(what, last_error() or "unknown error"))
    return handle


def int_array(values, what):
    vals = [as_int(v, what) for v in values]
    return (ctypes.c_int64 * len(vals))(*vals), len(vals)


def int_list(values, what):
    """(pointer, count) for a list-of-int attribute."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError("attribute '{}' must be a list of int, got {!r}".format(what, values))
    return int_array(values, what)


def as_int(value, what):
    if isinstance(value, bool) or not isinstance(value, int):
        if hasattr(value, "__index__") and not isinstance(value, bool):
            return int(value)
        raise TypeError("'{}' must be an int, got {!r}".format(what, value))
    return value


def as_bytes(value, what):
    if not isinstance(value, str):
        raise TypeError("attribute '{}' must be a str, got {!r}".format(what, value))
    return value.encode("utf-8")


def get_generated_lib(module_name):
    """libes_<module_name>.so (found through LD_LIBRARY_PATH, as the samples set it), after the base library."""
    esb_lib()
    return ctypes.CDLL("libes_{}.so".format(module_name), mode=ctypes.RTLD_GLOBAL)


def _holder_type():
    from ge.es.graph_builder import TensorHolder
    return TensorHolder


def holder_ptr(value, what, optional):
    if value is None:
        if optional:
            return None
        raise TypeError("input '{}' is required, got None".format(what))
    if not isinstance(value, _holder_type()):
        raise TypeError("input '{}' must be a TensorHolder, got {!r}".format(what, type(value).__name__))
    return value._handle


def holder_array(values, what):
    items = list(values)
    ptrs = [holder_ptr(v, what, False) for v in items]
    return (ctypes.c_void_p * len(ptrs))(*ptrs), len(ptrs)


def builder_ptr(builder):
    from ge.es.graph_builder import GraphBuilder
    if not isinstance(builder, GraphBuilder):
        raise TypeError("owner must be a GraphBuilder, got {!r}".format(type(builder).__name__))
    return builder._handle


def owner_of(*values):
    """The GraphBuilder that owns the first TensorHolder (or is itself given) among values."""
    from ge.es.graph_builder import GraphBuilder
    for v in values:
        if isinstance(v, GraphBuilder):
            return v
        if isinstance(v, _holder_type()):
            return v._builder
    raise TypeError("no input names a graph builder: pass at least one TensorHolder")


def outputs(handle, count, builder, op_type):
    """TensorHolder(s) for the node whose output-0 holder is `handle`."""
    if not handle:
        raise RuntimeError("creating a {} node failed: {}".format(op_type, last_error() or "unknown error"))
    holder = _holder_type()
    if count == 0:
        return None
    if count == 1:
        return holder(handle, builder)
    outs = []
    for k in range(count):
        h = esb_lib().EsNodeOutput(handle, k)
        outs.append(holder(h, builder))
    return tuple(outs)
