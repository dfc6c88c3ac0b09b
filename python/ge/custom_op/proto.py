"""@register_op: a Python function whose signature is an op's IR and whose body is its infer_meta.

Positional parameters are inputs (TensorDesc, Optional[TensorDesc], List[TensorDesc]); keyword-only
parameters are attrs; the return annotation gives the outputs (None, TensorDesc, List[TensorDesc]
or a Tuple of those). Outputs are named output0, output1, ... (callbacks bind them by position).
"""
import inspect
import threading
import typing

from ..graph.types import DataType
from ..runtime import Tensor, TensorDesc

_lock = threading.RLock()
_protos = {}  # op_type -> OpProtoDescriptor

_ATTR_TYPES = [(int, "int"), (float, "float"), (bool, "bool"), (str, "str"), (DataType, "data_type"),
               (Tensor, "tensor"), (typing.List[int], "list_int"), (typing.List[float], "list_float"),
               (typing.List[bool], "list_bool"), (typing.List[str], "list_str"),
               (typing.List[DataType], "list_data_type"), (typing.List[typing.List[int]], "list_list_int")]


def attr_type_name(annotation):
    """The IR attr type of an annotation ("int", "list_int", ...), or None."""
    for t, name in _ATTR_TYPES:
        if annotation is t or annotation == t:
            return name
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is list and len(args) == 1:
        for t, name in _ATTR_TYPES:
            if name.startswith("list_") and typing.get_args(t) and _same(typing.get_args(t)[0], args[0]):
                return name
    return None


def _same(a, b):
    if a is b or a == b:
        return True
    if typing.get_origin(a) is list and typing.get_origin(b) is list:
        return _same(typing.get_args(a)[0], typing.get_args(b)[0])
    return False


def _input_kind(annotation):
    if annotation is TensorDesc:
        return "required"
    if annotation == typing.Optional[TensorDesc]:
        return "optional"
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (TensorDesc,):
        return "dynamic"
    return None


def _output_kinds(annotation, op_type):
    if annotation is None or annotation is type(None):
        return []
    if annotation is TensorDesc:
        return ["required"]
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (TensorDesc,):
        return ["dynamic"]
    if typing.get_origin(annotation) is tuple:
        kinds = []
        for a in typing.get_args(annotation):
            kinds.extend(_output_kinds(a, op_type))
        return kinds
    raise TypeError("register_op(op_type=%r): unsupported return annotation %r; use None, TensorDesc, "
                    "List[TensorDesc] or a Tuple of those" % (op_type, annotation))


class OpProtoDescriptor:
    def __init__(self, op_type, fn, inputs, attrs, outputs, mutates_args):
        self.op_type = op_type
        self.fn = fn
        self.inputs = inputs  # [(name, kind)]
        self.attrs = attrs  # [(name, type, default or inspect.Parameter.empty)]
        self.outputs = outputs  # [(name, kind)]
        self.mutates_args = tuple(mutates_args)

    def ir_meta(self):
        return {"op_type": self.op_type, "inputs": [{"name": n, "kind": k} for n, k in self.inputs],
                "attrs": [{"name": n, "type": t} for n, t, _ in self.attrs],
                "outputs": [{"name": n, "kind": k} for n, k in self.outputs]}

    def _key(self):
        return (self.inputs, [(n, t, repr(d)) for n, t, d in self.attrs], self.outputs, self.mutates_args)


def _parse(fn, op_type, mutates_args):
    try:
        hints = typing.get_type_hints(fn)
    except Exception as e:  # unresolvable annotations
        raise TypeError("register_op(op_type=%r): cannot resolve the annotations of %s: %s" %
                        (op_type, fn.__qualname__, e)) from None
    inputs, attrs = [], []
    for p in inspect.signature(fn).parameters.values():
        ann = hints.get(p.name, inspect.Parameter.empty)
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            kind = _input_kind(ann)
            if kind is None:
                raise TypeError("register_op(op_type=%r): input %s must be annotated TensorDesc, "
                                "Optional[TensorDesc] or List[TensorDesc]" % (op_type, p.name))
            if p.default is not p.empty:
                raise TypeError("register_op(op_type=%r): input %s must not have a default" % (op_type, p.name))
            inputs.append((p.name, kind))
        elif p.kind == p.KEYWORD_ONLY:
            t = attr_type_name(ann)
            if t is None:
                raise TypeError("register_op(op_type=%r): attr %s has unsupported annotation %r" %
                                (op_type, p.name, ann))
            if t == "tensor" and p.default is not p.empty:
                raise TypeError("register_op(op_type=%r): Tensor attr %s must not have a default" % (op_type, p.name))
            attrs.append((p.name, t, p.default))
        else:
            raise TypeError("register_op(op_type=%r): *args and **kwargs are not allowed (%s)" % (op_type, p.name))
    kinds = _output_kinds(hints.get("return", None), op_type)
    outputs = [("output%d" % i, k) for i, k in enumerate(kinds)]
    names = [n for n, _ in inputs]
    pairs = [m for m in mutates_args if isinstance(m, tuple)]
    if pairs and len(pairs) != len(mutates_args):
        raise ValueError("register_op(op_type=%r): mutates_args mixes names and pairs" % op_type)
    for m in mutates_args:
        name = m[0] if isinstance(m, tuple) else m
        if name not in names:
            raise ValueError("register_op(op_type=%r): mutates_args names %r, which is not an input" % (op_type, name))
    return OpProtoDescriptor(op_type, fn, inputs, attrs, outputs, mutates_args)


def register_op(*, op_type, mutates_args=()):
    """Registers `op_type`'s IR prototype; the decorated function is its infer_meta."""
    if not isinstance(op_type, str) or not op_type:
        raise TypeError("register_op op_type must be a non-empty str, got %r" % (op_type,))

    def decorate(fn):
        if not callable(fn):
            raise TypeError("register_op(op_type=%r) must decorate a function" % op_type)
        desc = _parse(fn, op_type, tuple(mutates_args))
        with _lock:
            old = _protos.get(op_type)
            if old is not None and old._key() != desc._key():
                raise ValueError("register_op(op_type=%r): a different prototype is already registered" % op_type)
            if old is None:
                _protos[op_type] = desc
        fn.__ge_op_proto_descriptor__ = _protos[op_type]
        return fn

    return decorate


def get_registered_op_proto(op_type):
    with _lock:
        return _protos.get(op_type)


def get_registered_op_protos():
    with _lock:
        return list(_protos.values())


def clear_registered_op_protos():
    with _lock:
        _protos.clear()
