"""The ctypes binding of libascendcl.so that the acl package's functions call (docs/acl.md).

The library is found, in order: the libascendcl.so already mapped into this process (so a Python
callback inside a C++ ge::Session shares the runtime's memory and kernel registries), the
install tree's P/lib64 beside P/python/site-packages, the build tree's <build>/lib beside
<build>/python/site-packages, then the dynamic linker's search (LD_LIBRARY_PATH, set by
P/set_env.sh)."""
import ctypes
import os
import threading

_NAME = "libascendcl.so"


def _mapped_path():
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.rstrip("\n").split(" ")[-1]
                if os.path.basename(path) == _NAME:
                    return path
    except OSError:
        pass
    return None


def _candidates():
    mapped = _mapped_path()
    if mapped:
        yield mapped
    site = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = os.path.dirname(os.path.dirname(site))
    for sub in ("lib64", "lib"):
        path = os.path.join(prefix, sub, _NAME)
        if os.path.isfile(path):
            yield path
    yield _NAME


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as error:
            errors.append(str(error))
    raise ImportError("acl: cannot load {}: {}. Source P/set_env.sh of an OpenATC install so that "
                      "LD_LIBRARY_PATH names its lib64".format(_NAME, "; ".join(errors)))


LIB = _load()

c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t
c_int = ctypes.c_int
c_uint32 = ctypes.c_uint32
c_int32 = ctypes.c_int32
c_int64 = ctypes.c_int64
c_char_p = ctypes.c_char_p
P = ctypes.POINTER


class BinaryLoadOptionValue(ctypes.Union):
    _fields_ = [("isLazyLoad", c_uint32), ("magic", c_uint32), ("cpuKernelMode", c_int32),
                ("rsv", c_uint32 * 4)]


class BinaryLoadOption(ctypes.Structure):
    _fields_ = [("type", c_int), ("value", BinaryLoadOptionValue)]


class BinaryLoadOptions(ctypes.Structure):
    _fields_ = [("options", P(BinaryLoadOption)), ("numOpt", c_size_t)]


class IODims(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 128), ("dimCount", c_size_t), ("dims", c_int64 * 64)]


