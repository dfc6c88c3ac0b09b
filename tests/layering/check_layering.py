#!/usr/bin/env python3
"""Checks that the source tree's dependencies point one way (README.md "Source layout").

Every quoted `#include "..."` and every `#include <openatc/...>` in the checked folders is mapped
to the component that owns the header, and the include must be allowed by RULES. A component's
`src/` is private: including another component's src/ (by a relative path, or through an include
directory of CMakeLists.txt pointing into it) fails. CMake's target_include_directories and
target_link_libraries are checked against the same RULES.

Usage: check_layering.py [REPO_ROOT]. Exit 0 when clean, 1 listing every problem.
"""
import os
import re
import sys

# --- The rule table: component -> what it may include from and link to -------------------------
# A component is a top-level folder, or for sdk/, device/, loader/, atc/ and ge_api/ one of their
# subfolders. An entry names a component or a top-level folder (= all of its components). Rules
# are looked up for the component first, then for its top-level folder. A component may always
# use itself.
# Dependencies point one way:
#   include <- common <- om_format <- (sdk, device) <- loader <- atc <- ge_api
# and ops/ and examples/ see only include/. sdk/ and device/ are siblings that use neither each
# other (the device runs kernels, the SDK describes operators); inside device/, rtc uses rt (it
# reports errors through rt's SetRecentError) and never the reverse.
BELOW_SDK = ['include', 'common', 'om_format', 'schemas']
RULES = {
    'include': [],
    'schemas': ['include'],
    'common': ['include'],
    'om_format': ['include', 'schemas', 'common'],
    'sdk/register': ['include', 'common', 'schemas'],  # schemas: ge_ir.proto for AIR files
    'sdk/gert': ['include', 'common', 'sdk/register'],
    'sdk/opp': ['include', 'common', 'sdk/register', 'sdk/gert'],
    'sdk/custom_op_registry_static': ['include', 'sdk/register', 'sdk/gert'],
    'sdk/lowering': ['include'],
    # The Python embedder registers Python ops in gert's registry; its bridge library (the only
    # code linking libpython) is dlopened, never linked.
    'sdk/python_host': ['include', 'common', 'sdk/register', 'sdk/gert'],
    'sdk/es': ['include', 'sdk/register'],  # ES graph builder C API + gen_esb (reads REG_OP prototypes)
    'device/rt': ['include', 'common'],
    'device/rtc': ['include', 'common', 'device/rt'],
    # The runtime takes and returns openatc::HostTensor (common); it never sees omrun's files.
    'loader/runtime': BELOW_SDK + ['sdk', 'device'],
    # The omrun dump layout and the ACL config's "dump" section: used by omrun and by aclmdl*.
    'loader/dump': BELOW_SDK + ['sdk', 'device', 'loader/runtime', 'loader/tensor_io'],
    'loader/mdl': BELOW_SDK + ['sdk', 'device', 'loader/runtime', 'loader/dump'],
    'loader/acl': BELOW_SDK + ['sdk', 'device', 'loader/runtime', 'loader/mdl', 'loader/dump'],
    'loader/tensor_io': ['include', 'common'],
    'loader/omrun_cli': ['include', 'common'],
    'loader': BELOW_SDK + ['sdk', 'device', 'loader'],
    'atc': BELOW_SDK + ['sdk', 'device', 'loader', 'atc'],
    'ge_api': BELOW_SDK + ['sdk', 'device', 'loader', 'atc', 'ge_api'],
    'ops': ['include'],
    'examples': ['include'],
}
# Folders whose sources are checked (tests/ may look inside anything).
CHECKED = ['common', 'om_format', 'sdk', 'device', 'loader', 'atc', 'ge_api', 'ops', 'examples']
SPLIT = {'sdk', 'device', 'loader', 'atc', 'ge_api'}
# Headers generated at build time: path prefix -> owner.
GENERATED = {'openatc/schemas/': 'schemas', 'ge_ir.pb.h': 'schemas', 'openatc/common/version.h': 'common'}
# ops/ and examples/ link only the SDK's libraries (what `make install` ships in lib64/).
SDK_LINK_NAMES = {'register', 'gert', 'ascendcl', 'acl_rtc', 'lowering', 'ge_runner', 'custom_op_registry_static'}
# Object libraries whose objects must go into exactly one shared object (one copy of their
# process-wide state): name -> the only target that may link them.
LINKED_ONCE = {'openatc_device': 'ascendcl', 'openatc_mdl': 'ascendcl', 'openatc_rtc': 'acl_rtc'}

