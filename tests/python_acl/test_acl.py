"""pyACL subset (python/acl, README.md "Python custom ops") in a plain python3 process: an OM built
by our atc from a C++ op (tests/deliverables/axpy: y = alpha * x1 + x2, alpha = 2.5) run twice with
fresh buffers; an Ascend C kernel from our `bisheng -c` + llvm-objcopy loaded with
binary_load_from_file and launched with launch_kernel_with_config; error returns for bad handles.
Needs OPENATC_BUILD_DIR and PYTHONPATH=<build>/python/site-packages."""
import ctypes
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

import acl

BUILD = os.environ["OPENATC_BUILD_DIR"]
HERE = os.path.dirname(os.path.abspath(__file__))
NORMAL_ONLY, H2D, D2H = 2, 1, 2
INVALID_PARAM, INVALID_MODEL_ID, KERNEL_NOT_FOUND, FEATURE_UNSUPPORTED = 100000, 100011, 100029, 200006


def floats(values):
    return struct.pack("<%df" % len(values), *values)


def unfloats(data):
    return list(struct.unpack("<%df" % (len(data) // 4), data))


def to_device(data):
    ptr, ret = acl.rt.malloc(len(data), NORMAL_ONLY)
    assert ret == 0 and ptr != 0, ret
    assert acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), H2D) == 0
    return ptr


def from_device(ptr, size):
    host, ret = acl.rt.malloc_host(size)
    assert ret == 0
    try:
        assert acl.rt.memcpy(host, size, ptr, size, D2H) == 0
        return acl.util.ptr_to_bytes(host, size)
    finally:
        assert acl.rt.free_host(host) == 0


class AclTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pyacl12_")
        env = dict(os.environ, ASCEND_CUSTOM_OPP_PATH=os.path.join(BUILD, "tests", "opp", "axpy"))
        r = subprocess.run([os.path.join(BUILD, "bin", "atc"), "--model=" + os.path.join(HERE, "axpy.json"),
                            "--framework=1", "--soc_version=host", "--output=" + os.path.join(cls.tmp, "axpy")],
                           env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        cls.om = os.path.join(cls.tmp, "axpy.om")
        assert acl.init() == 0
        assert acl.rt.set_device(0) == 0

    @classmethod
    def tearDownClass(cls):
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def prepare_round(self, desc, x1, x2):
        """Fresh device buffers and datasets for one execution: (addresses, buffers, datasets)."""
        sizes = [acl.mdl.get_input_size_by_index(desc, i) for i in range(2)]
        out_size = acl.mdl.get_output_size_by_index(desc, 0)
        self.assertEqual(sizes + [out_size], [32, 32, 32])
        ptrs = [to_device(floats(x1)), to_device(floats(x2))]
        out, ret = acl.rt.malloc(out_size, NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.memset(out, out_size, 0xFF, out_size), 0)
        ptrs.append(out)
        datasets = [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
        buffers = []
        for i, ptr in enumerate(ptrs):
            buffers.append(acl.create_data_buffer(ptr, 32))
            self.assertEqual(acl.get_data_buffer_size(buffers[-1]), 32)
            self.assertEqual(acl.get_data_buffer_addr(buffers[-1]), ptr)
            ds = datasets[0 if i < 2 else 1]
            self.assertEqual(acl.mdl.add_dataset_buffer(ds, buffers[-1]), (ds, 0))
        self.assertEqual(acl.mdl.get_dataset_num_buffers(datasets[0]), 2)
        self.assertEqual(acl.mdl.get_dataset_buffer(datasets[0], 1), buffers[1])
        return ptrs, buffers, datasets

    def execute_round(self, model_id, prepared):
        ptrs, buffers, datasets = prepared
        self.assertEqual(acl.mdl.execute(model_id, datasets[0], datasets[1]), 0)
        return unfloats(from_device(ptrs[2], 32))

    def release_round(self, prepared):
        ptrs, buffers, datasets = prepared
        for b in buffers:
            self.assertEqual(acl.destroy_data_buffer(b), 0)
        for d in datasets:
            self.assertEqual(acl.mdl.destroy_dataset(d), 0)
        for p in ptrs:
            self.assertEqual(acl.rt.free(p), 0)

    def test_om_runs_twice_with_fresh_buffers(self):
        model_id, ret = acl.mdl.load_from_file(self.om)
        self.assertEqual(ret, 0)
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, model_id), 0)
        self.assertEqual((acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)), (2, 1))
        self.assertEqual(acl.mdl.get_input_dims(desc, 0), ({"name": "x1", "dimCount": 2, "dims": [2, 4]}, 0))
        self.assertEqual(acl.mdl.get_input_name_by_index(desc, 1), "x2")
        self.assertEqual((acl.mdl.get_input_data_type(desc, 0), acl.mdl.get_input_format(desc, 0)), (0, 2))
        # Both rounds' buffers are alive together, so round 2 runs at addresses round 1 never used.
        round1 = self.prepare_round(desc, [float(i) for i in range(8)], [1.0] * 8)
        round2 = self.prepare_round(desc, [-2.0] * 8, [float(10 * i) for i in range(8)])
        self.assertEqual(set(round1[0]) & set(round2[0]), set())
        self.assertEqual(self.execute_round(model_id, round1), [1.0, 3.5, 6.0, 8.5, 11.0, 13.5, 16.0, 18.5])
        self.assertEqual(self.execute_round(model_id, round2), [-5.0, 5.0, 15.0, 25.0, 35.0, 45.0, 55.0, 65.0])
        self.release_round(round1)
        self.release_round(round2)
        self.assertEqual(acl.mdl.destroy_desc(desc), 0)
        self.assertEqual(acl.mdl.unload(model_id), 0)
        # The same model from memory gives the same answer.
        with open(self.om, "rb") as f:
            image = f.read()
        model_id, ret = acl.mdl.load_from_mem(image, len(image))
        self.assertEqual(ret, 0)
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, model_id), 0)
        round3 = self.prepare_round(desc, [4.0] * 8, [0.5] * 8)
        self.assertEqual(self.execute_round(model_id, round3), [10.5] * 8)
        self.release_round(round3)
        self.assertEqual(acl.mdl.destroy_desc(desc), 0)
        self.assertEqual(acl.mdl.unload(model_id), 0)

    def kernel_binary(self):
        obj, binary = os.path.join(self.tmp, "scale_sub.host.o"), os.path.join(self.tmp, "scale_sub.aicore.o")
        r = subprocess.run([os.path.join(BUILD, "bin", "bisheng"), "-c", os.path.join(HERE, "scale_sub.asc"),
                            "-o", obj, "--npu-arch=dav-2201"], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = subprocess.run(["llvm-objcopy", "-O", "binary", "--only-section=.aicore_binary", obj, binary],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return binary

    def launch(self, func, x, y, blocks, stream):
        """z = 3x - y through kernel_args_* and launch_kernel_with_config; returns z."""
        px, py = to_device(floats(x)), to_device(floats(y))
        pz = to_device(floats([-1.0] * len(x)))
        args, ret = acl.rt.kernel_args_init(func)
        self.assertEqual(ret, 0)
        values = [ctypes.c_uint64(p) for p in (px, py, pz)]
        for v in values:
            param, ret = acl.rt.kernel_args_append(args, ctypes.addressof(v), ctypes.sizeof(v))
            self.assertEqual(ret, 0)
            self.assertNotEqual(param, 0)
        self.assertEqual(acl.rt.kernel_args_finalize(args), 0)
        self.assertEqual(acl.rt.launch_kernel_with_config(func, blocks, stream, [], args, 0), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        z = unfloats(from_device(pz, 4 * len(x)))
        for p in (px, py, pz):
            self.assertEqual(acl.rt.free(p), 0)
        return z, args

    def test_bisheng_kernel_launch_with_config(self):
        binary = self.kernel_binary()
        handle, ret = acl.rt.binary_load_from_file(binary, [])
        self.assertEqual(ret, 0)
        func, ret = acl.rt.binary_get_function(handle, "scale_sub")
        self.assertEqual(ret, 0)
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        x = [float(i) for i in range(16)]
        y = [0.5 * i for i in range(16)]
        z, args = self.launch(func, x, y, 2, stream)
        self.assertEqual(z, [2.5 * i for i in range(16)])
        # Only the first block: the second half keeps its -1 fill.
        z, _ = self.launch(func, x, y, 1, stream)
        self.assertEqual(z, [2.5 * i for i in range(8)] + [-1.0] * 8)
        # A launch with attributes is refused, not ignored; a finalized args block takes no more.
        self.assertEqual(acl.rt.launch_kernel_with_config(func, 2, stream, [(1, 1)], args, 0), FEATURE_UNSUPPORTED)
        v = ctypes.c_uint64(0)
        self.assertEqual(acl.rt.kernel_args_append(args, ctypes.addressof(v), 8)[1], INVALID_PARAM)
        self.assertEqual(acl.rt.destroy_stream(stream), 0)
        # The same bytes from memory with the VECTOR_CORE magic option load as the same binary.
        with open(binary, "rb") as f:
            data = f.read()
        handle2, ret = acl.rt.binary_load_from_data(data, len(data), [(2, 0x41415246)])
        self.assertEqual((handle2, ret), (handle, 0))
        self.assertEqual(acl.rt.binary_unload(handle2), 0)
        self.assertEqual(acl.rt.binary_unload(handle), 0)
        self.assertEqual(acl.rt.binary_get_function(handle, "scale_sub")[1], INVALID_PARAM)

    def test_bad_handles_return_errors(self):
        self.assertEqual(acl.rt.free(0x1234), INVALID_PARAM)
        self.assertIn("aclrtFree", acl.get_recent_err_msg())
        self.assertEqual(acl.rt.binary_get_function(0xDEAD0, "scale_sub"), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.binary_unload(0xDEAD0), INVALID_PARAM)
        self.assertEqual(acl.rt.kernel_args_init(0xDEAD0), (0, INVALID_PARAM))
        v = ctypes.c_uint64(0)
        self.assertEqual(acl.rt.kernel_args_append(0xBEEF0, ctypes.addressof(v), 8), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.kernel_args_finalize(0xBEEF0), INVALID_PARAM)
        self.assertEqual(acl.rt.launch_kernel_with_config(0xDEAD0, 1, 0, [], 0xBEEF0, 0), INVALID_PARAM)
        self.assertEqual(acl.rt.binary_load_from_file(os.path.join(self.tmp, "none.o"), [])[1], 100003)
        self.assertEqual(acl.rt.binary_load_from_file(os.path.join(self.tmp, "none.o"), ["x"]), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.destroy_stream(0xABC0), INVALID_PARAM)
        self.assertNotEqual(acl.mdl.load_from_file(os.path.join(self.tmp, "none.om"))[1], 0)
        self.assertEqual(acl.mdl.unload(9999), INVALID_MODEL_ID)
        self.assertEqual(acl.mdl.execute(9999, 0, 0), INVALID_MODEL_ID)
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, 9999), INVALID_MODEL_ID)
        self.assertEqual(acl.mdl.destroy_desc(desc), 0)
        self.assertEqual(acl.mdl.destroy_desc(desc), INVALID_PARAM)
        self.assertEqual(acl.mdl.get_num_inputs(0x5550), 0)
        self.assertEqual(acl.mdl.get_input_dims(0x5550, 0), ({}, INVALID_PARAM))
        self.assertEqual(acl.mdl.destroy_dataset(0x7770), INVALID_PARAM)
        self.assertEqual(acl.mdl.add_dataset_buffer(0x7770, 0x8880)[1], INVALID_PARAM)
        self.assertEqual(acl.destroy_data_buffer(0x8880), INVALID_PARAM)
        self.assertEqual((acl.get_data_buffer_addr(0x8880), acl.get_data_buffer_size(0x8880)), (0, 0))
        ds = acl.mdl.create_dataset()
        self.assertEqual(acl.mdl.add_dataset_buffer(ds, 0x8880), (ds, INVALID_PARAM))
        self.assertEqual(acl.mdl.get_dataset_num_buffers(ds), 0)
        buf = acl.create_data_buffer(0, 0)
        self.assertNotEqual(buf, 0)
        self.assertEqual(acl.destroy_data_buffer(buf), 0)
        self.assertEqual(acl.destroy_data_buffer(buf), INVALID_PARAM)
        self.assertEqual(acl.mdl.destroy_dataset(ds), 0)
        self.assertEqual(acl.mdl.get_dataset_buffer(0x7770, 0), 0)
        with self.assertRaises(TypeError):
            acl.rt.free("0x1234")
        with self.assertRaises(TypeError):
            acl.util.bytes_to_ptr("text")

    def test_wrong_buffer_size_is_refused(self):
        model_id, ret = acl.mdl.load_from_file(self.om)
        self.assertEqual(ret, 0)
        sizes = [16, 16, 32]
        ptrs = [acl.rt.malloc(n, NORMAL_ONLY)[0] for n in sizes]
        ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        bufs = [acl.create_data_buffer(p, n) for p, n in zip(ptrs, sizes)]
        for i, b in enumerate(bufs):
            self.assertEqual(acl.mdl.add_dataset_buffer(ins if i < 2 else outs, b)[1], 0)
        self.assertEqual(acl.mdl.execute(model_id, ins, outs), 100017)
        self.assertIn("needs 32 bytes", acl.get_recent_err_msg())
        for b in bufs:
            self.assertEqual(acl.destroy_data_buffer(b), 0)
        self.assertEqual((acl.mdl.destroy_dataset(ins), acl.mdl.destroy_dataset(outs)), (0, 0))
        for p in ptrs:
            self.assertEqual(acl.rt.free(p), 0)
        self.assertEqual(acl.mdl.unload(model_id), 0)

    def test_dump_session_writes_the_omrun_layout(self):
        """acl.mdl.init_dump/set_dump/finalize_dump (docs/acl.md §8): one step of axpy dumped."""
        import numpy as np
        dump = os.path.join(self.tmp, "dump")
        os.makedirs(dump)
        cfg = os.path.join(self.tmp, "dump.json")
        with open(cfg, "w") as f:
            f.write('{"dump": {"dump_path": "%s", "dump_mode": "all", "dump_list": [{"model_name": "axpy"}]}}' % dump)
        self.assertEqual(acl.mdl.set_dump(cfg), 100045)  # ACL_ERROR_DUMP_NOT_RUN: no init_dump yet
        self.assertEqual(acl.mdl.init_dump(), 0)
        self.assertEqual(acl.mdl.set_dump(cfg), 0)
        model_id, ret = acl.mdl.load_from_file(self.om)
        self.assertEqual(ret, 0)
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, model_id), 0)
        prepared = self.prepare_round(desc, [float(i) for i in range(8)], [1.0] * 8)
        self.assertEqual(self.execute_round(model_id, prepared), [1.0, 3.5, 6.0, 8.5, 11.0, 13.5, 16.0, 18.5])
        self.release_round(prepared)
        self.assertEqual(acl.mdl.destroy_desc(desc), 0)
        self.assertEqual(acl.mdl.unload(model_id), 0)
        self.assertEqual(acl.mdl.finalize_dump(), 0)
        (stamp,) = os.listdir(dump)
        step = os.path.join(dump, stamp, "0", "axpy", str(model_id), "0")
        self.assertEqual(sorted(os.listdir(step)),
                         ["axpy.0.npy", "axpy.input.0.npy", "axpy.input.1.npy", "index.json"])
        self.assertEqual(np.load(os.path.join(step, "axpy.input.0.npy")).tolist(),
                         [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]])
        self.assertEqual(np.load(os.path.join(step, "axpy.0.npy")).tolist(),
                         [[1.0, 3.5, 6.0, 8.5], [11.0, 13.5, 16.0, 18.5]])  # 2.5 * x1 + 1 by hand

    def test_util_numpy_round_trip(self):
        import numpy as np

        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(a), (2, 3), 11)
        self.assertEqual(view.dtype, np.float32)
        self.assertEqual(view.tolist(), [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
        a[1, 2] = 9.0
        self.assertEqual(float(view[1, 2]), 9.0)
        data = bytearray(b"\x01\x02\x03")
        self.assertEqual(acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(data), 3), b"\x01\x02\x03")
        with self.assertRaises(ValueError):
            acl.util.numpy_to_ptr(a.T)


if __name__ == "__main__":
    unittest.main()
