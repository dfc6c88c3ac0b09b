#!/usr/bin/env python3
"""check_layering.py on small made-up trees: a clean one passes, each kind of violation fails
with its exact message. Usage: check_layering_selftest.py (exit 0 when every case holds)."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_layering.py')

BASE = {
    'include/acl/acl_rt.h': '',
    'common/include/openatc/common/error.h': '',
    'device/rt/include/openatc/rt/runtime.h': '#include "acl/acl_rt.h"\n',
    'device/rt/src/stream.h': '',
    'device/rt/src/stream.cc': '#include "stream.h"\n#include "openatc/rt/runtime.h"\n',
    'loader/runtime/include/openatc/runtime/model.h': '#include "openatc/common/error.h"\n',
    'loader/runtime/src/executor.cc': '#include "openatc/runtime/model.h"\n#include <openatc/rt/runtime.h>\n',
    'device/rt/CMakeLists.txt': 'add_library(openatc_device OBJECT src/stream.cc)\n',
    'loader/runtime/CMakeLists.txt': 'add_library(openatc_runtime STATIC src/executor.cc)\n',
}

CASES = [
    ('clean tree', {}, 0, []),
    ('upward include', {'device/rt/src/bad.cc': '#include "openatc/runtime/model.h"\n'}, 1,
     ['check_layering: error: device/rt/src/bad.cc:1: #include "openatc/runtime/model.h": owned by '
      'loader/runtime; rule broken: device/rt may use only include, common']),
    ('another component\'s src/ by relative path',
     {'loader/runtime/src/peek.cc': '\n#include "../../../device/rt/src/stream.h"\n'}, 1,
     ['check_layering: error: loader/runtime/src/peek.cc:2: #include "../../../device/rt/src/stream.h": '
      'resolves to device/rt/src/stream.h, inside the private part of device/rt (only its include/ is '
      'public); rule broken: no component includes another one\'s src/']),
    ('include directory into another component\'s src/',
     {'loader/runtime/CMakeLists.txt': 'add_library(openatc_runtime STATIC src/executor.cc)\n'
      'target_include_directories(openatc_runtime PRIVATE ${PROJECT_SOURCE_DIR}/device/rt/src)\n'}, 1,
     ['check_layering: error: loader/runtime/CMakeLists.txt:2: include directory '
      '${PROJECT_SOURCE_DIR}/device/rt/src: points into the private part of device/rt; rule broken: no '
      'component includes another one\'s src/']),
    ('upward link',
     {'device/rt/CMakeLists.txt': 'add_library(openatc_device OBJECT src/stream.cc)\n'
      'target_link_libraries(openatc_device PRIVATE openatc_runtime)\n'}, 1,
     ['check_layering: error: device/rt/CMakeLists.txt:2: openatc_device links openatc_runtime (owned by '
      'loader/runtime); rule broken: device/rt may use only include, common']),
    ('device objects linked twice',
     {'tests/x/CMakeLists.txt': 'target_link_libraries(some_test PRIVATE openatc_device)\n'}, 1,
     ['check_layering: error: tests/x/CMakeLists.txt:1: some_test links openatc_device; rule broken: only '
      'ascendcl may (its objects, and so its process-wide state, go into exactly one shared object)']),
    ('ops sees only include/', {'ops/Bad.cc': '#include "openatc/common/error.h"\n'}, 1,
     ['check_layering: error: ops/Bad.cc:1: #include "openatc/common/error.h": owned by common; rule '
      'broken: ops may use only include']),
]


def run_case(extra):
    with tempfile.TemporaryDirectory() as root:
        for rel, text in {**BASE, **extra}.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w') as f:
                f.write(text)
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        return p.returncode, [l for l in p.stdout.splitlines() if l.startswith('check_layering: error:')]


def main():
    failed = 0
    for name, extra, want_rc, want_errors in CASES:
        rc, errors = run_case(extra)
        if rc != want_rc or errors != want_errors:
            failed += 1
            print('FAIL %s: exit %d, errors %r; expected exit %d, errors %r' % (name, rc, errors, want_rc, want_errors))
        else:
            print('ok   %s' % name)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
