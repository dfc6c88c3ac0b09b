"""acl.rt: devices, streams, memory, kernel binaries, args handles and launches over
libascendcl's aclrt* functions (include/acl/acl_rt.h). Kinds and policies are the C enums' ints."""
import ctypes

from ._lib import (ACL_ERROR_FEATURE_UNSUPPORTED, ACL_ERROR_INVALID_PARAM, FN, BinaryLoadOption,
                   BinaryLoadOptions, addr, out_int)

ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2


def set_device(device_id):
    return FN["aclrtSetDevice"](device_id)


def reset_device(device_id):
    return FN["aclrtResetDevice"](device_id)


def get_device():
    value = ctypes.c_int32(0)
    ret = FN["aclrtGetDevice"](ctypes.byref(value))
    return value.value, ret


def get_device_info(device_id, attr):
    value = ctypes.c_int64(0)
    ret = FN["aclrtGetDeviceInfo"](device_id, attr, ctypes.byref(value))
    return value.value, ret


def create_stream():
    stream = ctypes.c_void_p()
    ret = FN["aclrtCreateStream"](ctypes.byref(stream))
    return out_int(stream), ret


def destroy_stream(stream):
    return FN["aclrtDestroyStream"](addr(stream))


def synchronize_stream(stream):
    return FN["aclrtSynchronizeStream"](addr(stream))


def malloc(size, policy):
    ptr = ctypes.c_void_p()
    ret = FN["aclrtMalloc"](ctypes.byref(ptr), size, policy)
    return out_int(ptr), ret


def free(dev_ptr):
    return FN["aclrtFree"](addr(dev_ptr))


def malloc_host(size):
    ptr = ctypes.c_void_p()
    ret = FN["aclrtMallocHost"](ctypes.byref(ptr), size)
    return out_int(ptr), ret


def free_host(host_ptr):
    return FN["aclrtFreeHost"](addr(host_ptr))


def memcpy(dst, dest_max, src, count, kind):
    return FN["aclrtMemcpy"](addr(dst), dest_max, addr(src), count, kind)


def memcpy_async(dst, dest_max, src, count, kind, stream):
    return FN["aclrtMemcpyAsync"](addr(dst), dest_max, addr(src), count, kind, addr(stream))


def memset(dev_ptr, max_count, value, count):
    return FN["aclrtMemset"](addr(dev_ptr), max_count, value, count)


def _options(options):
    """aclrtBinaryLoadOptions from a list of (type, value) pairs; None or [] -> no options.
    Anything else -> None, and the caller answers ACL_ERROR_INVALID_PARAM."""
    if not options:
        return ctypes.POINTER(BinaryLoadOptions)(), True
    try:
        pairs = [(int(t), int(v)) for t, v in options]
    except (TypeError, ValueError):
        return None, False
    array = (BinaryLoadOption * len(pairs))()
    for slot, (kind, value) in zip(array, pairs):
        slot.type = kind
        slot.value.rsv[0] = value & 0xFFFFFFFF
    holder = BinaryLoadOptions(array, len(pairs))
    holder._keep = array
    return ctypes.pointer(holder), True


def binary_load_from_file(bin_path, options):
    """(bin_handle, ret). options: [] / None, or a list of (option type, value) pairs."""
    opts, ok = _options(options)
    if not ok:
        return 0, ACL_ERROR_INVALID_PARAM
    handle = ctypes.c_void_p()
    ret = FN["aclrtBinaryLoadFromFile"](str(bin_path).encode(), opts, ctypes.byref(handle))
    return out_int(handle), ret


def binary_load_from_data(data, length, options):
    """(bin_handle, ret); data is a bytes-like object or a host address."""
    opts, ok = _options(options)
    if not ok:
        return 0, ACL_ERROR_INVALID_PARAM
    keep = None
    if isinstance(data, (bytes, bytearray, memoryview)):
        keep = ctypes.create_string_buffer(bytes(data), len(data))
        data = ctypes.addressof(keep)
    handle = ctypes.c_void_p()
    ret = FN["aclrtBinaryLoadFromData"](addr(data), length, opts, ctypes.byref(handle))
    del keep
    return out_int(handle), ret


def binary_get_function(bin_handle, kernel_name):
    func = ctypes.c_void_p()
    ret = FN["aclrtBinaryGetFunction"](addr(bin_handle), str(kernel_name).encode(), ctypes.byref(func))
    return out_int(func), ret


def binary_unload(bin_handle):
    return FN["aclrtBinaryUnLoad"](addr(bin_handle))


def kernel_args_init(func_handle):
    args = ctypes.c_void_p()
    ret = FN["aclrtKernelArgsInit"](addr(func_handle), ctypes.byref(args))
    return out_int(args), ret


def kernel_args_append(args_handle, param, param_size):
    """(param_handle, ret); `param` is the host address of the parameter's bytes (copied)."""
    handle = ctypes.c_void_p()
    ret = FN["aclrtKernelArgsAppend"](addr(args_handle), addr(param), param_size, ctypes.byref(handle))
    return out_int(handle), ret


def kernel_args_finalize(args_handle):
    return FN["aclrtKernelArgsFinalize"](addr(args_handle))


def launch_kernel_with_config(func_handle, num_blocks, stream, cfg, args_handle, reserve):
    """cfg must be empty ([] or None): launch attributes are not supported on the host, so a
    non-empty cfg is ACL_ERROR_FEATURE_UNSUPPORTED rather than ignored. reserve must be 0."""
    if cfg:
        return ACL_ERROR_FEATURE_UNSUPPORTED
    return FN["aclrtLaunchKernelWithConfig"](addr(func_handle), num_blocks, addr(stream), None,
                                            addr(args_handle), addr(reserve) or None)
