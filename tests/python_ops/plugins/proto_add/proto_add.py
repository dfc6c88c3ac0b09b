"""ProtoAdd for the tests: no @register_op here, so compile and declare_launch_args bind to the C++
REG_OP prototype of tests/python_ops/proto_add.cc (x1, x2 -> y); the kernel is PY12_KERNEL_SO."""
import os

from ge.custom_op import AnnotatedKernelLaunchInfo, get_declare_launch_args_ctx, register_op_impl
from ge.runtime import Tensor


@register_op_impl(op_type="ProtoAdd")
class ProtoAdd:
    def compile(self, a: Tensor, b: Tensor, out: Tensor) -> None:
        print("[test] ProtoAdd compile", a.storage_shape.dims, out.storage_shape.dims)
        with open(os.environ["PY12_KERNEL_SO"], "rb") as f:
            self.kernel = f.read()

    def declare_launch_args(self, a: Tensor, b: Tensor, out: Tensor) -> None:
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, a)
        args.append_input(1, b)
        args.append_output(0, out)
        ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="add_custom", kernel_bin=self.kernel,
                                                 block_dim=a.shape_size // 1024, stream_id=ctx.get_stream_id()),
                       args)
