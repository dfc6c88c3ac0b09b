"""ge.custom_op in plain python3 (no atc): registration, capability reflection, schema-bound
signature checks, context scopes and plugin discovery (README.md "Python custom ops").
Run with the build's site-packages first on sys.path (CMakeLists.txt here does)."""
import os
import shutil
import sys
import tempfile
import textwrap
import typing
import unittest

from ge.custom_op import (OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl)
from ge.custom_op import _bridge, _signature, proto, registry
from ge._internal import plugin_loader
from ge.runtime import Tensor, TensorDesc


class _Native:
    """Stands in for the bridge's native module: malloc_output hands out a fake address."""

    def __init__(self, attrs=None):
        self.calls = []
        self.attrs = attrs or {}

    def get_attr(self, handle, name, type_name):
        return (0, self.attrs[name]) if name in self.attrs else (1, None)

    def malloc_output(self, handle, index, dims, fmt, dtype):
        self.calls.append((handle, index, list(dims), fmt, dtype))
        return 4096, 4 * len(dims)


class RegistrationTest(unittest.TestCase):
    def setUp(self):
        _bridge.clear()

    def test_op_type_must_be_non_empty_str(self):
        with self.assertRaisesRegex(TypeError, "op_type must be a non-empty str, got ''"):
            register_op_impl(op_type="")
        with self.assertRaisesRegex(TypeError, "got 3"):
            register_op_impl(op_type=3)

    def test_class_without_supported_method(self):
        with self.assertRaisesRegex(TypeError, "class Empty \\(op type E\\) has no supported method; define one of "
                                    "execute, compile, declare_launch_args"):
            @register_op_impl(op_type="E")
            class Empty:
                pass

    def test_duplicate_op_type(self):
        @register_op_impl(op_type="Dup")
        class A:
            def execute(self, ctx):
                pass
        with self.assertRaisesRegex(ValueError, "op type Dup is already registered by __main__:.*A:Dup"):
            @register_op_impl(op_type="Dup")
            class B:
                def execute(self, ctx):
                    pass

    def test_capabilities_by_method_name(self):
        @register_op_impl(op_type="Caps")
        class Caps:
            def execute(self, ctx):
                pass

            def compile(self, x, y):
                pass

            def declare_launch_args(self, x, y):
                pass
        self.assertEqual(Caps.__ge_op_impl_descriptor__.interfaces, ("eager_execute", "compilable", "annotated_args"))

        @register_op_impl(op_type="Both")
        class Both:
            @register_kernel(backend=OpBackend.HOST)
            def execute(self, x):
                pass

            @register_kernel(backend=OpBackend.DEVICE)
            def execute(self, x):  # noqa: F811 (GE's two-backend form)
                pass
        self.assertEqual(Both.__ge_op_impl_descriptor__.interfaces, ("eager_execute", "host_cpu_execute"))

    def test_compile_must_be_callable(self):
        with self.assertRaisesRegex(TypeError, "compile must be callable"):
            @register_op_impl(op_type="C")
            class C:
                compile = 3

    def test_register_kernel_rules(self):
        with self.assertRaisesRegex(TypeError, "backend must be an OpBackend member, got 'host'"):
            register_kernel(backend="host")
        with self.assertRaisesRegex(TypeError, "only decorate a method named 'execute'"):
            class K:
                @register_kernel(backend=OpBackend.HOST)
                def run(self):
                    pass
        with self.assertRaisesRegex(TypeError, "duplicate execute for backend HOST: .*test_package.py:\\d+ and "
                                    ".*test_package.py:\\d+"):
            class K2:
                @register_kernel(backend=OpBackend.HOST)
                def execute(self):
                    pass

                @register_kernel(backend=OpBackend.HOST)
                def execute(self):  # noqa: F811
                    pass


