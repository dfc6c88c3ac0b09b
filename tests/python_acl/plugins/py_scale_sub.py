"""A device-backend Python op for tests/python_acl/test_session.py: PyScaleSub(x, y) = 3x - y,
whose execute launches the Ascend C kernel scale_sub (tests/python_acl/scale_sub.asc, 8 floats
per block) from the binary named by PY_ACL_TEST_KERNEL through acl. Each call appends one line
to PY_ACL_TEST_LOG; with PY_ACL_TEST_FAIL set, execute raises."""
import atexit
import ctypes
import os

import acl
from ge.custom_op import get_execute_ctx, register_op, register_op_impl
from ge.runtime import TensorDesc

_kernel = {}


def _check(ret, what):
    if ret != 0:
        raise RuntimeError("%s failed, ret=%d: %s" % (what, ret, acl.get_recent_err_msg()))


def _function():
    if "func" not in _kernel:
        handle, ret = acl.rt.binary_load_from_file(os.environ["PY_ACL_TEST_KERNEL"], [])
        _check(ret, "acl.rt.binary_load_from_file")
        atexit.register(acl.rt.binary_unload, handle)
        func, ret = acl.rt.binary_get_function(handle, "scale_sub")
        _check(ret, "acl.rt.binary_get_function")
        _kernel["func"] = func
    return _kernel["func"]


@register_op(op_type="PyScaleSub")
def py_scale_sub(x: TensorDesc, y: TensorDesc) -> TensorDesc:
    return TensorDesc(x.shape, x.data_type)


@register_op_impl(op_type="PyScaleSub")
class PyScaleSub:
    def execute(self, x, y):
        ctx = get_execute_ctx()
        if os.environ.get("PY_ACL_TEST_FAIL"):
            raise ValueError("PyScaleSub was told to fail")
        z = ctx.malloc_output_tensor(0, x.shape, x.format, x.data_type)
        func = _function()
        args, ret = acl.rt.kernel_args_init(func)
        _check(ret, "acl.rt.kernel_args_init")
        values = [ctypes.c_uint64(t.addr) for t in (x, y, z)]
        for v in values:
            _check(acl.rt.kernel_args_append(args, ctypes.addressof(v), 8)[1], "acl.rt.kernel_args_append")
        _check(acl.rt.kernel_args_finalize(args), "acl.rt.kernel_args_finalize")
        stream = ctx.get_stream()
        _check(acl.rt.launch_kernel_with_config(func, x.shape_size // 8, stream, [], args, 0),
               "acl.rt.launch_kernel_with_config")
        _check(acl.rt.synchronize_stream(stream), "acl.rt.synchronize_stream")
        with open(os.environ["PY_ACL_TEST_LOG"], "a") as log:
            log.write("execute %s n=%d pid=%d\n" % (type(ctx).__name__, x.shape_size, os.getpid()))
