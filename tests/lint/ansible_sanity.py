"""ansible-test sanity's validate-modules and pep8, run as ansible-test runs them, without its
PyPI virtualenv: the same scripts and settings from the installed ansible_test package
(Debian's ansible-core), the collection's tests/sanity/ignore-X.Y.txt applied as ansible-test
applies it (an ignore that matches nothing is an error too).

Usage: python3 ansible_sanity.py COLLECTION_DIR   (.../ansible_collections/NAMESPACE/NAME)
Prints each error as ansible-test does (PATH:LINE:COLUMN: CODE: MESSAGE); exits 1 on any.
Needs ansible-core, voluptuous and pycodestyle importable by this interpreter.
"""

import glob
import json
import os
import re
import subprocess
import sys

import ansible_test
import yaml
from ansible.release import __version__ as ANSIBLE_VERSION

SANITY_ROOT = os.path.join(os.path.dirname(ansible_test.__file__), "_util", "controller", "sanity")
ANSIBLE_TEST_CONFIG = os.path.join(os.path.dirname(ansible_test.__file__), "_data", "ansible.cfg")
# ansible-test's pep8 settings (ansible_test/_internal/commands/sanity/pep8.py).
PEP8_MAX_LINE_LENGTH = "160"
PEP8_LINE = re.compile(r"^(?P<path>[^:]*):(?P<line>[0-9]+):(?P<column>[0-9]+): "
                       r"(?P<code>[WE][0-9]{3}) (?P<message>.*)$")


def read_lines_without_comments(path):
    """Lines of path with comments and trailing blanks removed, as ansible-test reads them."""
    with open(path, encoding="utf-8") as f:
        return [re.sub(r" *#.*$", "", line.rstrip("\n")) for line in f]


def validate_modules(collection_dir, collection, version):
    """(path, line, column, code, message) of every validate-modules error."""
    paths = sorted(os.path.relpath(p, collection_dir)
                   for p in glob.glob(os.path.join(collection_dir, "plugins", "modules", "*.py"))
                   if not p.endswith("/__init__.py"))
    if not paths:
        return []
    collections_root = os.path.dirname(os.path.dirname(os.path.dirname(collection_dir)))
    env = dict(os.environ)
    # ansible-test's environment (ansible_test/_internal/ansible_util.py: ansible_environment).
    env.update(ANSIBLE_CONFIG=ANSIBLE_TEST_CONFIG, ANSIBLE_LIBRARY="/dev/null",
               ANSIBLE_INVENTORY="/dev/null", ANSIBLE_DEPRECATION_WARNINGS="false",
               ANSIBLE_DEVEL_WARNING="false", ANSIBLE_FORCE_COLOR="false",
               ANSIBLE_COLLECTIONS_PATH=collections_root)
    cmd = [sys.executable, os.path.join(SANITY_ROOT, "validate-modules", "validate.py"),
           "--format", "json", "--arg-spec", "--collection", collection,
           "--collection-version", version] + paths
    run = subprocess.run(cmd, cwd=collection_dir, env=env, capture_output=True, text=True,
                         check=False)
    if run.stderr or run.returncode not in (0, 3):
        sys.exit("validate-modules failed (exit code %d):\n%s%s"
                 % (run.returncode, run.stdout, run.stderr))
    errors = []
    for path, output in sorted(json.loads(run.stdout).items()):
        for item in output["errors"]:
            errors.append((path, int(item.get("line", 0)), int(item.get("column", 0)),
                           item["code"], item["msg"]))
    return errors


def pep8(collection_dir):
    """(path, line, column, code, message) of every pycodestyle error and warning."""
    paths = []
    for root, dirs, files in os.walk(collection_dir):
        dirs[:] = sorted(d for d in dirs if os.path.join(root, d) !=
                         os.path.join(collection_dir, "tests", "output"))
        paths += [os.path.relpath(os.path.join(root, f), collection_dir)
                  for f in sorted(files) if f.endswith(".py")]
    if not paths:
        return []
    ignore = sorted(line for line in read_lines_without_comments(
        os.path.join(SANITY_ROOT, "pep8", "current-ignore.txt")) if line)
    cmd = [sys.executable, "-m", "pycodestyle", "--max-line-length", PEP8_MAX_LINE_LENGTH,
           "--config", "/dev/null", "--ignore", ",".join(ignore)] + paths
    run = subprocess.run(cmd, cwd=collection_dir, capture_output=True, text=True, check=False)
    if run.stderr:
        sys.exit("pycodestyle failed (exit code %d):\n%s" % (run.returncode, run.stderr))
    errors = []
    for line in run.stdout.splitlines():
        m = PEP8_LINE.match(line)
        if not m:
            sys.exit("pycodestyle printed an unexpected line: %s" % line)
        errors.append((m["path"], int(m["line"]), int(m["column"]), m["code"], m["message"]))
    return errors


def read_ignores(collection_dir):
    """{(test, path, code): line number} of the ignore file's validate-modules and pep8 entries;
    the ignore file is tests/sanity/ignore-X.Y.txt for the installed ansible-core X.Y."""
    name = "ignore-%s.txt" % ".".join(ANSIBLE_VERSION.split(".")[:2])
    path = os.path.join(collection_dir, "tests", "sanity", name)
    ignores = {}
    if not os.path.exists(path):
        return ignores, name
    for number, line in enumerate(read_lines_without_comments(path), start=1):
        parts = line.split(" ")
        if len(parts) != 2 or ":" not in parts[1]:
            continue  # the ignores sanity test checks the format; others are not ours
        test, code = parts[1].split(":", 1)
        if test in ("validate-modules", "pep8"):
            ignores[(test, parts[0], code)] = number
    return ignores, name


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    collection_dir = os.path.abspath(sys.argv[1])
    namespace_dir, name = os.path.split(collection_dir)
    collections_dir, namespace = os.path.split(namespace_dir)
    if os.path.basename(collections_dir) != "ansible_collections":
        sys.exit("%s is not .../ansible_collections/NAMESPACE/NAME" % collection_dir)
    with open(os.path.join(collection_dir, "galaxy.yml"), encoding="utf-8") as f:
        version = str(yaml.safe_load(f)["version"])
    collection = os.path.join("ansible_collections", namespace, name)

    ignores, ignore_file = read_ignores(collection_dir)
    used = set()
    failed = 0
    results = (("validate-modules", validate_modules(collection_dir, collection, version)),
               ("pep8", pep8(collection_dir)))
    for test, errors in results:
        shown = 0
        for path, line, column, code, message in errors:
            key = (test, path, code)
            if key in ignores:
                used.add(key)
                continue
            print("ERROR: %s:%d:%d: %s: %s" % (path, line, column, code, message))
            shown += 1
        print("%s: %d error(s), %d ignored (%s)"
              % (test, shown, len(errors) - shown, ignore_file))
        failed += shown
    for (test, path, code), number in sorted(ignores.items(), key=lambda item: item[1]):
        if (test, path, code) not in used:
            print("ERROR: tests/sanity/%s:%d:1: Ignoring '%s' on '%s' is unnecessary"
                  % (ignore_file, number, code, path))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