SOURCE_EXT = ('.h', '.hpp', '.cc', '.cpp', '.c', '.inc')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(openatc/[^>]+)>)')


def component_of(rel):
    """The component owning repository path `rel` ('' outside any component)."""
    parts = rel.split('/')
    if parts[0] not in RULES and parts[0] not in SPLIT:
        return ''
    if parts[0] in SPLIT:
        return parts[0] + '/' + parts[1] if len(parts) > 2 else ''
    return parts[0]


def rule_for(comp):
    if comp in RULES:
        return RULES[comp]
    return RULES.get(comp.split('/')[0], [])


def allowed(src, dst):
    if src == dst:
        return True
    allow = rule_for(src)
    return dst in allow or dst.split('/')[0] in allow


def in_private_part(rel, comp):
    """True when `rel` (a file of component `comp`) is outside the component's include/."""
    inner = rel[len(comp) + 1:]
    return not inner.startswith('include/') and comp != 'include'


class Tree:
    def __init__(self, root):
        self.root = root
        # Public include roots: the SDK's include/ (and include/graph/, as GE's samples use it:
        # "graph.h", "tensor.h") and every component's include/ folder.
        self.public_roots = ['include', 'include/graph']
        for top in sorted(os.listdir(root)):
            if top in SPLIT and os.path.isdir(os.path.join(root, top)):
                for sub in sorted(os.listdir(os.path.join(root, top))):
                    if os.path.isdir(os.path.join(root, top, sub, 'include')):
                        self.public_roots.append(top + '/' + sub + '/include')
            elif top in RULES and top != 'include' and os.path.isdir(os.path.join(root, top, 'include')):
                self.public_roots.append(top + '/include')

    def exists(self, rel):
        return os.path.isfile(os.path.join(self.root, rel))

    def resolve(self, including, header):
        """(path of the header in the repository or None, owner component or '')."""
        here = os.path.dirname(including)
        rel = os.path.normpath(os.path.join(here, header))
        if not rel.startswith('..') and self.exists(rel):
            return rel, component_of(rel)
        comp = component_of(including)
        for base in (comp, comp + '/src'):
            cand = os.path.normpath(os.path.join(base, header))
            if comp and self.exists(cand):
                return cand, comp
        for base in self.public_roots:
            cand = os.path.normpath(os.path.join(base, header))
            if self.exists(cand):
                return cand, component_of(cand)
        for prefix, owner in GENERATED.items():
            if header.startswith(prefix):
                return None, owner
        # Found only inside another component's private folders: reached through an include
        # directory pointing into it.
        for top in CHECKED:
            for dirpath, _, files in os.walk(os.path.join(self.root, top)):
                if os.path.basename(header) in files:
                    cand = os.path.relpath(os.path.join(dirpath, os.path.basename(header)), self.root)
                    if ('/' + cand).endswith('/' + header) and component_of(cand):
                        return cand, component_of(cand)
        return None, ''


def source_files(root):
    for top in CHECKED:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def check_includes(tree, problems):
    for rel in source_files(tree.root):
        comp = component_of(rel)
        with open(os.path.join(tree.root, rel), encoding='utf-8', errors='replace') as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                header = m.group(1) or m.group(2)
                path, owner = tree.resolve(rel, header)
                where = '%s:%d: #include "%s"' % (rel, lineno, header)
                if not owner:
                    if header.startswith('openatc/'):
                        problems.append('%s: no component owns this header (add it to tests/layering/'
                                        'check_layering.py GENERATED, or fix the path)' % where)
                    continue  # a third-party or system header
                if owner != comp and path is not None and in_private_part(path, owner):
                    problems.append('%s: resolves to %s, inside the private part of %s (only its include/ '
                                    'is public); rule broken: no component includes another one\'s src/'
                                    % (where, path, owner))
                elif not allowed(comp, owner):
                    problems.append('%s: owned by %s; rule broken: %s may use only %s'
                                    % (where, owner, comp, ', '.join(rule_for(comp)) or 'itself'))


