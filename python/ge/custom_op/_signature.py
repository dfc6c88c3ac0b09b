"""Schema-bound callbacks: a callback's signature is checked against the op's IR once, at load,
and its arguments are bound from the IR at each call (inputs, then outputs for compile and
declare_launch_args, positionally; attrs as keywords with the IR names)."""
import inspect
import typing

from ..graph.types import DataType
from ..runtime import Tensor
from .proto import attr_type_name

WITH_OUTPUTS = ("compile", "declare_launch_args")
_TENSOR_TYPES = {"required": "Tensor", "optional": "Optional[Tensor]", "dynamic": "list[Tensor]"}


def is_legacy_execute(method, fn):
    params = [p for p in inspect.signature(fn).parameters.values()][1:]
    return method == "execute" and len(params) == 1 and params[0].name == "ctx" and \
        params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD)


def _tensor_kind(annotation):
    if annotation is Tensor:
        return "required"
    if annotation == typing.Optional[Tensor]:
        return "optional"
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (Tensor,):
        return "dynamic"
    return None


def _expected(method, ir):
    slots = ["%s: %s" % (e["name"], _TENSOR_TYPES[e["kind"]]) for e in ir["inputs"]]
    if method in WITH_OUTPUTS:
        slots += ["%s: %s" % (e["name"], _TENSOR_TYPES[e["kind"]]) for e in ir["outputs"]]
    attrs = ["%s: %s" % (a["name"], a["type"]) for a in ir["attrs"]]
    return "(self" + "".join(", " + s for s in slots) + (", *, " + ", ".join(attrs) if attrs else "") + ") -> None"


def _actual(fn):
    return str(inspect.signature(fn))


def validate(method, fn, ir, descriptor_key):
    """Raises TypeError when `fn` (an unbound method taking self) cannot be bound to `ir`."""
    def fail(why):
        raise TypeError("invalid %s signature for op type %s, descriptor key %s, method %s: expected %s, actual %s (%s)"
                        % (method, ir["op_type"], descriptor_key, method, _expected(method, ir), _actual(fn), why))
    try:
        hints = typing.get_type_hints(fn)
    except Exception as e:
        fail("unresolvable annotation: %s" % e)
    if "return" in hints and hints["return"] is not type(None):
        fail("the return annotation must be None")
    params = list(inspect.signature(fn).parameters.values())[1:]
    if is_legacy_execute(method, fn):
        return
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            fail("*args and **kwargs are not allowed")
    slots = list(ir["inputs"]) + (list(ir["outputs"]) if method in WITH_OUTPUTS else [])
    if len(params) != len(slots) + len(ir["attrs"]):
        fail("%d parameters after self, the IR has %d" % (len(params), len(slots) + len(ir["attrs"])))
    for p, slot in zip(params, slots):
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            fail("parameter %s for %s must be positional" % (p.name, slot["name"]))
        if p.name in hints and _tensor_kind(hints[p.name]) != slot["kind"]:
            fail("parameter %s must be annotated %s" % (p.name, _TENSOR_TYPES[slot["kind"]]))
    for p, attr in zip(params[len(slots):], ir["attrs"]):
        if p.kind != p.KEYWORD_ONLY or p.name != attr["name"]:
            fail("attr %s must be keyword-only and named as in the IR" % attr["name"])
        if p.name in hints and attr_type_name(hints[p.name]) != attr["type"]:
            fail("attr %s must be annotated %s" % (p.name, attr["type"]))


def _group(tensors, slots):
    """Flattened tensors -> one argument per IR slot (dynamic slots take the rest in order)."""
    args, i = [], 0
    n_dynamic = sum(1 for s in slots if s["kind"] == "dynamic")
    fixed = len(slots) - n_dynamic
    for s in slots:
        if s["kind"] == "dynamic":
            count = (len(tensors) - fixed) // n_dynamic if n_dynamic else 0
            args.append(list(tensors[i:i + count]))
            i += count
        elif s["kind"] == "optional" and i >= len(tensors):
            args.append(None)
        else:
            args.append(tensors[i])
            i += 1
    return args


def bind(method, ir, inputs, outputs, attrs):
    """(args, kwargs) for a schema-bound call; `attrs` maps IR attr names to values."""
    args = _group(inputs, ir["inputs"])
    if method in WITH_OUTPUTS:
        args += _group(outputs, ir["outputs"])
    kwargs = {}
    for a in ir["attrs"]:
        value = attrs.get(a["name"])
        if a["type"] == "data_type" and isinstance(value, int):
            value = DataType(value)
        kwargs[a["name"]] = value
    return args, kwargs
