"""acl.util: host pointers to and from Python bytes and numpy arrays, as pyACL's util module.
A pointer taken from bytes or an array is valid while that object lives and is not resized."""
import ctypes

from ._lib import addr

_bytes_as_string = ctypes.pythonapi.PyBytes_AsString
_bytes_as_string.restype = ctypes.c_void_p
_bytes_as_string.argtypes = [ctypes.py_object]


def bytes_to_ptr(data):
    """The address of a bytes object's bytes (no copy), or of a bytearray's buffer."""
    if isinstance(data, bytes):
        return _bytes_as_string(data) or 0
    if isinstance(data, bytearray):
        return ctypes.addressof((ctypes.c_char * len(data)).from_buffer(data)) if data else 0
    raise TypeError("acl.util.bytes_to_ptr: expected bytes or bytearray, got {}".format(type(data).__name__))


def ptr_to_bytes(ptr, size):
    """A bytes copy of `size` bytes at host address `ptr`."""
    if size < 0:
        raise ValueError("acl.util.ptr_to_bytes: size must be >= 0, got {}".format(size))
    if size == 0:
        return b""
    if not addr(ptr):
        raise ValueError("acl.util.ptr_to_bytes: ptr is null")
    return ctypes.string_at(ptr, size)


def numpy_to_ptr(array):
    """The data address of a C-contiguous numpy array (no copy)."""
    import numpy as np

    if not isinstance(array, np.ndarray):
        raise TypeError("acl.util.numpy_to_ptr: expected numpy.ndarray, got {}".format(type(array).__name__))
    if not array.flags["C_CONTIGUOUS"]:
        raise ValueError("acl.util.numpy_to_ptr: the array is not C-contiguous; pass numpy.ascontiguousarray(a)")
    return array.ctypes.data


def _dtype(np, np_type):
    if isinstance(np_type, int) and not isinstance(np_type, bool):
        for code in np.typecodes["All"]:
            if np.dtype(code).num == np_type:
                return np.dtype(code)
        raise ValueError("acl.util.ptr_to_numpy: {} is not a numpy type number".format(np_type))
    return np.dtype(np_type)


def ptr_to_numpy(ptr, shape, np_type):
    """A numpy array of `shape` viewing host memory at `ptr` (no copy). np_type is a numpy
    type number (numpy.dtype(...).num, e.g. 11 for float32) or anything numpy.dtype accepts."""
    import numpy as np

    dtype = _dtype(np, np_type)
    shape = tuple(int(d) for d in shape)
    count = 1
    for d in shape:
        count *= d
    if count and not addr(ptr):
        raise ValueError("acl.util.ptr_to_numpy: ptr is null")
    buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(ptr) if count else bytearray()
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)
