"""The contexts of compile and declare_launch_args, and the launch-info types (README.md "Python
custom ops"). A context is borrowed from the C++ adapter that runs the callback (`native` = the
bridge's native module, `handle` = that adapter's call): once the callback returns, it and every
Tensor, WorkspaceAddr or AnnotatedKernelArgs taken from it raise RuntimeError("Borrowed native
object has expired"). Strings, ints and dicts the getters return are copies and stay valid.
"""
import json

from ..runtime import Tensor
from ._context import _Borrowed as _BorrowedBase

# Slot kinds crossing the bridge (sdk/python_host/src/bridge_abi.h, OaPySlotKind).
_INPUT, _OUTPUT, _WORKSPACE, _SCALAR = 0, 1, 2, 3


class _Borrowed(_BorrowedBase):
    """A compile-side context: the shared expiry rules plus queries to the native side."""

    def _query(self, what, a="", b=""):
        self._check()
        return self._native.query(self._handle, what, a, b)


class CompilePlatformInfo:
    """The target's platform facts as a Compile sees them (fe::PlatFormInfos / OptionalInfos): the
    emulated chip's under OPENATC_EMULATION=1 (common/src/chip_facts.cc), "host" for --soc_version host."""

    def __init__(self, owner):
        self._owner = owner

    def get_platform_resource(self, group, key):
        status, text = self._owner._query("res", str(group), str(key))
        if status != 0:
            raise KeyError("%s:%s" % (group, key))
        return text

    def get_platform_resource_group(self, group):
        status, text = self._owner._query("group", str(group))
        return json.loads(text) if status == 0 else {}

    def get_core_num(self, core_type=None):
        return int(self._owner._query("core_num", "" if core_type is None else str(core_type))[1] or 0)

    def get_soc_version(self):
        return self._owner._query("soc_version")[1]

    def get_ai_core_num(self):
        return int(self._owner._query("ai_core_num")[1] or 0)


class OpCompileContext(_Borrowed):
    """compile's context (gert::OpCompileContext)."""

    def __init__(self, native, handle):
        super().__init__(native, handle)
        self._platform = CompilePlatformInfo(self)

    def get_option(self, option_key):
        status, text = self._query("option", str(option_key))
        if status != 0:
            raise KeyError(option_key)
        return text


class WorkspaceAddr:
    def __init__(self, owner, index, addr):
        self._owner = owner
        self._index = index
        self._addr = addr

    @property
    def index(self):
        self._owner._check()
        return self._index

    @property
    def addr(self):
        self._owner._check()
        return self._addr


class AnnotatedKernelLaunchInfo:
    """One kernel launch: the kernel's entry name, its binary (copied), block_dim and stream."""

    def __init__(self, *, kernel_name, kernel_bin, block_dim, stream_id):
        if not isinstance(kernel_name, str) or not kernel_name:
            raise ValueError("AnnotatedKernelLaunchInfo: kernel_name must be a non-empty str, got %r" % (kernel_name,))
        if not isinstance(kernel_bin, (bytes, bytearray, memoryview)) or len(kernel_bin) == 0:
            raise ValueError("AnnotatedKernelLaunchInfo: kernel_bin must be non-empty bytes")
        if isinstance(block_dim, bool) or not isinstance(block_dim, int) or not 0 < block_dim < 2 ** 32:
            raise ValueError("AnnotatedKernelLaunchInfo: block_dim must be an int in [1, 2^32), got %r" % (block_dim,))
        if isinstance(stream_id, bool) or not isinstance(stream_id, int) or not 0 <= stream_id < 2 ** 32:
            raise ValueError("AnnotatedKernelLaunchInfo: stream_id must be an int in [0, 2^32), got %r" % (stream_id,))
        self.kernel_name = kernel_name
        self.kernel_bin = bytes(kernel_bin)
        self.block_dim = block_dim
        self.stream_id = stream_id


class AnnotatedKernelArgs:
    """A launch's argument list: node inputs/outputs by flattened instance index, workspaces, scalars."""

    def __init__(self, owner):
        self._owner = owner
        self._slots = []
        self._used = False

    def _append(self, kind, index, value=0):
        self._owner._check()
        if self._used:
            raise RuntimeError("AnnotatedKernelArgs were already consumed by add_launch")
        self._slots.append((kind, index, value))

    def _tensor_slot(self, kind, index, tensor, count, what):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise IndexError("append_%s: index %r out of range (the node has %d %ss)" % (what, index, count, what))
        if not isinstance(tensor, Tensor):
            raise TypeError("append_%s: expected a ge.runtime.Tensor, got %r" % (what, tensor))
        tensor.addr  # raises when the tensor has expired
        self._append(kind, index)

    def append_input(self, instance_index, tensor):
        self._tensor_slot(_INPUT, instance_index, tensor, self._owner._num_inputs, "input")

    def append_output(self, instance_index, tensor):
        self._tensor_slot(_OUTPUT, instance_index, tensor, self._owner._num_outputs, "output")

    def append_workspace(self, ws):
        if not isinstance(ws, WorkspaceAddr) or ws._owner is not self._owner:
            raise TypeError("append_workspace: expected a WorkspaceAddr from this context's malloc_workspace")
        self._append(_WORKSPACE, ws.index)

    def append_scalar(self, value):
        if isinstance(value, bool) or not isinstance(value, int) or not -2 ** 63 <= value < 2 ** 64:
            raise ValueError("append_scalar: expected an int that fits 64 bits, got %r" % (value,))
        self._append(_SCALAR, 0, value & (2 ** 64 - 1))


class AnnotatedArgsContext(_Borrowed):
    """declare_launch_args' context (gert::AnnotatedArgsContext)."""

    def __init__(self, native, handle, num_inputs, num_outputs):
        super().__init__(native, handle)
        self._num_inputs = num_inputs
        self._num_outputs = num_outputs

    def get_stream_id(self):
        return int(self._query("stream_id")[1])

    def malloc_workspace(self, size):
        if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
            raise ValueError("malloc_workspace: size must be a positive int, got %r" % (size,))
        status, text = self._query("workspace", str(size))
        if status != 0:
            raise RuntimeError("malloc_workspace(%d) failed" % size)
        index, addr = (int(v) for v in text.split())
        return WorkspaceAddr(self, index, addr)

    def create_kernel_args(self):
        self._check()
        return AnnotatedKernelArgs(self)

    def add_launch(self, launch_info, args):
        self._check()
        if not isinstance(launch_info, AnnotatedKernelLaunchInfo):
            raise TypeError("add_launch: expected an AnnotatedKernelLaunchInfo, got %r" % (launch_info,))
        if not isinstance(args, AnnotatedKernelArgs) or args._owner is not self:
            raise TypeError("add_launch: expected AnnotatedKernelArgs from this context's create_kernel_args()")
        if args._used:
            raise RuntimeError("add_launch: these AnnotatedKernelArgs were already consumed")
        args._used = True
        error = self._native.add_launch(self._handle, launch_info.kernel_name, launch_info.kernel_bin,
                                        launch_info.block_dim, launch_info.stream_id, list(args._slots))
        if error:
            raise RuntimeError("add_launch failed: %s" % error)
