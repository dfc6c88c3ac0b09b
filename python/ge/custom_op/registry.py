"""@register_op_impl, @register_kernel and OpBackend: the Python op registry.

Capabilities come from method names only: `execute` (plain or DEVICE kernel) -> eager_execute,
`execute` under @register_kernel(backend=OpBackend.HOST) -> host_cpu_execute, `compile` ->
compilable, `declare_launch_args` -> annotated_args.
"""
import inspect
import sys
import threading
from enum import Enum

SUPPORTED_METHODS = ("execute", "compile", "declare_launch_args")
_BINDINGS_KEY = "__ge_kernel_bindings__"
_lock = threading.RLock()
_impls = {}  # descriptor_key -> OpImplDescriptor
_by_type = {}  # op_type -> descriptor_key


class OpBackend(Enum):
    DEVICE = "device"
    HOST = "host"


class OpImplDescriptor:
    __slots__ = ("descriptor_key", "op_type", "module_name", "class_name", "interfaces", "cls", "kernel_bindings")

    def __init__(self, descriptor_key, op_type, module_name, class_name, interfaces, cls, kernel_bindings):
        self.descriptor_key = descriptor_key
        self.op_type = op_type
        self.module_name = module_name
        self.class_name = class_name
        self.interfaces = tuple(interfaces)
        self.cls = cls
        self.kernel_bindings = dict(kernel_bindings)

    def to_bridge_dict(self):
        return {"descriptor_key": self.descriptor_key, "op_type": self.op_type, "module_name": self.module_name,
                "class_name": self.class_name, "interfaces": list(self.interfaces)}

    def __repr__(self):
        return "OpImplDescriptor(%r)" % self.descriptor_key


def _where(fn):
    code = getattr(fn, "__code__", None)
    return "%s:%d" % (code.co_filename, code.co_firstlineno) if code else repr(fn)


def _underlying(obj):
    return obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj


def register_kernel(*, backend):
    """Marks a class body's `execute` as the kernel of `backend` (an OpBackend member)."""
    if not isinstance(backend, OpBackend):
        raise TypeError("register_kernel backend must be an OpBackend member, got %r" % (backend,))

    def decorate(obj):
        fn = _underlying(obj)
        if not callable(fn) or getattr(fn, "__name__", None) != "execute":
            raise TypeError("register_kernel may only decorate a method named 'execute', got %r" % (obj,))
        namespace = sys._getframe(1).f_locals
        if "__module__" not in namespace or "__qualname__" not in namespace:
            raise TypeError("register_kernel must be used in a class body (%s)" % _where(fn))
        bindings = namespace.setdefault(_BINDINGS_KEY, {})
        if backend in bindings:
            raise TypeError("duplicate execute for backend %s: %s and %s" %
                            (backend.name, _where(_underlying(bindings[backend])), _where(fn)))
        bindings[backend] = obj
        try:
            fn.__ge_kernel_backend__ = backend
        except AttributeError:
            raise TypeError("register_kernel must be the outermost decorator of execute (%s)" % _where(fn))
        return obj

    return decorate


def _interfaces(cls, op_type):
    interfaces = []
    bindings = dict(cls.__dict__.get(_BINDINGS_KEY, {}))
    execute = inspect.getattr_static(cls, "execute", None)
    if execute is not None:
        marked = getattr(_underlying(execute), "__ge_kernel_backend__", None)
        if bindings and marked is None:
            raise TypeError("class %s (op type %s) uses register_kernel, so every execute must carry it "
                            "(%s has none)" % (cls.__name__, op_type, _where(_underlying(execute))))
        if not bindings:
            interfaces.append("eager_execute")
        else:
            if OpBackend.DEVICE in bindings:
                interfaces.append("eager_execute")
            if OpBackend.HOST in bindings:
                interfaces.append("host_cpu_execute")
    compile_attr = inspect.getattr_static(cls, "compile", None)
    if compile_attr is not None:
        if not callable(_underlying(compile_attr)):
            raise TypeError("class %s (op type %s): compile must be callable" % (cls.__name__, op_type))
        interfaces.append("compilable")
    if inspect.getattr_static(cls, "declare_launch_args", None) is not None:
        interfaces.append("annotated_args")
    return interfaces, bindings


def register_op_impl(*, op_type):
    """Class decorator registering a Python custom op implementation of `op_type`."""
    if not isinstance(op_type, str) or not op_type:
        raise TypeError("register_op_impl op_type must be a non-empty str, got %r" % (op_type,))

    def decorate(cls):
        if not inspect.isclass(cls):
            raise TypeError("register_op_impl(op_type=%r) must decorate a class, got %r" % (op_type, cls))
        if inspect.isabstract(cls):
            raise TypeError("register_op_impl(op_type=%r): class %s is abstract" % (op_type, cls.__name__))
        interfaces, bindings = _interfaces(cls, op_type)
        if not interfaces:
            raise TypeError("class %s (op type %s) has no supported method; define one of %s" %
                            (cls.__name__, op_type, ", ".join(SUPPORTED_METHODS)))
        key = "%s:%s:%s" % (cls.__module__, cls.__qualname__, op_type)
        with _lock:
            if op_type in _by_type:
                raise ValueError("op type %s is already registered by %s" % (op_type, _by_type[op_type]))
            if key in _impls:
                raise ValueError("descriptor key %s is already registered" % key)
            desc = OpImplDescriptor(key, op_type, cls.__module__, cls.__qualname__, interfaces, cls, bindings)
            _impls[key] = desc
            _by_type[op_type] = key
        cls.__ge_op_impl_descriptor__ = desc
        return cls

    return decorate


def get_registered_op_impls():
    with _lock:
        return list(_impls.values())


def get_registered_op_impl_dicts():
    with _lock:
        return [d.to_bridge_dict() for d in _impls.values()]


def get_registered_op_impl_by_descriptor_key(key):
    with _lock:
        return _impls.get(key)


def get_registered_op_impl_by_op_type(op_type):
    with _lock:
        key = _by_type.get(op_type)
        return _impls.get(key) if key else None


def clear_registered_op_impls():
    with _lock:
        _impls.clear()
        _by_type.clear()
