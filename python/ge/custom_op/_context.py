"""Callback contexts and their scopes: get_execute_ctx() and friends work only inside the callback
that set them (a contextvars scope; nested calls restore the outer value)."""
import contextlib
import contextvars

from ..runtime import Shape, StorageFormat, StorageShape, Tensor

_execute_ctx = contextvars.ContextVar("ge_execute_ctx", default=None)


def get_execute_ctx():
    ctx = _execute_ctx.get()
    if ctx is None:
        raise RuntimeError("get_execute_ctx() is only available inside execute")
    return ctx


_compile_ctx = contextvars.ContextVar("ge_compile_ctx", default=None)
_declare_ctx = contextvars.ContextVar("ge_declare_launch_args_ctx", default=None)


def get_compile_ctx():
    ctx = _compile_ctx.get()
    if ctx is None:
        raise RuntimeError("get_compile_ctx() is only available inside compile")
    return ctx


def get_compile_platform_info():
    ctx = _compile_ctx.get()
    if ctx is None:
        raise RuntimeError("get_compile_platform_info() is only available inside compile")
    return ctx._platform


def get_declare_launch_args_ctx():
    ctx = _declare_ctx.get()
    if ctx is None:
        raise RuntimeError("get_declare_launch_args_ctx() is only available inside declare_launch_args")
    return ctx


@contextlib.contextmanager
def _scope(var, ctx):
    token = var.set(ctx)
    try:
        yield ctx
    finally:
        var.reset(token)
        ctx._invalidate()


def execute_scope(ctx):
    return _scope(_execute_ctx, ctx)


def compile_scope(ctx):
    return _scope(_compile_ctx, ctx)


def declare_launch_args_scope(ctx):
    return _scope(_declare_ctx, ctx)


def _dims(shape):
    if isinstance(shape, StorageShape):
        return shape.storage_shape.dims
    if isinstance(shape, Shape):
        return shape.dims
    return [int(d) for d in shape]


def _format(fmt):
    return int(fmt.storage_format) if isinstance(fmt, StorageFormat) else int(fmt)


class _Borrowed:
    """A context lent by the native side for one callback: it and the tensors it handed out
    expire (RuntimeError on use) when the callback returns."""

    def __init__(self, native, handle):
        self._native = native
        self._handle = handle
        self._borrowed = []

    def _check(self):
        if self._handle is None:
            raise RuntimeError("Borrowed native object has expired")

    def _invalidate(self):
        self._handle = None
        for t in self._borrowed:
            t._invalidate()

    def _borrow(self, dims, dtype, fmt, addr, size):
        t = Tensor._borrow(dims, dtype, fmt, addr, size)
        self._borrowed.append(t)
        return t


class _ExecutionContextBase(_Borrowed):
    """Output allocation through the runtime that drives the callback (`native` = the bridge's
    native module, `handle` = the runtime's context for this call)."""

    def __init__(self, native, handle, num_outputs):
        super().__init__(native, handle)
        self._outputs = [None] * num_outputs

    def malloc_output_tensor(self, index, shape, format, dtype):
        self._check()
        if not 0 <= index < len(self._outputs):
            raise RuntimeError("malloc_output_tensor: output index %d out of range (the node has %d outputs)"
                               % (index, len(self._outputs)))
        dims = _dims(shape)
        addr, size = self._native.malloc_output(self._handle, index, dims, _format(format), int(dtype))
        if not addr:
            raise RuntimeError("malloc_output_tensor(%d) failed: the runtime gave no memory" % index)
        self._outputs[index] = self._borrow(dims, dtype, _format(format), addr, size)
        return self._outputs[index]

    def get_output_tensor(self, index):
        self._check()
        if not 0 <= index < len(self._outputs):
            raise RuntimeError("get_output_tensor: output index %d out of range" % index)
        return self._outputs[index]

    def make_output_ref_input(self, output_index, input_index):
        raise RuntimeError("make_output_ref_input is not supported by OpenATC yet")


class HostCpuOpExecutionContext(_ExecutionContextBase):
    """The HOST backend's execute context: host memory, no stream, no workspace."""


class EagerOpExecutionContext(_ExecutionContextBase):
    """The DEVICE backend's execute context."""

    def get_stream(self):
        self._check()
        return 0

    def malloc_workspace(self, size):
        raise RuntimeError("malloc_workspace is not supported by OpenATC yet")
