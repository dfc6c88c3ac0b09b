"""The Python side of OpenATC's embedder (sdk/python_host): loading plugins, validating every
callback against its op's IR at load, and running infer_meta / execute for the C++ adapters.

Values crossing the bridge are plain tuples: a tensor is (dims, dtype, format, addr, size), a
desc (dims, dtype). Python errors propagate to the embedder, which reports them with the
traceback.
"""
import inspect
import json
import threading

from ..runtime import StorageShape, Tensor, TensorDesc
from . import _compile, _context, _signature, proto, registry
from .._internal import plugin_loader

_lock = threading.RLock()
_instances = {}  # op_type -> instance of the registered class
_cpp_irs = {}  # op_type -> ir_meta of a C++ REG_OP prototype (set_cpp_protos)


def set_cpp_protos(text):
    """The REG_OP prototypes of the C++ deliverables, as a JSON object op_type -> ir_meta: the
    canonical IR of an op that has no @register_op prototype (a Python one replaces it, as GE)."""
    with _lock:
        _cpp_irs.clear()
        _cpp_irs.update(json.loads(text))


def _ir(op_type):
    p = proto.get_registered_op_proto(op_type)
    if p is not None:
        return p.ir_meta()
    with _lock:
        return _cpp_irs.get(op_type)


def _methods(desc):
    """(method name, function taking self) pairs of a descriptor's callbacks."""
    out = [("execute", registry._underlying(obj)) for obj in desc.kernel_bindings.values()]
    if not desc.kernel_bindings and "eager_execute" in desc.interfaces:
        out.append(("execute", registry._underlying(inspect.getattr_static(desc.cls, "execute"))))
    for name, interface in (("compile", "compilable"), ("declare_launch_args", "annotated_args")):
        if interface in desc.interfaces:
            out.append((name, registry._underlying(inspect.getattr_static(desc.cls, name))))
    return out


def validate_op_impl_descriptor(desc):
    ir = _ir(desc.op_type)
    for method, fn in _methods(desc):
        if _signature.is_legacy_execute(method, fn):
            continue
        if ir is None:
            raise RuntimeError("canonical IR not found for schema-bound %s: %s (declare the op with "
                               "@register_op(op_type=%r), or with REG_OP in a deliverable of "
                               "ASCEND_CUSTOM_OPP_PATH)" % (method, desc.op_type, desc.op_type))
        _signature.validate(method, fn, ir, desc.descriptor_key)


def load(opp_path):
    """Imports the plugins, validates them, and returns a JSON list of the ops they define."""
    plugin_loader.load_plugins(opp_path)
    ops = {}
    for desc in registry.get_registered_op_impls():
        validate_op_impl_descriptor(desc)
        ops[desc.op_type] = {"op_type": desc.op_type, "interfaces": list(desc.interfaces),
                             "descriptor_key": desc.descriptor_key, "infer_meta": False}
    for p in proto.get_registered_op_protos():
        entry = ops.setdefault(p.op_type, {"op_type": p.op_type, "interfaces": [], "descriptor_key": "",
                                           "infer_meta": False})
        entry["infer_meta"] = True
        entry["num_outputs"] = len(p.outputs)
    return json.dumps([ops[k] for k in sorted(ops)])


def _attrs(op_type, ir, native, handle):
    """IR attr name -> the node's value (or the prototype's default)."""
    p = proto.get_registered_op_proto(op_type)
    defaults = {n: d for n, _, d in p.attrs} if p is not None else {}
    values = {}
    for a in ir["attrs"]:
        status, value = native.get_attr(handle, a["name"], a["type"])
        if status == 2:
            raise TypeError("attr %s of %s has type %s, which OpenATC does not pass to Python callbacks yet"
                            % (a["name"], op_type, a["type"]))
        if status == 1:
            value = defaults.get(a["name"], inspect.Parameter.empty)
            if value is inspect.Parameter.empty:
                raise ValueError("the node of %s does not set attr %s, which has no default" % (op_type, a["name"]))
        values[a["name"]] = value
    return values


