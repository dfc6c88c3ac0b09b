"""A Python op with compile + declare_launch_args for the tests: CompiledAdd(x1, x2) -> y.

compile reads the platform answers, keeps the kernel bytes (the .so named by PY12_KERNEL_SO,
tests/python_ops/add_kernel.cc) and block_dim on `self`; declare_launch_args publishes them, and
fails when compile did not run on the same instance. PY12_COMPILE_RAISE=1 makes compile raise.
"""
import os

from ge.custom_op import (AnnotatedKernelLaunchInfo, get_compile_ctx, get_compile_platform_info,
                          get_declare_launch_args_ctx, register_op, register_op_impl)
from ge.runtime import Tensor, TensorDesc

print("COMPILED_ADD_MODULE_LOADED=1")


@register_op(op_type="CompiledAdd")
def compiled_add(x1: TensorDesc, x2: TensorDesc) -> TensorDesc:
    return TensorDesc(x1.shape, x1.data_type)


def _fail_in_compile(n):
    raise ValueError("compile refused %d elements" % n)


@register_op_impl(op_type="CompiledAdd")
class CompiledAdd:
    def __init__(self):
        self.kernel = None

    def compile(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        info = get_compile_platform_info()
        arch = info.get_platform_resource("version", "NpuArch")
        print("[test] compile instance=%x soc=%s arch=%s shape=%s out=%s" % (
            id(self), info.get_soc_version(), arch, x1.shape.origin_shape.dims, y.shape.origin_shape.dims))
        try:
            get_compile_ctx().get_option("no.such.option")
        except KeyError:
            print("[test] option no.such.option: KeyError")
        if os.environ.get("PY12_COMPILE_RAISE") == "1":
            _fail_in_compile(x1.shape_size)
        with open(os.environ["PY12_KERNEL_SO"], "rb") as f:
            self.kernel = (f.read(), x1.shape_size // 1024)

    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        if self.kernel is None:
            raise RuntimeError("CompiledAdd compile cache miss")
        ctx = get_declare_launch_args_ctx()
        print("[test] declare_launch_args instance=%x block_dim=%d stream=%d" % (id(self), self.kernel[1],
                                                                                  ctx.get_stream_id()))
        args = ctx.create_kernel_args()
        args.append_input(0, x1)
        args.append_input(1, x2)
        args.append_output(0, y)
        ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="add_custom", kernel_bin=self.kernel[0],
                                                 block_dim=self.kernel[1], stream_id=ctx.get_stream_id()), args)