_PROTOTYPES = {
    "aclInit": (c_int, [c_char_p]),
    "aclFinalize": (c_int, []),
    "aclGetRecentErrMsg": (c_char_p, []),
    "aclCreateDataBuffer": (c_void_p, [c_void_p, c_size_t]),
    "aclDestroyDataBuffer": (c_int, [c_void_p]),
    "aclUpdateDataBuffer": (c_int, [c_void_p, c_void_p, c_size_t]),
    "aclGetDataBufferAddr": (c_void_p, [c_void_p]),
    "aclGetDataBufferSizeV2": (c_size_t, [c_void_p]),
    "aclrtSetDevice": (c_int, [c_int32]),
    "aclrtResetDevice": (c_int, [c_int32]),
    "aclrtGetDevice": (c_int, [P(c_int32)]),
    "aclrtGetDeviceInfo": (c_int, [c_uint32, c_int, P(c_int64)]),
    "aclrtCreateStream": (c_int, [P(c_void_p)]),
    "aclrtDestroyStream": (c_int, [c_void_p]),
    "aclrtSynchronizeStream": (c_int, [c_void_p]),
    "aclrtMalloc": (c_int, [P(c_void_p), c_size_t, c_int]),
    "aclrtFree": (c_int, [c_void_p]),
    "aclrtMallocHost": (c_int, [P(c_void_p), c_size_t]),
    "aclrtFreeHost": (c_int, [c_void_p]),
    "aclrtMemcpy": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_int]),
    "aclrtMemcpyAsync": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_int, c_void_p]),
    "aclrtMemset": (c_int, [c_void_p, c_size_t, c_int32, c_size_t]),
    "aclrtBinaryLoadFromFile": (c_int, [c_char_p, P(BinaryLoadOptions), P(c_void_p)]),
    "aclrtBinaryLoadFromData": (c_int, [c_void_p, c_size_t, P(BinaryLoadOptions), P(c_void_p)]),
    "aclrtBinaryGetFunction": (c_int, [c_void_p, c_char_p, P(c_void_p)]),
    "aclrtBinaryUnLoad": (c_int, [c_void_p]),
    "aclrtKernelArgsInit": (c_int, [c_void_p, P(c_void_p)]),
    "aclrtKernelArgsAppend": (c_int, [c_void_p, c_void_p, c_size_t, P(c_void_p)]),
    "aclrtKernelArgsFinalize": (c_int, [c_void_p]),
    "aclrtLaunchKernelWithConfig": (c_int, [c_void_p, c_uint32, c_void_p, c_void_p, c_void_p, c_void_p]),
    "aclmdlLoadFromFile": (c_int, [c_char_p, P(c_uint32)]),
    "aclmdlLoadFromMem": (c_int, [c_void_p, c_size_t, P(c_uint32)]),
    "aclmdlUnload": (c_int, [c_uint32]),
    "aclmdlCreateDesc": (c_void_p, []),
    "aclmdlDestroyDesc": (c_int, [c_void_p]),
    "aclmdlGetDesc": (c_int, [c_void_p, c_uint32]),
    "aclmdlGetNumInputs": (c_size_t, [c_void_p]),
    "aclmdlGetNumOutputs": (c_size_t, [c_void_p]),
    "aclmdlGetInputSizeByIndex": (c_size_t, [c_void_p, c_size_t]),
    "aclmdlGetOutputSizeByIndex": (c_size_t, [c_void_p, c_size_t]),
    "aclmdlGetInputNameByIndex": (c_char_p, [c_void_p, c_size_t]),
    "aclmdlGetOutputNameByIndex": (c_char_p, [c_void_p, c_size_t]),
    "aclmdlGetInputDataType": (c_int, [c_void_p, c_size_t]),
    "aclmdlGetOutputDataType": (c_int, [c_void_p, c_size_t]),
    "aclmdlGetInputFormat": (c_int, [c_void_p, c_size_t]),
    "aclmdlGetOutputFormat": (c_int, [c_void_p, c_size_t]),
    "aclmdlGetInputDims": (c_int, [c_void_p, c_size_t, P(IODims)]),
    "aclmdlGetOutputDims": (c_int, [c_void_p, c_size_t, P(IODims)]),
    "aclmdlCreateDataset": (c_void_p, []),
    "aclmdlDestroyDataset": (c_int, [c_void_p]),
    "aclmdlAddDatasetBuffer": (c_int, [c_void_p, c_void_p]),
    "aclmdlGetDatasetNumBuffers": (c_size_t, [c_void_p]),
    "aclmdlGetDatasetBuffer": (c_void_p, [c_void_p, c_size_t]),
    "aclmdlExecute": (c_int, [c_uint32, c_void_p, c_void_p]),
    "aclmdlExecuteAsync": (c_int, [c_uint32, c_void_p, c_void_p, c_void_p]),
    "aclmdlInitDump": (c_int, []),
    "aclmdlSetDump": (c_int, [c_char_p]),
    "aclmdlFinalizeDump": (c_int, []),
}


def _bind():
    table = {}
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(LIB, name)
        fn.restype = restype
        fn.argtypes = argtypes
        table[name] = fn
    return table


FN = _bind()

# ACL error codes this package returns itself (acl_base_rt.h values).
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_FEATURE_UNSUPPORTED = 200006


class LiveHandles:
    """The data buffers this process made or was handed by acl.mdl.get_dataset_buffer. libascendcl
    does not check an aclDataBuffer pointer (a bad one would be dereferenced), so the acl functions
    taking one answer ACL_ERROR_INVALID_PARAM (or 0) for a handle not in this set."""

    def __init__(self):
        self._live = set()
        self._lock = threading.Lock()

    def add(self, handle):
        if handle:
            with self._lock:
                self._live.add(handle)
        return handle

    def discard(self, handle):
        with self._lock:
            if handle in self._live:
                self._live.remove(handle)
                return True
        return False

    def known(self, handle):
        with self._lock:
            return handle in self._live


DATA_BUFFERS = LiveHandles()


def addr(value):
    """An address argument (int or None) as ctypes takes it; anything else is a TypeError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("acl: an address or handle must be an int, got {}".format(type(value).__name__))
    return value


def out_int(ptr):
    """The int value of a c_void_p out-parameter (0 for null)."""
    return ptr.value or 0
