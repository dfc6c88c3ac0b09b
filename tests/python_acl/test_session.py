"""Python execute at run time (README.md "Python custom ops"): python3 loads a C++ library that
runs a graph in ge::Session (session_driver.cc); the graph's Python op PyScaleSub
(plugins/py_scale_sub.py) is a device-backend execute that runs once per RunGraph, inside this
interpreter, and launches an Ascend C kernel through acl. Needs OPENATC_BUILD_DIR and
PYTHONPATH=<build>/python/site-packages."""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD = os.environ["OPENATC_BUILD_DIR"]
HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(BUILD, "tests", "libpython_acl_session_driver.so")


class PythonExecuteInSessionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pyacl12_session_")
        obj, binary = os.path.join(cls.tmp, "k.host.o"), os.path.join(cls.tmp, "k.aicore.o")
        subprocess.run([os.path.join(BUILD, "bin", "bisheng"), "-c", os.path.join(HERE, "scale_sub.asc"), "-o", obj,
                        "--npu-arch=dav-2201"], check=True, timeout=120)
        subprocess.run(["llvm-objcopy", "-O", "binary", "--only-section=.aicore_binary", obj, binary], check=True,
                       timeout=60)
        cls.log = os.path.join(cls.tmp, "calls.log")
        os.environ["PY_ACL_TEST_KERNEL"] = binary
        os.environ["PY_ACL_TEST_LOG"] = cls.log
        os.environ["ASCEND_CUSTOM_OPP_PATH"] = os.path.join(HERE, "plugins", "py_scale_sub.py")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_session(self, n, rounds):
        """(rc, z, error text) of session_driver.cc's graph run `rounds` times."""
        fn = ctypes.CDLL(DRIVER).openatc_test_run_py_session
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_void_p,
                       ctypes.c_char_p, ctypes.c_size_t]
        x = (ctypes.c_float * n)(*[float(i) for i in range(n)])
        y = (ctypes.c_float * n)(*[0.5 * i for i in range(n)])
        z = (ctypes.c_float * (n * rounds))()
        err = ctypes.create_string_buffer(8192)
        rc = fn(x, y, n, rounds, z, err, len(err))
        return rc, list(z), err.value.decode()

    def test_a_raising_execute_fails_run_graph_with_the_traceback(self):
        os.environ["PY_ACL_TEST_FAIL"] = "1"
        try:
            rc, _, err = self.run_session(8, 1)
        finally:
            del os.environ["PY_ACL_TEST_FAIL"]
        self.assertEqual(rc, 1)
        self.assertTrue(err.startswith("RunGraph: "), err)
        self.assertIn("OA1804", err)
        self.assertIn("the Python execute (device backend) of op type 'PyScaleSub' failed", err)
        self.assertIn("ValueError: PyScaleSub was told to fail", err)
        self.assertIn("py_scale_sub.py", err)

    def test_a_missing_python_plugin_fails_ge_initialize(self):
        # In a fresh process: this one has loaded its plugins already (once per process, as GE).
        missing = os.path.join(self.tmp, "missing_op.py")
        code = ("import ctypes, sys; fn = ctypes.CDLL(sys.argv[1]).openatc_test_run_py_session; "
                "err = ctypes.create_string_buffer(4096); "
                "rc = fn(None, None, ctypes.c_int64(8), 0, None, err, ctypes.c_size_t(4096)); "
                "print(rc, err.value.decode())")
        r = subprocess.run([sys.executable, "-c", code, DRIVER], env=dict(os.environ, ASCEND_CUSTOM_OPP_PATH=missing),
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("1 GEInitialize: OA1801: "), r.stdout)
        self.assertIn("'" + missing + "'", r.stdout)

    def test_a_cpp_process_starts_the_interpreter(self):
        # session_main.cc: no Python in the process; no PYTHONPATH either (the embedder finds the
        # packages beside libgert.so), so the bridge starts an interpreter and acl finds the
        # process's libascendcl.
        log = os.path.join(self.tmp, "cpp_calls.log")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
        env["PY_ACL_TEST_LOG"] = log
        r = subprocess.run([os.path.join(BUILD, "tests", "python_acl_session_main")], env=env, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # 3 (i + r) - 1 for r = 0, 1.
        self.assertEqual(r.stdout, "z = -1 2 5 8 11 14 17 20 2 5 8 11 14 17 20 23\n")
        with open(log) as f:
            calls = f.read().splitlines()
        self.assertEqual(len(calls), 2)
        self.assertEqual(calls[0], calls[1])
        self.assertTrue(calls[0].startswith("execute EagerOpExecutionContext n=8 pid="), calls[0])
        self.assertNotEqual(calls[0], "execute EagerOpExecutionContext n=8 pid=%d" % os.getpid())

    def test_execute_runs_per_run_graph_in_this_interpreter(self):
        import acl  # the test's own acl; the plugin must share this module (one interpreter)

        if os.path.exists(self.log):
            os.remove(self.log)
        n, rounds = 16, 3
        rc, z, err = self.run_session(n, rounds)
        self.assertEqual(rc, 0, err)
        # Round r: 3 (i + r) - i / 2.
        expected = [3.0 * (i + r) - 0.5 * i for r in range(rounds) for i in range(n)]
        self.assertEqual(z, expected)
        with open(self.log) as f:
            calls = f.read().splitlines()
        self.assertEqual(calls, ["execute EagerOpExecutionContext n=16 pid=%d" % os.getpid()] * rounds)
        # The plugin was imported into this interpreter (not a second one the bridge started), and
        # its acl is this process's acl.
        plugin = [m for m in list(sys.modules.values())
                  if os.path.abspath(getattr(m, "__file__", None) or "") == os.environ["ASCEND_CUSTOM_OPP_PATH"]]
        self.assertEqual(len(plugin), 1)
        self.assertIs(plugin[0].acl, acl)
        self.assertEqual(len(plugin[0]._kernel), 1)


if __name__ == "__main__":
    unittest.main()
