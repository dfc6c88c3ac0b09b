"""ge.custom_op's compile and declare_launch_args contexts in plain python3 (README.md "Python custom
ops"): the bridge's call_compile with a stand-in native module, the getters' scopes, the launch-info
checks, and borrowed objects expiring after the callback."""
import json
import unittest

from ge.custom_op import (AnnotatedKernelLaunchInfo, get_compile_ctx, get_compile_platform_info,
                          get_declare_launch_args_ctx, register_op, register_op_impl)
from ge.custom_op import _bridge
from ge.runtime import Tensor, TensorDesc


class _Native:
    """Stands in for the bridge's native module: answers queries from a table, records launches."""

    def __init__(self):
        self.launches = []
        self.answers = {("res", "version", "NpuArch"): "2201", ("soc_version", "", ""): "Ascend910B1",
                        ("group", "version", ""): json.dumps({"NpuArch": "2201", "SoC_version": "Ascend910B1"}),
                        ("core_num", "", ""): "24", ("core_num", "VectorCore", ""): "48",
                        ("ai_core_num", "", ""): "24", ("option", "ge.exec.deviceId", ""): "0",
                        ("stream_id", "", ""): "5", ("workspace", "64", ""): "0 268435456"}

    def get_attr(self, handle, name, type_name):
        return 1, None

    def query(self, handle, what, a, b):
        text = self.answers.get((what, a, b))
        return (1, "") if text is None else (0, text)

    def add_launch(self, handle, name, kernel_bin, block_dim, stream_id, slots):
        self.launches.append((handle, name, kernel_bin, block_dim, stream_id, slots))
        return ""


X = ([2048], 0, 2, 0, 8192)  # (dims, DT_FLOAT, FORMAT_ND, addr, bytes) as the bridge passes tensors


def _proto():
    @register_op(op_type="Cadd")
    def cadd(x: TensorDesc, y: TensorDesc) -> TensorDesc:
        return TensorDesc(x.shape, x.data_type)


