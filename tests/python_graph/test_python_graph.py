"""tests/python_graph: gen_esb output, the ES wheel, ge.es / ge.graph / ge.session / ge.ge_global.

Run by ctest (tests/python_graph/CMakeLists.txt sets PG_* and PYTHONPATH / LD_LIBRARY_PATH).
Expected values are computed by hand: PgAdd(x, y) = x + 2*y (plugins/pg_host_ops.py).
"""
import base64
import ctypes
import hashlib
import importlib.util
import inspect
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

ENV = os.environ
GEN = os.path.join(ENV.get("PG_ES_BUILD", ""), "generated_code")
PACKAGE = os.path.join(ENV.get("PG_ES_BUILD", ""), "python_package")


def _plugin_module():
    for name, mod in sys.modules.items():
        if name.startswith("_ge_py_custom_op_pg_host_ops") and hasattr(mod, "CALLS"):
            return mod
    return None


def _session_env():
    """ES wrappers through the staged package's egg-info; the HOST ops through ASCEND_CUSTOM_OPP_PATH."""
    if PACKAGE not in sys.path:
        sys.path.insert(0, PACKAGE)
    os.environ["ASCEND_CUSTOM_OPP_PATH"] = ENV["PG_PLUGINS"]
    from ge.ge_global import GeApi
    GeApi().ge_initialize({"ge.exec.deviceId": "0"})


def _const_graph(name):
    from ge.es.graph_builder import GraphBuilder
    from ge.es.pgtest import PgAdd
    b = GraphBuilder(name)
    out = PgAdd(b.create_const_float([1.5, -2.0], [2]), b.create_const_float([2.25, 0.5], [2]))
    b.set_graph_output(out, 0)
    return b.build_and_reset()