def cmake_files(root, tops):
    for top in tops:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            if 'CMakeLists.txt' in files:
                yield os.path.relpath(os.path.join(dirpath, 'CMakeLists.txt'), root)


def cmake_commands(text, name):
    """(line number, argument words) of each call of command `name`."""
    text = re.sub(r'#[^\n]*', '', text)
    for m in re.finditer(r'\b%s\s*\(([^)]*)\)' % name, text):
        yield text.count('\n', 0, m.start()) + 1, m.group(1).split()


def check_cmake(tree, problems):
    owner_of_target = {}
    for rel in cmake_files(tree.root, CHECKED):
        text = open(os.path.join(tree.root, rel), encoding='utf-8').read()
        for cmd in ('add_library', 'add_executable'):
            for _, words in cmake_commands(text, cmd):
                if words:
                    owner_of_target[words[0]] = component_of(rel)
    for rel in cmake_files(tree.root, CHECKED):
        comp = component_of(rel)
        folder = os.path.dirname(rel)
        text = open(os.path.join(tree.root, rel), encoding='utf-8').read()
        for lineno, words in cmake_commands(text, 'target_include_directories'):
            for w in words:
                m = re.match(r'^\$\{(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|CMAKE_CURRENT_SOURCE_DIR)\}/?(.*)$', w)
                if not m:
                    continue
                base = folder if m.group(1) == 'CMAKE_CURRENT_SOURCE_DIR' else ''
                path = os.path.normpath(os.path.join(base, m.group(2))) if m.group(2) or base else '.'
                owner = component_of(path + '/x')
                if not owner or owner == comp:
                    continue
                where = '%s:%d: include directory %s' % (rel, lineno, w)
                if in_private_part(path + '/x', owner):
                    problems.append('%s: points into the private part of %s; rule broken: no component '
                                    'includes another one\'s src/' % (where, owner))
                elif not allowed(comp, owner):
                    problems.append('%s: owned by %s; rule broken: %s may use only %s'
                                    % (where, owner, comp, ', '.join(rule_for(comp)) or 'itself'))
        for lineno, words in cmake_commands(text, 'target_link_libraries'):
            target = words[0] if words else ''
            for w in words[1:]:
                owner = owner_of_target.get(w)
                if not owner or owner == comp:
                    continue
                where = '%s:%d: %s links %s' % (rel, lineno, target, w)
                if comp.split('/')[0] in ('ops', 'examples'):
                    if w not in SDK_LINK_NAMES:
                        problems.append('%s (owned by %s); rule broken: %s links only the SDK libraries (%s)'
                                        % (where, owner, comp, ', '.join(sorted(SDK_LINK_NAMES))))
                elif not allowed(comp, owner):
                    problems.append('%s (owned by %s); rule broken: %s may use only %s'
                                    % (where, owner, comp, ', '.join(rule_for(comp)) or 'itself'))
    # One copy of process-wide state: the tests may not link these object libraries either.
    for rel in cmake_files(tree.root, CHECKED + ['tests']):
        text = open(os.path.join(tree.root, rel), encoding='utf-8').read()
        for lineno, words in cmake_commands(text, 'target_link_libraries'):
            for w in words[1:]:
                only = LINKED_ONCE.get(w)
                if only is not None and words[0] != only:
                    problems.append('%s:%d: %s links %s; rule broken: only %s may (its objects, and so '
                                    'its process-wide state, go into exactly one shared object)'
                                    % (rel, lineno, words[0], w, only))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..'))
    tree = Tree(root)
    problems = []
    check_includes(tree, problems)
    check_cmake(tree, problems)
    for p in problems:
        print('check_layering: error: ' + p)
    if problems:
        print('check_layering: %d problem(s); the rules are the table RULES in tests/layering/check_layering.py'
              % len(problems))
        return 1
    print('check_layering: ok (%d files)' % sum(1 for _ in source_files(root)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
