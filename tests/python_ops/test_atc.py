"""atc with Python custom ops (README.md "Python custom ops"): the HOST execute of AddCustom folds
AddCustom(Const 1.0, Const 2.0) into Const 3.0 at compile time; the OM then runs with no libpython
in the process; Python errors, bad signatures and missing plugin paths stop atc with their codes;
no SDK library or tool links libpython. Needs OPENATC_BUILD_DIR."""
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import unittest

BUILD = os.environ["OPENATC_BUILD_DIR"]
HERE = os.path.dirname(os.path.abspath(__file__))
ATC = os.path.join(BUILD, "bin", "atc")
GRAPH = os.path.join(HERE, "const_add.json")
HOST_ADD = os.path.join(HERE, "plugins", "host_add")

PROTO = textwrap.dedent("""\
    from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
    from ge.runtime import Tensor, TensorDesc

    @register_op(op_type="AddCustom")
    def add_custom(x: TensorDesc, y: TensorDesc) -> TensorDesc:
        return TensorDesc(x.shape, x.data_type)
    """)


def env_with(opp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_CUSTOM_OPP_PATH", "PYTHONPATH")}
    if opp_path is not None:
        env["ASCEND_CUSTOM_OPP_PATH"] = opp_path
        # Under `make asan`: the embedded interpreter is never finalized and pymalloc's arenas are
        # mmap'd, invisible to LeakSanitizer, so what Python holds would be reported as leaks.
        env["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    env.update(extra)
    return env


class AtcPythonOpsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="py12_atc_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def atc(self, opp_path, flags=(), **extra):
        out = os.path.join(self.tmp, "model")
        return subprocess.run([ATC, "--model=" + GRAPH, "--framework=1", "--soc_version=host", "--output=" + out]
                              + list(flags),
                              env=env_with(opp_path, **extra), capture_output=True, text=True, timeout=60), out + ".om"

    def plugin(self, name, body):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(PROTO + textwrap.dedent(body))
        return path

    def test_constant_folded_om_runs_without_python(self):
        r, om = self.atc(HOST_ADD)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        marks = [l for l in lines if l.startswith("HOST_ADD_MODULE_LOADED") or l.startswith("[test]")]
        self.assertEqual(marks, ["HOST_ADD_MODULE_LOADED=1", "[test] infer_meta AddCustom [1] 0",
                                 "[test] host execute AddCustom HostCpuOpExecutionContext"])
        with open(om, "rb") as f:
            data = f.read()
        for needle in (b"AddCustom", b"HostAdd", b"host_add", b"ge.custom_op"):
            self.assertNotIn(needle, data)
        run = subprocess.run([os.path.join(BUILD, "tests", "om_run_maps"), om], env=env_with(None),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.splitlines(), ["output 0: 3", "libpython mapped: no"])
        # The scan sees libpython when it is mapped.
        run = subprocess.run([os.path.join(BUILD, "tests", "om_run_maps"), om, "--dlopen-python"], env=env_with(None),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.stdout.splitlines()[-1], "libpython mapped: yes")

    def test_attrs_reach_infer_meta_and_execute(self):
        path = os.path.join(self.tmp, "scale.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                import ctypes
                from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
                from ge.runtime import Tensor, TensorDesc

                @register_op(op_type="ScaleCustom")
                def scale(x: TensorDesc, *, alpha: float, count: int, mode: str = "affine") -> TensorDesc:
                    print("[test] infer_meta attrs", alpha, count, mode)
                    return TensorDesc(x.shape, x.data_type)

                @register_op_impl(op_type="ScaleCustom")
                class Scale:
                    @register_kernel(backend=OpBackend.HOST)
                    def execute(self, x: Tensor, *, alpha: float, count: int, mode: str) -> None:
                        out = get_execute_ctx().malloc_output_tensor(0, x.shape, x.format, x.data_type)
                        a = (ctypes.c_float * x.shape_size).from_address(x.addr)
                        c = (ctypes.c_float * x.shape_size).from_address(out.addr)
                        for i in range(x.shape_size):
                            c[i] = a[i] * alpha + count
                """))
        out = os.path.join(self.tmp, "scale")
        r = subprocess.run([ATC, "--model=" + os.path.join(HERE, "const_scale.json"), "--framework=1",
                            "--soc_version=host", "--output=" + out], env=env_with(path), capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[test] infer_meta attrs 2.5 3 affine", r.stdout.splitlines())
        run = subprocess.run([os.path.join(BUILD, "tests", "om_run_maps"), out + ".om"], env=env_with(None),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.stdout.splitlines(), ["output 0: 5.5 8", "libpython mapped: no"])

    def test_no_plugin_entry_never_loads_python(self):
        empty = os.path.join(self.tmp, "empty_root")
        os.mkdir(empty)
        r, _ = self.atc(empty, LD_DEBUG="files")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("OA1104", r.stderr)
        self.assertNotIn("libpython", r.stderr)
        self.assertNotIn("libopenatc_py_bridge", r.stderr)

    def test_exception_in_execute_reports_traceback(self):
        path = self.plugin("raising.py", """\
            @register_op_impl(op_type="AddCustom")
            class Raising:
                @register_kernel(backend=OpBackend.HOST)
                def execute(self, x: Tensor, y: Tensor) -> None:
                    helper(x)

            def helper(x):
                raise ValueError("bad value %d" % x.shape_size)
            """)
        r, om = self.atc(path)
        self.assertEqual(r.returncode, 255)
        self.assertFalse(os.path.exists(om))
        self.assertIn("atc: error: OA1804: '%s': node 'add' (AddCustom): the Python execute (host backend) of op "
                      "type 'AddCustom' failed:\nTraceback (most recent call last):" % GRAPH, r.stderr)
        with open(path) as f:
            src = f.read().splitlines()
        call_line = src.index("        helper(x)") + 1
        raise_line = src.index('    raise ValueError("bad value %d" % x.shape_size)') + 1
        self.assertRegex(r.stderr, r'File "%s", line %d, in execute\n\s+helper\(x\)' % (re.escape(path), call_line))
        self.assertRegex(r.stderr, r'File "%s", line %d, in helper\n' % (re.escape(path), raise_line))
        self.assertIn("ValueError: bad value 1", r.stderr)

    def test_exception_in_infer_meta(self):
        path = os.path.join(self.tmp, "bad_infer.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                from ge.custom_op import register_op
                from ge.runtime import TensorDesc

                @register_op(op_type="AddCustom")
                def add_custom(x: TensorDesc, y: TensorDesc) -> TensorDesc:
                    raise RuntimeError("no shapes today")
                """))
        r, _ = self.atc(path)
        self.assertEqual(r.returncode, 255)
        self.assertIn("OA1804: '%s': node 'add' (AddCustom): the Python infer_meta of op type 'AddCustom' failed:"
                      % GRAPH, r.stderr)
        self.assertIn("RuntimeError: no shapes today", r.stderr)

    def test_signature_that_does_not_bind_is_refused_at_load(self):
        path = self.plugin("bad_sig.py", """\
            print("BAD_SIG_LOADED=1")

            @register_op_impl(op_type="AddCustom")
            class BadSig:
                @register_kernel(backend=OpBackend.HOST)
                def execute(self, x: Tensor, *, y: Tensor) -> None:
                    print("EXECUTE_RAN=1")
            """)
        r, _ = self.atc(path)
        self.assertEqual(r.returncode, 255)
        self.assertIn("BAD_SIG_LOADED=1", r.stdout)
        self.assertNotIn("EXECUTE_RAN", r.stdout)
        self.assertIn("OA1803", r.stderr)
        self.assertIn("TypeError: invalid execute signature for op type AddCustom", r.stderr)
        self.assertIn("parameter y for y must be positional", r.stderr)

    def test_missing_py_entry_is_an_error_naming_it(self):
        missing = os.path.join(self.tmp, "nowhere", "op.py")
        r, _ = self.atc(HOST_ADD + ":" + missing)
        self.assertEqual(r.returncode, 255)
        self.assertIn("atc: error: OA1801: Python custom op path[%s] does not exist or is inaccessible" % missing,
                      r.stderr)
        self.assertNotIn("HOST_ADD_MODULE_LOADED", r.stdout)

    def test_missing_other_entry_warns_then_python_import_fails(self):
        missing = os.path.join(self.tmp, "no_such_root")
        r, _ = self.atc(HOST_ADD + ":" + missing)
        self.assertEqual(r.returncode, 255)
        self.assertIn("Python custom op path '%s' does not exist or is inaccessible" % missing, r.stderr)
        self.assertIn("OA1801", r.stderr)
        self.assertIn("FileNotFoundError: Python custom op path[%s]" % missing, r.stderr)

    def test_package_plugin_and_unfolded_node(self):
        pkg = os.path.join(self.tmp, "plugins", "addpkg")
        os.makedirs(pkg)
        with open(os.path.join(pkg, "__init__.py"), "w") as f:
            f.write(PROTO + textwrap.dedent("""\
                print("ADDPKG_LOADED=1")

                @register_op_impl(op_type="AddCustom")
                class Add:
                    @register_kernel(backend=OpBackend.HOST)
                    def execute(self, x, y):
                        raise AssertionError("not called: the node is not folded")
                """))
        r, om = self.atc(os.path.dirname(pkg), ["--oo_constant_folding=false"])
        self.assertIn("ADDPKG_LOADED=1", r.stdout)
        self.assertEqual(r.returncode, 255)
        self.assertFalse(os.path.exists(om))
        self.assertIn("atc: error: OA1805: '%s': node 'add' (AddCustom): the node's op type is a Python custom op, "
                      "and an OM never holds Python" % GRAPH, r.stderr)

    def test_sdk_libraries_do_not_link_libpython(self):
        files = [os.path.join(BUILD, "bin", "atc"), os.path.join(BUILD, "bin", "omrun")]
        lib = os.path.join(BUILD, "lib")
        files += [os.path.join(lib, n) for n in sorted(os.listdir(lib)) if n.endswith(".so")]
        checked = 0
        for path in files:
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue  # a linker script naming a real library
            dyn = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dyn)
            if os.path.basename(path) == "libopenatc_py_bridge.so":
                self.assertTrue(any(n.startswith("libpython3") for n in needed), needed)
                continue
            self.assertFalse([n for n in needed if "python" in n], path)
            checked += 1
        self.assertGreater(checked, 5)


if __name__ == "__main__":
    unittest.main()