class GenEsbTest(unittest.TestCase):
    def test_c_declarations(self):
        with open(os.path.join(GEN, "es_pgtest_ops_c.h")) as f:
            decls = [line.strip() for line in f if line.startswith("ES_C_API")]
        self.assertEqual(decls, [
            "ES_C_API EsTensorHolder *EsPgAdd(EsTensorHolder *x, EsTensorHolder *y);",
            "ES_C_API EsTensorHolder *EsPgMix(EsTensorHolder *x, EsTensorHolder *bias, EsTensorHolder *const *xs, "
            "int64_t xs_num, const char *mode, float alpha, const int64_t *axes, int64_t axes_num, int32_t flag, "
            "int64_t count, int32_t dst);"])

    def test_python_signatures(self):
        spec = importlib.util.spec_from_file_location("pg_generated_ops", os.path.join(GEN, "es_pgtest_ops.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        self.assertEqual(mod.__all__, ["PgAdd", "PgMix"])
        self.assertEqual(str(inspect.signature(mod.PgAdd)), "(x, y)")
        self.assertEqual(str(inspect.signature(mod.PgMix)),
                         "(x, bias, xs, *, mode, alpha=1.5, axes=[0, 2], flag=True, count=7, dst=3)")

    def test_wrapper_with_every_input_kind_builds(self):
        from ge.es.graph_builder import GraphBuilder
        spec = importlib.util.spec_from_file_location("pg_generated_ops2", os.path.join(GEN, "es_pgtest_ops.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        b = GraphBuilder("pg_mix")
        x, c = b.create_const_float([1.0], [1]), b.create_const_float([2.0], [1])
        with self.assertRaises(TypeError) as cm:
            mod.PgMix(x, None, [c], mode=3)
        self.assertEqual(str(cm.exception), "attribute 'mode' must be a str, got 3")
        y, aux = mod.PgMix(x, None, [c, c], mode="fast", axes=[4, 5, 6])
        b.set_graph_output(y, 0)
        b.set_graph_output(aux, 1)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mix.air")
            b.build_and_reset().save_to_air(path)
            with open(path, "rb") as f:
                air = f.read()
        for token in (b"PgMix", b"xs0", b"xs1", b"fast", b"alpha", b"axes", b"dst", b"aux"):
            self.assertIn(token, air)
        # OpDef.input (field 5, tag 0x2a) in IR order: x, bias (not given: ""), xs0, xs1
        self.assertIn(b"*\tConst_0:0*\x00*\tConst_1:0*\tConst_1:0R", air)

    def _gen(self, args, env_extra):
        env = dict(ENV)
        env.pop("ASCEND_OPP_PATH", None)
        env.update(env_extra)
        return subprocess.run([ENV["PG_GEN_ESB"]] + args, env=env, capture_output=True, text=True)

    def test_skips_dynamic_output_and_reports_errors(self):
        with tempfile.TemporaryDirectory() as d:
            r = self._gen(["--output_dir=" + d, "--module_name=t"], {"ASCEND_OPP_PATH": ENV["PG_PROTO_LIB"]})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr, "gen_esb: warning: op 'PgSplit' gets no ES wrapper: dynamic output 'y' is "
                                       "not supported by the ES wrappers\n")
            self.assertEqual(sorted(os.listdir(d)), ["es_t_ops.cc", "es_t_ops.h", "es_t_ops.py", "es_t_ops_c.h"])
            r = self._gen(["--output_dir=" + d, "--module_name=t", "--bogus=1"], {"ASCEND_OPP_PATH": d})
            self.assertEqual((r.returncode, r.stderr), (1, "gen_esb: error: OA1901: unknown or empty option "
                             "'--bogus=1'. Use --output_dir=DIR --module_name=NAME [--exclude_ops=A,B]\n"))
            r = self._gen(["--output_dir=" + d, "--module_name=t"], {})
            self.assertEqual((r.returncode, r.stderr), (1, "gen_esb: error: OA1902: ASCEND_OPP_PATH is not set. "
                             "Set it to the REG_OP proto library (or its folder)\n"))
            missing = os.path.join(d, "none.so")
            r = self._gen(["--output_dir=" + d, "--module_name=t"], {"ASCEND_OPP_PATH": missing})
            self.assertEqual((r.returncode, r.stderr), (1, "gen_esb: error: OA1902: ASCEND_OPP_PATH entry '{}' does "
                             "not exist. Point it at the proto library\n".format(missing)))
            # a folder entry loads every *.so directly inside it (here: only the proto library)
            with tempfile.TemporaryDirectory() as d2:
                r = self._gen(["--output_dir=" + d2, "--module_name=t", "--exclude_ops=PgSplit"],
                              {"ASCEND_OPP_PATH": os.path.dirname(ENV["PG_PROTO_LIB"])})
                self.assertEqual((r.returncode, r.stderr), (0, ""))
                with open(os.path.join(d, "es_t_ops.py")) as f1, open(os.path.join(d2, "es_t_ops.py")) as f2:
                    self.assertEqual(f1.read(), f2.read())
            r = self._gen(["--output_dir=" + d, "--module_name=t", "--exclude_ops=PgMix,PgSplit"],
                          {"ASCEND_OPP_PATH": ENV["PG_PROTO_LIB"]})
            self.assertEqual((r.returncode, r.stderr), (0, ""))
            with open(os.path.join(d, "es_t_ops_c.h")) as f:
                self.assertEqual([ln for ln in f if ln.startswith("ES_C_API")],
                                 ["ES_C_API EsTensorHolder *EsPgAdd(EsTensorHolder *x, EsTensorHolder *y);\n"])


class WheelTest(unittest.TestCase):
    def test_contents_and_record(self):
        with zipfile.ZipFile(ENV["PG_WHEEL"]) as z:
            names = sorted(z.namelist())
            info = "es_pgtest-1.0.0.dist-info/"
            self.assertEqual(names, sorted(["es_pgtest/__init__.py", "es_pgtest/es_pgtest_ops.py", info + "METADATA",
                                            info + "WHEEL", info + "entry_points.txt", info + "top_level.txt",
                                            info + "RECORD"]))
            self.assertEqual(z.read(info + "entry_points.txt").decode(),
                             "[ge.es.plugins]\npgtest = es_pgtest:get_module\n\n")
            self.assertIn("Tag: py3-none-any\n", z.read(info + "WHEEL").decode())
            self.assertIn("Name: es_pgtest\nVersion: 1.0.0\n", z.read(info + "METADATA").decode())
            rows = [r.split(",") for r in z.read(info + "RECORD").decode().splitlines()]
            self.assertEqual(rows[-1], [info + "RECORD", "", ""])
            self.assertEqual(sorted(r[0] for r in rows), names)
            for path, digest, size in rows[:-1]:
                data = z.read(path)
                want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual((digest, int(size)), ("sha256=" + want, len(data)), path)

    def test_pip_install_target_and_mount(self):
        if importlib.util.find_spec("pip") is None:
            self.skipTest("pip is not installed for {} (Debian: python3-pip)".format(sys.executable))
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--target", d,
                                ENV["PG_WHEEL"]], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            env = dict(ENV, PYTHONPATH=d + os.pathsep + ENV["PYTHONPATH"])
            code = "from ge.es.pgtest import PgAdd; import ge.es; print(PgAdd.__module__, ge.es.pgtest.__name__)"
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.splitlines(), ["[INFO] [ge.es._plugin_loader] ES plugin 'pgtest' loaded: es_pgtest",
                                                     "es_pgtest.es_pgtest_ops es_pgtest"])


class SessionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _session_env()
        from ge.session import Session
        cls.session = Session({"ge.exec.deviceId": "0"})

    def test_python_host_op_is_constant_folded(self):
        self.session.add_graph(1, _const_graph("pg_fold"))
        outs = self.session.run_graph(1, [])
        self.assertEqual(len(outs), 1)
        self.assertEqual((list(outs[0].shape), outs[0].data, int(outs[0].data_type)), ([2], [6.0, -1.0], 0))
        self.session.remove_graph(1)
        # the plugin ran in this interpreter: its module and its call log are ours
        self.assertIn("PgAdd", _plugin_module().CALLS)

    def test_python_error_reaches_the_caller(self):
        from ge._capi import pyes_graph_builder_wrapper as w
        from ge.es.graph_builder import GraphBuilder, TensorHolder
        b = GraphBuilder("pg_fail")
        c = b.create_const_float([1.0], [1])
        arr, n = w.holder_array([c], "x")
        h = w.esb_lib().EsCreateNode(b._handle, b"PgFail", 1, (ctypes.c_char_p * 1)(b"x"), (ctypes.c_int32 * 1)(0),
                                     (ctypes.c_int64 * 1)(1), arr, 1, (ctypes.c_char_p * 1)(b"y"))
        b.set_graph_output(TensorHolder(w.check_handle(h, "EsCreateNode"), b), 0)
        self.session.add_graph(2, b.build_and_reset())
        with self.assertRaises(RuntimeError) as cm:
            self.session.run_graph(2, [])
        self.assertIn("pg_fail refuses on purpose", str(cm.exception))
        self.assertIn("PgFail", str(cm.exception))

    def test_data_input_runs(self):
        from ge.es.graph_builder import GraphBuilder
        from ge.graph import DataType, Tensor
        b = GraphBuilder("pg_identity")
        x = b.create_input(0, name="x", data_type=DataType.DT_FLOAT, shape=[3])
        b.set_graph_output(x, 0)
        self.session.add_graph(3, b.build_and_reset())
        outs = self.session.run_graph(3, [Tensor([0.5, -1.0, 4.0], shape=[3])])
        self.assertEqual(outs[0].data, [0.5, -1.0, 4.0])


class AirTest(unittest.TestCase):
    def test_round_trip_and_run(self):
        _session_env()
        from ge.graph import Graph
        from ge.session import Session
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.air"), os.path.join(d, "b.air")
            self.assertEqual(_const_graph("pg_air").save_to_air(a), 0)
            loaded = Graph.load_from_air(a)
            self.assertEqual(loaded.name, "pg_air")
            loaded.save_to_air(b)
            with open(a, "rb") as fa, open(b, "rb") as fb:
                self.assertEqual(fa.read(), fb.read())
            again = Graph()
            self.assertEqual(again.load_from_air(b), 0)
            s = Session({})
            s.add_graph(7, again)
            self.assertEqual(s.run_graph(7, [])[0].data, [6.0, -1.0])
            with self.assertRaises(RuntimeError) as cm:
                Graph.load_from_air(os.path.join(d, "missing.air"))
            self.assertIn("cannot read AIR file", str(cm.exception))


class TensorTest(unittest.TestCase):
    def test_values_and_enums(self):
        from ge.graph import DataType, Format, Shape, Tensor
        t = Tensor([[1, 2], [3, 4]], data_type=DataType.DT_INT32)
        self.assertIsInstance(t.shape, Shape)
        self.assertEqual((t.shape, t.data, "{}".format(t.data_type), "{}".format(t.format)),
                         ([2, 2], [[1, 2], [3, 4]], "3", "2"))
        self.assertEqual(t.get_bytes(), b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00")
        self.assertEqual(int(Format.FORMAT_NCHW), 0)
        with self.assertRaises(ValueError):
            Tensor([1.0, 2.0], shape=[3])

    def test_builder_errors(self):
        from ge.es.graph_builder import GraphBuilder
        b = GraphBuilder("pg_empty")
        with self.assertRaises(RuntimeError) as cm:
            b.build_and_reset()
        self.assertEqual(str(cm.exception), "build_and_reset failed: graph 'pg_empty' has no output (call "
                                            "set_graph_output)")
        with self.assertRaises(RuntimeError) as cm:
            b.create_const_float([1.0, 2.0], [3])
        self.assertIn("the constant has 2 values but its shape holds 3", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