class PrototypeAndBindingTest(unittest.TestCase):
    def setUp(self):
        _bridge.clear()

        @register_op(op_type="Scale")
        def scale(x: TensorDesc, bias: typing.Optional[TensorDesc], *, alpha: float = 1.0, mode: str = "a") -> TensorDesc:
            return TensorDesc(x.shape, x.data_type)
        self.ir = proto.get_registered_op_proto("Scale").ir_meta()

    def test_prototype_ir(self):
        self.assertEqual(self.ir, {"op_type": "Scale",
                                   "inputs": [{"name": "x", "kind": "required"}, {"name": "bias", "kind": "optional"}],
                                   "attrs": [{"name": "alpha", "type": "float"}, {"name": "mode", "type": "str"}],
                                   "outputs": [{"name": "output0", "kind": "required"}]})

    def test_prototype_errors(self):
        with self.assertRaisesRegex(TypeError, "input x must not have a default"):
            @register_op(op_type="P1")
            def p1(x: TensorDesc = None) -> TensorDesc:
                pass
        with self.assertRaisesRegex(TypeError, "attr k has unsupported annotation"):
            @register_op(op_type="P2")
            def p2(x: TensorDesc, *, k: dict) -> TensorDesc:
                pass
        with self.assertRaisesRegex(ValueError, "a different prototype is already registered"):
            @register_op(op_type="Scale")
            def other(x: TensorDesc) -> TensorDesc:
                pass

    def check(self, fn, pattern=None):
        if pattern is None:
            _signature.validate("execute", fn, self.ir, "k")
        else:
            with self.assertRaisesRegex(TypeError, pattern):
                _signature.validate("execute", fn, self.ir, "k")

    def test_good_signatures(self):
        def ok(self, a: Tensor, b: typing.Optional[Tensor], *, alpha: float, mode: str) -> None:
            pass

        def no_annotations(self, a, b, *, alpha, mode):
            pass

        def legacy(self, ctx):
            pass
        for fn in (ok, no_annotations, legacy):
            self.check(fn)

    def test_bad_signatures(self):
        prefix = "invalid execute signature for op type Scale, descriptor key k, method execute: expected " \
                 "\\(self, x: Tensor, bias: Optional\\[Tensor\\], \\*, alpha: float, mode: str\\) -> None, actual "

        def too_few(self, a, *, alpha, mode):
            pass

        def positional_attr(self, a, b, alpha, mode):
            pass

        def wrong_name(self, a, b, *, alpha, style):
            pass

        def wrong_input_type(self, a: typing.List[Tensor], b, *, alpha, mode):
            pass

        def wrong_attr_type(self, a, b, *, alpha: int, mode):
            pass

        def returns(self, a, b, *, alpha, mode) -> int:
            pass

        def star(self, a, b, *args, alpha, mode):
            pass
        self.check(too_few, prefix + "\\(self, a, \\*, alpha, mode\\) \\(3 parameters after self, the IR has 4\\)")
        self.check(positional_attr, prefix + ".*attr alpha must be keyword-only and named as in the IR")
        self.check(wrong_name, prefix + ".*attr mode must be keyword-only and named as in the IR")
        self.check(wrong_input_type, prefix + ".*parameter a must be annotated Tensor\\)")
        self.check(wrong_attr_type, prefix + ".*attr alpha must be annotated float")
        self.check(returns, prefix + ".*the return annotation must be None")
        self.check(star, prefix + ".*\\*args and \\*\\*kwargs are not allowed")

    def test_bind_optional_absent(self):
        args, kwargs = _signature.bind("execute", self.ir, ["tx"], [], {"alpha": 2.0, "mode": "b"})
        self.assertEqual(args, ["tx", None])
        self.assertEqual(kwargs, {"alpha": 2.0, "mode": "b"})

    def test_bind_dynamic(self):
        ir = {"op_type": "D", "inputs": [{"name": "a", "kind": "required"}, {"name": "xs", "kind": "dynamic"}],
              "attrs": [], "outputs": [{"name": "y", "kind": "required"}]}
        self.assertEqual(_signature.bind("compile", ir, [1, 2, 3], [9], {})[0], [1, [2, 3], 9])


