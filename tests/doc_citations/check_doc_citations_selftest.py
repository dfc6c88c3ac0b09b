#!/usr/bin/env python3
"""Self-test of check_doc_citations.py on a made-up tree: each kind of citation is flagged with its
exact message, and the data paths the tests read, docs/ and build trees are not."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, 'check_doc_citations.py')

TREE = {
    # flagged
    'atc/a.cc': '// GE facts (shared/reference/acl-subset.md §2).\n',
    'common/b.h': '/* see design.md "Targets" */\n',
    'atc/c.cc': 'int x;\n// edges (reference §3)\n',
    'CMakeLists.txt': '# layout as in ../shared/cli.md\n',
    'tests/d.cc': '// the atc-cli.md §7 names\n',
    # not flagged
    'tests/e.cc': 'auto m = SourcePath("../shared/models");  // ../shared/models/README.md\n',
    'tests/f.txt': '--tier1 ${PROJECT_SOURCE_DIR}/../shared/conformance/tier1.tsv\n',
    'docs/ge-ir.md': 'Source: design.md and custom-op-api.md.\n',
    'build/gen.cc': '// shared/reference/samples.md\n',
    'atc/g.cc': '// docs/atc-flags.md §1; om_format/FORMAT.md; a shared_ptr/thing; preference §1\n',
    'atc/data.bin': b'\xff\xfe shared/reference/x.md',
}

EXPECTED = """CMakeLists.txt:1: cites 'cli.md', a document outside this repository
CMakeLists.txt:1: cites 'shared/', a document outside this repository
atc/a.cc:1: cites 'acl-subset.md', a document outside this repository
atc/a.cc:1: cites 'shared/', a document outside this repository
atc/a.cc:1: cites 'reference/acl-subset.md', a document outside this repository
atc/c.cc:2: cites 'reference §', a document outside this repository
common/b.h:1: cites 'design.md', a document outside this repository
tests/d.cc:1: cites 'atc-cli.md', a document outside this repository
8 citation(s) of documents outside the repository: put the facts in docs/ (in our words) and cite the docs/ page and section instead.
"""


def run(root):
    r = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return r.returncode, r.stdout


def main():
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for rel, content in TREE.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'wb') as f:
                f.write(content if isinstance(content, bytes) else content.encode())
        rc, out = run(root)
        if rc != 1 or out != EXPECTED:
            failures.append(f'dirty tree: rc {rc}, output:\n{out}--- expected rc 1 and:\n{EXPECTED}')
        # Remove the flagged files: the rest is clean.
        for rel in ['atc/a.cc', 'common/b.h', 'atc/c.cc', 'CMakeLists.txt', 'tests/d.cc']:
            os.remove(os.path.join(root, rel))
        rc, out = run(root)
        if rc != 0 or out != 'doc citations: clean\n':
            failures.append(f'clean tree: rc {rc}, output:\n{out}')
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
