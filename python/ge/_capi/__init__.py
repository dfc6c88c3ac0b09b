"""ge._capi: how OpenATC's ge packages reach their native libraries.

The libraries sit beside libge_runner.so: <tree>/lib64 in an install tree (P/python/site-packages
is this package's grandparent's parent), <build>/lib in a build tree.
"""
import ctypes
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig

_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def lib_dirs():
    """The folders searched for OpenATC's libraries, in order."""
    return [d for d in (os.path.join(_ROOT, "lib64"), os.path.join(_ROOT, "lib")) if os.path.isdir(d)]


def find_library(file_name):
    """The path of an OpenATC library, or raise ImportError naming every folder searched."""
    for d in lib_dirs():
        path = os.path.join(d, file_name)
        if os.path.exists(path):
            return path
    raise ImportError("OpenATC library '{}' not found in {} (is the install tree complete? "
                      "source <tree>/set_env.sh)".format(file_name, ", ".join(lib_dirs()) or _ROOT))


_cdll_cache = {}


def load_cdll(file_name):
    """ctypes.CDLL of an OpenATC library (loaded once, RTLD_GLOBAL so generated wrappers link to it)."""
    if file_name not in _cdll_cache:
        _cdll_cache[file_name] = ctypes.CDLL(find_library(file_name), mode=ctypes.RTLD_GLOBAL)
    return _cdll_cache[file_name]


_native = None


def native():
    """The pybind11 module _ge_native (ge_initialize, Session) for this interpreter."""
    global _native
    if _native is None:
        name = "_ge_native" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
        path = find_library(name)
        loader = importlib.machinery.ExtensionFileLoader("ge._capi._ge_native", path)
        spec = importlib.util.spec_from_file_location("ge._capi._ge_native", path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        sys.modules["ge._capi._ge_native"] = module
        _native = module
    return _native