class ExecuteScopeTest(unittest.TestCase):
    def setUp(self):
        _bridge.clear()

    def test_getter_only_inside_and_tensors_expire(self):
        seen = {}

        @register_op(op_type="Neg")
        def neg(x: TensorDesc) -> TensorDesc:
            return TensorDesc(x.shape, x.data_type)

        @register_op_impl(op_type="Neg")
        class Neg:
            @register_kernel(backend=OpBackend.HOST)
            def execute(self, x: Tensor) -> None:
                ctx = get_execute_ctx()
                seen["ctx"] = type(ctx).__name__
                seen["out"] = ctx.malloc_output_tensor(0, x.shape, x.format, x.data_type)
                seen["x"] = (x.shape.origin_shape.dims, int(x.data_type), x.addr)
        with self.assertRaisesRegex(RuntimeError, "only available inside execute"):
            get_execute_ctx()
        native = _Native()
        _bridge.call_execute("Neg", "host", [([2, 3], 0, 2, 1234, 24)], 1, native, 77)
        self.assertEqual(seen["ctx"], "HostCpuOpExecutionContext")
        self.assertEqual(seen["x"], ([2, 3], 0, 1234))
        self.assertEqual(native.calls, [(77, 0, [2, 3], 2, 0)])
        with self.assertRaisesRegex(RuntimeError, "Borrowed native object has expired"):
            seen["out"].addr
        with self.assertRaisesRegex(RuntimeError, "only available inside execute"):
            get_execute_ctx()

    def test_attrs_bound_as_keywords_with_defaults(self):
        seen = {}

        @register_op(op_type="Pow")
        def pow_(x: TensorDesc, *, exponent: int, scale: float = 0.5) -> TensorDesc:
            return TensorDesc(x.shape, x.data_type)

        @register_op_impl(op_type="Pow")
        class Pow:
            @register_kernel(backend=OpBackend.HOST)
            def execute(self, x, *, exponent: int, scale: float) -> None:
                seen["attrs"] = (exponent, scale)
        _bridge.call_execute("Pow", "host", [([1], 0, 2, 8, 4)], 1, _Native({"exponent": 3}), 1)
        self.assertEqual(seen["attrs"], (3, 0.5))
        with self.assertRaisesRegex(ValueError, "the node of Pow does not set attr exponent, which has no default"):
            _bridge.call_execute("Pow", "host", [([1], 0, 2, 8, 4)], 1, _Native({}), 1)

    def test_non_none_return_is_an_error(self):
        @register_op_impl(op_type="Ret")
        class Ret:
            def execute(self, ctx):
                return 0
        with self.assertRaisesRegex(TypeError, "execute of Ret returned 0; a callback returns None and raises"):
            _bridge.call_execute("Ret", "device", [], 0, _Native(), 1)


class DiscoveryTest(unittest.TestCase):
    def setUp(self):
        _bridge.clear()
        self.dir = tempfile.mkdtemp(prefix="py12_discovery_")
        self.log = os.path.join(self.dir, "order.log")
        os.environ["PY12_ORDER_LOG"] = self.log
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def write(self, rel, name):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                import os
                with open(os.environ["PY12_ORDER_LOG"], "a") as f:
                    f.write("%s\\n")
                """ % name))
        return path

    def order(self):
        with open(self.log) as f:
            return f.read().split()

    def test_directory_scan_order_and_skips(self):
        plugins = os.path.join(self.dir, "plugins")
        self.write("plugins/b.py", "b")
        self.write("plugins/a.py", "a")
        self.write("plugins/_private.py", "private")
        self.write("plugins/pkg_c/__init__.py", "pkg_c")
        self.write("plugins/nopkg/mod.py", "nopkg")
        single = self.write("single.py", "single")
        plugin_loader.load_plugins(plugins + os.pathsep + os.pathsep + single)
        self.assertEqual(self.order(), ["a", "b", "pkg_c", "single"])
        self.assertNotIn(plugins, sys.path)
        plugin_loader.load_plugins(single + os.pathsep + plugins)  # already imported: nothing again
        self.assertEqual(self.order(), ["a", "b", "pkg_c", "single"])

    def test_missing_and_non_py_entries(self):
        missing = os.path.join(self.dir, "gone.py")
        with self.assertRaisesRegex(FileNotFoundError, "Python custom op path\\[%s\\] does not exist" % missing):
            plugin_loader.load_plugins(missing)
        txt = os.path.join(self.dir, "notes.txt")
        open(txt, "w").close()
        with self.assertRaisesRegex(ValueError, "does not end in .py"):
            plugin_loader.load_plugins(txt)


if __name__ == "__main__":
    unittest.main()
