#!/usr/bin/env python3
"""check_no_self_env.py on small made-up trees: a clean one passes, each reported form fails with
its exact message. Usage: check_no_self_env_selftest.py (exit 0 when every case holds)."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_no_self_env.py')
HINT = '; pass the value explicitly instead (docs/architecture.md "Targets")'

CASES = [
    ('clean tree', {'common/src/a.cc': 'const char *v = std::getenv("OPENATC_HOST_CXX");\n'
                                        '// setenv("OPENATC_X", "1", 1) in a comment\n'
                                        'setenv("TZ", "UTC", 1);\n'}, 0, []),
    ('a tests/ file is not checked', {'tests/t.cc': 'setenv("OPENATC_EMULATION", "1", 1);\n'}, 0, []),
    ('OPENATC_ literal', {'device/rtc/src/b.cc': '\n  ::setenv("OPENATC_RTC_TARGET", v.c_str(), 1);\n'}, 1,
     ['check_no_self_env: error: device/rtc/src/b.cc:2: setenv("OPENATC_RTC_TARGET"...): sets the project\'s own '
      'variable OPENATC_RTC_TARGET' + HINT]),
    ('a constant', {'common/include/openatc/common/t.h': 'inline void S() { setenv(kTargetEnv, "x", 1); }\n'}, 1,
     ['check_no_self_env: error: common/include/openatc/common/t.h:1: setenv(kTargetEnv...): the variable is not a '
      'string literal (kTargetEnv), so it may be an OPENATC_* one' + HINT]),
    ('putenv and unsetenv', {'atc/x/src/c.cc': 'putenv("OPENATC_GM_CHECK=warn");\nstd::unsetenv("OPENATC_GM_CHECK");\n'},
     1, ['check_no_self_env: error: atc/x/src/c.cc:1: putenv("OPENATC_GM_CHECK=warn"...): sets the project\'s own '
         'variable OPENATC_GM_CHECK' + HINT,
         'check_no_self_env: error: atc/x/src/c.cc:2: unsetenv("OPENATC_GM_CHECK"...): sets the project\'s own '
         'variable OPENATC_GM_CHECK' + HINT]),
    ('python os.environ', {'python/ge/m.py': "import os\nos.environ['OPENATC_EMULATION'] = '1'\n"}, 1,
     ["check_no_self_env: error: python/ge/m.py:2: os.environ['OPENATC_EMULATION'] =: sets the project's own "
      "variable OPENATC_EMULATION" + HINT]),
]


def run_case(name, files, want_rc, want_lines):
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
        r = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        lines = [l for l in r.stdout.split('\n') if l]
        if r.returncode != want_rc or lines != want_lines:
            print('FAIL %s: rc %d (want %d)\n got: %r\nwant: %r' % (name, r.returncode, want_rc, lines, want_lines))
            return False
    print('ok   %s' % name)
    return True


def main():
    results = [run_case(*c) for c in CASES]
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