class CompileCallbackTest(unittest.TestCase):
    def setUp(self):
        _bridge.clear()
        self.addCleanup(_bridge.clear)
        _proto()

    def test_one_instance_and_platform_answers(self):
        seen = []

        @register_op_impl(op_type="Cadd")
        class Cadd:
            def compile(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                info = get_compile_platform_info()
                seen.append(("compile", id(self), info.get_platform_resource("version", "NpuArch"),
                             info.get_soc_version(), info.get_core_num(), info.get_core_num("VectorCore"),
                             info.get_ai_core_num(), info.get_platform_resource_group("version")["SoC_version"],
                             get_compile_ctx().get_option("ge.exec.deviceId"), z.shape.origin_shape.dims))
                self.bin = b"\x7fELF-kernel"
                try:
                    info.get_platform_resource("version", "Nope")
                except KeyError as e:
                    seen.append(("KeyError", str(e)))

            def declare_launch_args(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                ctx = get_declare_launch_args_ctx()
                seen.append(("declare", id(self)))
                ws = ctx.malloc_workspace(64)
                args = ctx.create_kernel_args()
                args.append_input(1, y)
                args.append_output(0, z)
                args.append_workspace(ws)
                args.append_scalar(-1)
                ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=self.bin, block_dim=2,
                                                         stream_id=ctx.get_stream_id()), args)
                try:
                    ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=b"x", block_dim=1,
                                                             stream_id=0), args)
                except RuntimeError as e:
                    seen.append(("reuse", str(e)))

        native = _Native()
        _bridge.call_compile("Cadd", "compile", [X, X], [X], native, 11)
        _bridge.call_compile("Cadd", "declare_launch_args", [X, X], [X], native, 12)
        self.assertEqual(seen[0][2:], ("2201", "Ascend910B1", 24, 48, 24, "Ascend910B1", "0", [2048]))
        self.assertEqual(seen[1], ("KeyError", "'version:Nope'"))
        self.assertEqual(seen[2], ("declare", seen[0][1]))  # the instance compile ran on
        # Slots (kind, index, value); kinds 0 input, 1 output, 2 workspace, 3 scalar
        # (sdk/python_host/src/bridge_abi.h); -1 as an unsigned 64-bit value.
        self.assertEqual(native.launches, [(12, "k", b"\x7fELF-kernel", 2, 5,
                                            [(0, 1, 0), (1, 0, 0), (2, 0, 0), (3, 0, 2 ** 64 - 1)])])
        self.assertEqual(seen[3], ("reuse", "add_launch: these AnnotatedKernelArgs were already consumed"))

    def test_getters_only_inside_their_callback_and_borrowed_objects_expire(self):
        kept = {}

        @register_op_impl(op_type="Cadd")
        class Cadd:
            def compile(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                with self_raises(RuntimeError, "only available inside declare_launch_args"):
                    get_declare_launch_args_ctx()
                kept["tensor"] = x
                kept["info"] = get_compile_platform_info()

            def declare_launch_args(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                kept["args"] = get_declare_launch_args_ctx().create_kernel_args()

        def self_raises(exc, text):
            return self.assertRaisesRegex(exc, text)

        for getter, name in ((get_compile_ctx, "compile"), (get_compile_platform_info, "compile"),
                             (get_declare_launch_args_ctx, "declare_launch_args")):
            with self.assertRaisesRegex(RuntimeError, r"only available inside %s$" % name):
                getter()
        _bridge.call_compile("Cadd", "compile", [X, X], [X], _Native(), 1)
        _bridge.call_compile("Cadd", "declare_launch_args", [X, X], [X], _Native(), 2)
        for use in (lambda: kept["tensor"].addr, lambda: kept["info"].get_soc_version(),
                    lambda: kept["args"].append_scalar(1)):
            with self.assertRaisesRegex(RuntimeError, "Borrowed native object has expired"):
                use()

    def test_launch_info_and_slot_checks(self):
        ok = dict(kernel_name="k", kernel_bin=b"\x01", block_dim=1, stream_id=0)
        self.assertEqual(AnnotatedKernelLaunchInfo(**dict(ok, kernel_bin=bytearray(b"ab"))).kernel_bin, b"ab")
        for bad, text in ((dict(kernel_name=""), "kernel_name must be a non-empty str"),
                          (dict(kernel_bin=b""), "kernel_bin must be non-empty bytes"),
                          (dict(block_dim=0), "block_dim must be an int in"),
                          (dict(block_dim=True), "block_dim must be an int in"),
                          (dict(stream_id=-1), "stream_id must be an int in")):
            with self.assertRaisesRegex(ValueError, text):
                AnnotatedKernelLaunchInfo(**dict(ok, **bad))
        with self.assertRaisesRegex(TypeError, "takes 1 positional argument"):
            AnnotatedKernelLaunchInfo("k", b"\x01", 1, 0)
        errors = []

        @register_op_impl(op_type="Cadd")
        class Cadd:
            def declare_launch_args(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                args = get_declare_launch_args_ctx().create_kernel_args()
                for call in (lambda: args.append_output(1, z), lambda: args.append_input(0, "x"),
                             lambda: args.append_scalar(2 ** 64)):
                    try:
                        call()
                    except (IndexError, TypeError, ValueError) as e:
                        errors.append("%s: %s" % (type(e).__name__, e))

        _bridge.call_compile("Cadd", "declare_launch_args", [X, X], [X], _Native(), 3)
        self.assertEqual(errors, ["IndexError: append_output: index 1 out of range (the node has 1 outputs)",
                                  "TypeError: append_input: expected a ge.runtime.Tensor, got 'x'",
                                  "ValueError: append_scalar: expected an int that fits 64 bits, got "
                                  "18446744073709551616"])

    def test_non_none_return_is_an_error(self):
        @register_op_impl(op_type="Cadd")
        class Cadd:
            def compile(self, x: Tensor, y: Tensor, z: Tensor):
                return True

            def declare_launch_args(self, x: Tensor, y: Tensor, z: Tensor) -> None:
                pass

        with self.assertRaisesRegex(TypeError, "compile of Cadd returned True; a callback returns None"):
            _bridge.call_compile("Cadd", "compile", [X, X], [X], _Native(), 1)

    def test_cpp_prototype_binds_when_python_has_none(self):
        _bridge.clear()
        _bridge.set_cpp_protos(json.dumps({"CppAdd": {
            "op_type": "CppAdd", "inputs": [{"name": "x1", "kind": "required"}, {"name": "x2", "kind": "required"}],
            "attrs": [], "outputs": [{"name": "y", "kind": "required"}]}}))
        got = []

        @register_op_impl(op_type="CppAdd")
        class CppAdd:
            def compile(self, a: Tensor, b: Tensor, out: Tensor) -> None:
                got.append(out.shape.origin_shape.dims)

            def declare_launch_args(self, a, b, out) -> None:
                pass

        desc = _bridge.registry.get_registered_op_impl_by_op_type("CppAdd")
        _bridge.validate_op_impl_descriptor(desc)
        _bridge.call_compile("CppAdd", "compile", [X, X], [([4], 0, 2, 0, 16)], _Native(), 1)
        self.assertEqual(got, [[4]])


if __name__ == "__main__":
    unittest.main()
