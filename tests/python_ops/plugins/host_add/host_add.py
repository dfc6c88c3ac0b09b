"""A HOST-backend Python op for the tests: AddCustom(x, y) = x + y on float32 host memory."""
import ctypes

from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
from ge.runtime import Tensor, TensorDesc

print("HOST_ADD_MODULE_LOADED=1")


@register_op(op_type="AddCustom")
def add_custom(x: TensorDesc, y: TensorDesc) -> TensorDesc:
    print("[test] infer_meta AddCustom", x.shape.origin_shape.dims, int(x.data_type))
    if x.shape.origin_shape.dims != y.shape.origin_shape.dims or x.data_type != y.data_type:
        raise ValueError("AddCustom needs equal shapes and dtypes")
    return TensorDesc(x.shape, x.data_type)


@register_op_impl(op_type="AddCustom")
class HostAdd:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x: Tensor, y: Tensor) -> None:
        ctx = get_execute_ctx()
        print("[test] host execute AddCustom", type(ctx).__name__)
        out = ctx.malloc_output_tensor(0, x.shape, x.format, x.data_type)
        n = x.shape_size
        floats = ctypes.c_float * n
        a = floats.from_address(x.addr)
        b = floats.from_address(y.addr)
        c = floats.from_address(out.addr)
        for i in range(n):
            c[i] = a[i] + b[i]