def call_infer_meta(op_type, inputs, native, handle):
    p = proto.get_registered_op_proto(op_type)
    ir = p.ir_meta()
    descs = [TensorDesc(list(dims), dtype) for dims, dtype in inputs]
    args, kwargs = _signature.bind("infer_meta", ir, descs, [], _attrs(op_type, ir, native, handle))
    result = p.fn(*args, **kwargs)
    results = result if isinstance(result, (tuple, list)) else ([] if result is None else [result])
    flat = []
    for r in results:
        flat.extend(r if isinstance(r, list) else [r])
    out = []
    for i, r in enumerate(flat):
        if not isinstance(r, TensorDesc):
            raise TypeError("infer_meta of %s returned %r for output %d; expected ge.runtime.TensorDesc"
                            % (op_type, r, i))
        shape = r.shape.origin_shape if isinstance(r.shape, StorageShape) else r.shape
        out.append((shape.dims, int(r.data_type)))
    return out


def _instance(desc):
    with _lock:
        obj = _instances.get(desc.op_type)
        if obj is None:
            obj = desc.cls()
            _instances[desc.op_type] = obj
        return obj


def call_execute(op_type, backend, inputs, num_outputs, native, handle):
    """Runs the op's execute for `backend` ("host" or "device") on borrowed input tensors."""
    desc = registry.get_registered_op_impl_by_op_type(op_type)
    be = registry.OpBackend(backend)
    fn = desc.kernel_bindings.get(be)
    fn = registry._underlying(fn) if fn is not None else registry._underlying(inspect.getattr_static(desc.cls, "execute"))
    obj = _instance(desc)
    ctx_cls = _context.HostCpuOpExecutionContext if be is registry.OpBackend.HOST else _context.EagerOpExecutionContext
    ctx = ctx_cls(native, handle, num_outputs)
    tensors = [ctx._borrow(*t) for t in inputs]
    if _signature.is_legacy_execute("execute", fn):
        try:
            result = fn(obj, ctx)
        finally:
            ctx._invalidate()
    else:
        ir = _ir(op_type)
        args, kwargs = _signature.bind("execute", ir, tensors, [], _attrs(op_type, ir, native, handle))
        with _context.execute_scope(ctx):
            result = fn(obj, *args, **kwargs)
    if result is not None:
        raise TypeError("execute of %s returned %r; a callback returns None and raises to fail" % (op_type, result))


def call_compile(op_type, callback, inputs, outputs, native, handle):
    """Runs the op's `callback` ("compile" or "declare_launch_args") on the instance that its
    execute and the other callback use, with the IR-bound inputs and outputs."""
    desc = registry.get_registered_op_impl_by_op_type(op_type)
    fn = registry._underlying(inspect.getattr_static(desc.cls, callback))
    obj = _instance(desc)
    if callback == "compile":
        ctx, scope = _compile.OpCompileContext(native, handle), _context.compile_scope
    else:
        ctx = _compile.AnnotatedArgsContext(native, handle, len(inputs), len(outputs))
        scope = _context.declare_launch_args_scope
    ins = [ctx._borrow(*t) for t in inputs]
    outs = [ctx._borrow(*t) for t in outputs]
    ir = _ir(op_type)
    args, kwargs = _signature.bind(callback, ir, ins, outs, _attrs(op_type, ir, native, handle))
    with scope(ctx):
        result = fn(obj, *args, **kwargs)
    if result is not None:
        raise TypeError("%s of %s returned %r; a callback returns None and raises to fail"
                        % (callback, op_type, result))


def clear():
    with _lock:
        _instances.clear()
        _cpp_irs.clear()
    registry.clear_registered_op_impls()
    proto.clear_registered_op_protos()


__all__ = ["load", "set_cpp_protos", "call_infer_meta", "call_execute", "call_compile", "validate_op_impl_descriptor",
           "clear", "Tensor"]
