#!/usr/bin/env python3
"""Fails when a file outside docs/ cites a document that is not part of this repository.

The project was specified in documents kept next to the repository (a design card, a command-line
card, GE reference notes). A reader of the repository alone cannot follow a comment that cites
them, so the facts the code relies on live in docs/ and comments cite those pages. This check
flags any mention of those documents by name, any path into the shared folder other than the data
the tests read (../shared/models, ../shared/conformance), and "reference §N" style citations.

Usage: check_doc_citations.py [REPO_ROOT]. Exit 0 when clean, 1 listing every citation.
"""
import os
import re
import sys

# The documents outside the repository, by file name.
DOCUMENTS = [
    'design.md', 'cli.md', 'style.md', 'peer.md', 'atc-cli.md', 'atc-deploy.md',
    'custom-op-api.md', 'python-custom-op-api.md', 'air-and-json-graph.md', 'om-format.md',
    'acl-subset.md', 'samples.md', 'ascend-c-host.md',
]
PATTERNS = [
    re.compile(r'(?<![A-Za-z0-9_-])(?:' + '|'.join(re.escape(d) for d in DOCUMENTS) + r')(?![A-Za-z0-9_])'),
    # A path into the shared folder, except the data sets the tests read.
    re.compile(r'(?<![A-Za-z0-9_])shared/(?!models(?![A-Za-z0-9_-])|conformance/)'),
    # "reference §3", "reference/xyz.md": the reference notes without naming them.
    re.compile(r'(?<![A-Za-z0-9_])reference(?: §|/[A-Za-z0-9_-]+\.md)'),
]

# Folders never checked: docs/ (where the facts are allowed to name their sources), build trees,
# VCS and tool caches.
SKIP_TOP = {'docs', '.git', '.cache'}
# This checker's own files name the documents on purpose.
SELF = {'tests/doc_citations/check_doc_citations.py', 'tests/doc_citations/check_doc_citations_selftest.py'}
# Files another change owns right now (the target handling); their citations move to docs/ when
# that change lands. Remove an entry once its file is clean.
PENDING = set()


def files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == '.':
            dirnames[:] = [d for d in dirnames if d not in SKIP_TOP and not d.startswith('build')]
        dirnames.sort()
        for name in sorted(filenames):
            rel = os.path.normpath(os.path.join(rel_dir, name))
            yield rel, os.path.join(dirpath, name)


def check(root):
    problems, pending = [], []
    for rel, path in files(root):
        if rel in SELF:
            continue
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary data (models, OMs, seeds): not prose
        for lineno, line in enumerate(text.splitlines(), 1):
            for pattern in PATTERNS:
                for m in pattern.finditer(line):
                    entry = f"{rel}:{lineno}: cites '{m.group(0)}', a document outside this repository"
                    (pending if rel in PENDING else problems).append(entry)
    return problems, pending


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    problems, pending = check(os.path.abspath(root))
    for p in pending:
        print(f'note (file owned by another change, not counted): {p}')
    for p in problems:
        print(p)
    if problems:
        print(f'{len(problems)} citation(s) of documents outside the repository: put the facts in '
              'docs/ (in our words) and cite the docs/ page and section instead.')
        return 1
    print('doc citations: clean')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
