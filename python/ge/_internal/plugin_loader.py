"""Imports the Python custom-op plugins named in ASCEND_CUSTOM_OPP_PATH, in GE's order.

Entries are split on os.pathsep and taken in order, blank ones skipped. A file must end in .py
and is imported as `_ge_py_custom_op_<stem>_<abs(hash(path))>`. A directory is scanned one level
deep in name order, skipping names starting with `_` or `.`: its *.py files are imported the same
way and its subdirectories holding __init__.py are imported as packages by name, with the
directory first on sys.path during the scan. A path already imported is not imported again.
"""
import importlib
import importlib.util
import os
import sys

_imported = set()


def _import_file(path):
    if path in _imported:
        return
    stem = os.path.splitext(os.path.basename(path))[0]
    name = "_ge_py_custom_op_%s_%d" % (stem, abs(hash(path)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _imported.add(path)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        _imported.discard(path)
        raise


def _import_dir(path):
    sys.path.insert(0, path)
    try:
        for name in sorted(os.listdir(path)):
            if name.startswith("_") or name.startswith("."):
                continue
            child = os.path.join(path, name)
            if os.path.isfile(child) and name.endswith(".py"):
                _import_file(os.path.realpath(child))
            elif os.path.isdir(child) and os.path.isfile(os.path.join(child, "__init__.py")):
                real = os.path.realpath(child)
                if real not in _imported:
                    importlib.import_module(name)
                    _imported.add(real)
    finally:
        try:
            sys.path.remove(path)
        except ValueError:
            pass


def load_plugins(spec):
    for entry in spec.split(os.pathsep):
        if not entry.strip():
            continue
        path = os.path.realpath(entry)
        if not os.path.exists(path):
            raise FileNotFoundError("Python custom op path[%s] does not exist or is inaccessible." % entry)
        if os.path.isdir(path):
            _import_dir(path)
        elif path.endswith(".py"):
            _import_file(path)
        else:
            raise ValueError("Python custom op path[%s] is a file that does not end in .py" % entry)
