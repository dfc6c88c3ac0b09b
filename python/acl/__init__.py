"""pyACL subset (`import acl`) over OpenATC's libascendcl.so, as GE's Python samples call it
(README.md "Python custom ops", docs/acl.md). Conventions as pyACL: functions that produce a
value return (value, ret), ret 0 on success; others return ret; addresses and handles are ints
(0 = null). Modules: acl (init, data buffers), acl.rt, acl.mdl, acl.util."""
from . import _lib
from ._lib import ACL_ERROR_INVALID_PARAM as _INVALID_PARAM, FN as _FN, addr as _addr
from ._lib import DATA_BUFFERS as _BUFFERS

__all__ = ["init", "finalize", "get_recent_err_msg", "create_data_buffer", "destroy_data_buffer",
           "update_data_buffer", "get_data_buffer_addr", "get_data_buffer_size",
           "get_data_buffer_size_v2", "rt", "mdl", "util"]


def init(config_path=None):
    """aclInit; an empty or absent config path means none."""
    path = config_path.encode() if config_path else None
    return _FN["aclInit"](path)


def finalize():
    return _FN["aclFinalize"]()


def get_recent_err_msg():
    """The text of the last failure in this thread ("" when none)."""
    text = _FN["aclGetRecentErrMsg"]()
    return text.decode(errors="replace") if text else ""


def create_data_buffer(data, size):
    """aclCreateDataBuffer: the buffer handle (0 on failure)."""
    return _BUFFERS.add(_FN["aclCreateDataBuffer"](_addr(data), size) or 0)


def destroy_data_buffer(data_buffer):
    if not _BUFFERS.discard(_addr(data_buffer)):
        return _INVALID_PARAM
    return _FN["aclDestroyDataBuffer"](data_buffer)


def update_data_buffer(data_buffer, data, size):
    if not _BUFFERS.known(_addr(data_buffer)):
        return _INVALID_PARAM
    return _FN["aclUpdateDataBuffer"](data_buffer, _addr(data), size)


def get_data_buffer_addr(data_buffer):
    if not _BUFFERS.known(_addr(data_buffer)):
        return 0
    return _FN["aclGetDataBufferAddr"](data_buffer) or 0


def get_data_buffer_size_v2(data_buffer):
    if not _BUFFERS.known(_addr(data_buffer)):
        return 0
    return _FN["aclGetDataBufferSizeV2"](data_buffer)


def get_data_buffer_size(data_buffer):
    """The buffer's byte size (pyACL returns the full size; this is aclGetDataBufferSizeV2)."""
    return get_data_buffer_size_v2(data_buffer)


from . import rt, mdl, util  # noqa: E402  (they import _lib, not this module's names)
