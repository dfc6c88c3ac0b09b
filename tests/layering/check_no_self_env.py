#!/usr/bin/env python3
"""Checks that the project never sets its own environment variables (docs/architecture.md "Targets";
README.md: environment variables are read once at start, never set by the project for itself).

Every call of setenv, putenv or unsetenv (also as ::setenv, std::..., os.environ[...] = ...,
os.putenv) in the product's source folders is reported when its variable is an OPENATC_*
variable, or when the variable is not a string literal (a constant or an expression could name
one). tests/ is not checked: tests set the environment of the processes they start.

Usage: check_no_self_env.py [REPO_ROOT]. Exit 0 when clean, 1 listing every call found.
"""
import os
import re
import sys

CHECKED = ['common', 'om_format', 'sdk', 'device', 'loader', 'atc', 'ge_api', 'ops', 'examples', 'python',
           'include']
SOURCE_EXT = ('.h', '.hpp', '.cc', '.cpp', '.c', '.inc', '.asc', '.py')
# A C/C++ call: the name, then the first argument up to ',' or ')'.
C_CALL = re.compile(r'(?<![A-Za-z0-9_])(?:::|std::)?(setenv|putenv|unsetenv)\s*\(\s*([^,)]*)')
# Python: os.environ['X'] = ..., os.environ.setdefault('X', ...), os.environ.update(...), os.putenv('X', ...).
PY_CALL = re.compile(r'os\.(?:environ\s*\[\s*([^\]]*)\]\s*=(?!=)|environ\.(setdefault|update|pop)\s*\(\s*([^,)]*)|'
                     r'(putenv|unsetenv)\s*\(\s*([^,)]*))')
LITERAL = re.compile(r'^(?:"([^"\\]*)"|\'([^\'\\]*)\')$')


def strip_comments(text, python):
    """The text without its comments (// and /* */ in C/C++, # in Python), line numbers kept."""
    if python:
        return '\n'.join(re.sub(r'#.*$', '', line) for line in text.split('\n'))
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return '\n'.join(re.sub(r'//.*$', '', line) for line in text.split('\n'))


def judge(arg):
    """None when the variable is a literal outside OPENATC_*, else the reason it is reported."""
    arg = arg.strip()
    m = LITERAL.match(arg)
    if not m:
        return 'the variable is not a string literal (%s), so it may be an OPENATC_* one' % (arg or 'none')
    name = m.group(1) if m.group(1) is not None else m.group(2)
    if name.split('=')[0].startswith('OPENATC_'):
        return 'sets the project\'s own variable %s' % name.split('=')[0]
    return None


def check(root):
    problems = []
    for top in CHECKED:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                python = f.endswith('.py')
                with open(path, encoding='utf-8', errors='replace') as fh:
                    text = strip_comments(fh.read(), python)
                for n, line in enumerate(text.split('\n'), 1):
                    if python:
                        for m in PY_CALL.finditer(line):
                            arg = m.group(1) if m.group(1) is not None else (m.group(3) if m.group(2) else m.group(5))
                            if m.group(2) == 'update':
                                why = 'os.environ.update may set any variable'
                            else:
                                why = judge(arg or '')
                            if why:
                                problems.append('%s:%d: %s: %s' % (rel, n, m.group(0).strip(), why))
                    else:
                        for m in C_CALL.finditer(line):
                            why = judge(m.group(2))
                            if why:
                                problems.append('%s:%d: %s(%s...): %s' % (rel, n, m.group(1), m.group(2).strip(), why))
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    problems = check(os.path.abspath(root))
    for p in problems:
        print('check_no_self_env: error: ' + p + '; pass the value explicitly instead (docs/architecture.md "Targets")')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
