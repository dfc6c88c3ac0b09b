"""ge.custom_op: Python custom ops for OpenATC (README.md "Python custom ops")."""
from ._compile import (AnnotatedArgsContext, AnnotatedKernelArgs, AnnotatedKernelLaunchInfo,  # noqa: F401
                       CompilePlatformInfo, OpCompileContext, WorkspaceAddr)
from ._context import (EagerOpExecutionContext, HostCpuOpExecutionContext, get_compile_ctx,  # noqa: F401
                       get_compile_platform_info, get_declare_launch_args_ctx, get_execute_ctx)
from .proto import get_registered_op_proto, register_op  # noqa: F401
from .registry import (OpBackend, OpImplDescriptor, clear_registered_op_impls,  # noqa: F401
                       get_registered_op_impl_by_descriptor_key, get_registered_op_impl_dicts,
                       get_registered_op_impls, register_kernel, register_op_impl)

__all__ = ["register_op_impl", "register_op", "register_kernel", "OpBackend", "get_execute_ctx",
           "get_compile_ctx", "get_compile_platform_info", "get_declare_launch_args_ctx",
           "HostCpuOpExecutionContext", "EagerOpExecutionContext", "OpCompileContext", "CompilePlatformInfo",
           "AnnotatedArgsContext", "AnnotatedKernelArgs", "AnnotatedKernelLaunchInfo", "WorkspaceAddr",
           "get_registered_op_impls", "get_registered_op_impl_dicts", "get_registered_op_impl_by_descriptor_key",
           "clear_registered_op_impls", "get_registered_op_proto"]
