"""atc with a Python op that has compile + declare_launch_args (README.md "Python custom ops"): both
callbacks run on one instance, see the target's platform answers (host, and the emulated
Ascend910B1), and the declared launch carries the kernel bytes into the OM, which then runs with
no ASCEND_CUSTOM_OPP_PATH and no libpython in the process; a raising compile stops atc with the
traceback. Needs OPENATC_BUILD_DIR."""
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
RUN = os.path.join(BUILD, "tests", "om_run_maps")
GRAPH = os.path.join(HERE, "compiled_add.json")
PLUGIN = os.path.join(HERE, "plugins", "compiled_add")
KERNEL = os.path.join(BUILD, "tests", "libpy12_add_kernel.so")


def env_with(opp_path, **extra):
    drop = ("ASCEND_CUSTOM_OPP_PATH", "PYTHONPATH", "OPENATC_EMULATION", "PY12_COMPILE_RAISE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PY12_KERNEL_SO"] = KERNEL
    if opp_path is not None:
        env["ASCEND_CUSTOM_OPP_PATH"] = opp_path
        # Under `make asan`: the embedded interpreter is never finalized (see test_atc.py).
        env["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    env.update(extra)
    return env


class AtcPythonCompileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="py12_compile_")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def atc(self, opp_path, soc="host", **extra):
        out = os.path.join(self.tmp, "model")
        r = subprocess.run([ATC, "--model=" + GRAPH, "--framework=1", "--soc_version=" + soc, "--output=" + out],
                           env=env_with(opp_path, **extra), capture_output=True, text=True, timeout=60)
        return r, out + ".om"

    def run_om(self, om, **extra):
        r = subprocess.run([RUN, om, "--fill"], env=env_with(None, **extra), capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.splitlines()

    def marks(self, stdout):
        return [re.sub(r"instance=[0-9a-f]+", "instance=I", l) for l in stdout.splitlines()
                if l.startswith("[test]") or l.startswith("COMPILED_ADD")]

    def instances(self, stdout):
        return re.findall(r"instance=([0-9a-f]+)", stdout)

    def test_host_om_carries_the_declared_kernel_and_runs_without_python(self):
        r, om = self.atc(PLUGIN)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.marks(r.stdout), [
            "COMPILED_ADD_MODULE_LOADED=1",
            "[test] compile instance=I soc=host arch=host shape=[2048] out=[2048]",
            "[test] option no.such.option: KeyError",
            "[test] declare_launch_args instance=I block_dim=2 stream=0"])
        ids = self.instances(r.stdout)
        self.assertEqual(len(ids), 2)
        self.assertEqual(ids[0], ids[1], "compile and declare_launch_args ran on different instances")
        with open(om, "rb") as f:
            data = f.read()
        for needle in (b"compiled_add.py", b"ge.custom_op", b"COMPILED_ADD_MODULE_LOADED"):
            self.assertFalse(needle in data, needle)
        # Inputs 1 and 2 over 2048 floats, block_dim 2 x 1024: every output is 3, computed by the
        # kernel bytes the OM carries (the run has no ASCEND_CUSTOM_OPP_PATH and no deliverable).
        self.assertEqual(self.run_om(om), ["output 0: 3 x2048", "libpython mapped: no"])

    def test_emulated_ascend910b1_answers_the_chips_facts(self):
        r, om = self.atc(PLUGIN, soc="Ascend910B1", OPENATC_EMULATION="1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[test] compile instance=I soc=Ascend910B1 arch=2201 shape=[2048] out=[2048]",
                      self.marks(r.stdout))
        self.assertEqual(self.run_om(om, OPENATC_EMULATION="1"), ["output 0: 3 x2048", "libpython mapped: no"])

    def test_exception_in_compile_reports_traceback(self):
        r, om = self.atc(PLUGIN, PY12_COMPILE_RAISE="1")
        self.assertEqual(r.returncode, 255)
        self.assertFalse(os.path.exists(om))
        self.assertNotIn("declare_launch_args", r.stdout)
        self.assertIn("atc: error: OA1804: '%s': node 'add' (CompiledAdd): the Python compile of op type "
                      "'CompiledAdd' failed:\nTraceback (most recent call last):" % GRAPH, r.stderr)
        path = os.path.join(PLUGIN, "compiled_add.py")
        with open(path) as f:
            src = f.read().splitlines()
        call_line = src.index("            _fail_in_compile(x1.shape_size)") + 1
        raise_line = src.index('    raise ValueError("compile refused %d elements" % n)') + 1
        self.assertRegex(r.stderr, r'File "%s", line %d, in compile\n' % (re.escape(path), call_line))
        self.assertRegex(r.stderr, r'File "%s", line %d, in _fail_in_compile\n' % (re.escape(path), raise_line))
        self.assertIn("ValueError: compile refused 2048 elements", r.stderr)

    def test_callbacks_bind_to_the_cpp_reg_op_prototype(self):
        with open(GRAPH) as f:
            graph = f.read().replace('"CompiledAdd"', '"ProtoAdd"')
        path = os.path.join(self.tmp, "proto_add.json")
        with open(path, "w") as f:
            f.write(graph)
        out = os.path.join(self.tmp, "proto")
        opp = os.path.join(BUILD, "tests", "py12_opp") + ":" + os.path.join(HERE, "plugins", "proto_add")
        r = subprocess.run([ATC, "--model=" + path, "--framework=1", "--soc_version=host", "--output=" + out],
                           env=env_with(opp), capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[test] ProtoAdd compile [2048] [2048]", r.stdout.splitlines())
        self.assertEqual(self.run_om(out + ".om"), ["output 0: 3 x2048", "libpython mapped: no"])
        # Without the deliverable there is no IR to bind to: refused at load.
        r = subprocess.run([ATC, "--model=" + path, "--framework=1", "--soc_version=host", "--output=" + out],
                           env=env_with(opp.split(":")[1]), capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 255)
        self.assertIn("OA1803", r.stderr)
        self.assertIn("RuntimeError: canonical IR not found for schema-bound compile: ProtoAdd", r.stderr)

    def test_declare_launch_args_without_a_launch_or_with_a_bad_slot(self):
        path = os.path.join(self.tmp, "bad_declare.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                import os
                from ge.custom_op import (AnnotatedKernelLaunchInfo, get_declare_launch_args_ctx, register_op,
                                          register_op_impl)
                from ge.runtime import Tensor, TensorDesc

                @register_op(op_type="CompiledAdd")
                def compiled_add(x1: TensorDesc, x2: TensorDesc) -> TensorDesc:
                    return TensorDesc(x1.shape, x1.data_type)

                @register_op_impl(op_type="CompiledAdd")
                class NoLaunch:
                    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
                        if os.environ.get("PY12_BAD_SLOT") == "1":
                            get_declare_launch_args_ctx().create_kernel_args().append_input(2, x1)
                """))
        r, om = self.atc(path)
        self.assertEqual(r.returncode, 255)
        self.assertIn("atc: error: OA1404: '%s': node 'add' (CompiledAdd): DeclareLaunchArgs added no launch" % GRAPH,
                      r.stderr)
        r, om = self.atc(path, PY12_BAD_SLOT="1")
        self.assertEqual(r.returncode, 255)
        self.assertIn("the Python declare_launch_args of op type 'CompiledAdd' failed:", r.stderr)
        self.assertIn("IndexError: append_input: index 2 out of range (the node has 2 inputs)", r.stderr)


if __name__ == "__main__":
    unittest.main()
