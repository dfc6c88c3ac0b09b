"""HOST-backend Python ops for tests/python_graph: PgAdd(x, y) = x + 2*y (float32), and PgFail,
whose execute raises. CALLS records every execute so the test sees they ran in its interpreter."""
import ctypes

from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
from ge.runtime import Tensor, TensorDesc

CALLS = []


@register_op(op_type="PgAdd")
def pg_add(x: TensorDesc, y: TensorDesc) -> TensorDesc:
    return TensorDesc(x.shape, x.data_type)


@register_op_impl(op_type="PgAdd")
class PgAddHost:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x: Tensor, y: Tensor) -> None:
        CALLS.append("PgAdd")
        out = get_execute_ctx().malloc_output_tensor(0, x.shape, x.format, x.data_type)
        floats = ctypes.c_float * x.shape_size
        a, b, c = floats.from_address(x.addr), floats.from_address(y.addr), floats.from_address(out.addr)
        for i in range(x.shape_size):
            c[i] = a[i] + 2 * b[i]


@register_op(op_type="PgFail")
def pg_fail(x: TensorDesc) -> TensorDesc:
    return TensorDesc(x.shape, x.data_type)


@register_op_impl(op_type="PgFail")
class PgFailHost:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x: Tensor) -> None:
        CALLS.append("PgFail")
        raise ValueError("pg_fail refuses on purpose")
