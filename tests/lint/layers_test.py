"""Lint: the layering of docs/design/layers.md, checked against the code.

Reads the table of layers (rank, folders, libraries) from docs/design/layers.md and fails when
  * a file under plugin/ includes a header of a higher layer (a greater number in the table) or
    of another folder of its own layer, or lies in no folder of the table, or in a subfolder
    without a row of a folder whose other subfolders have rows (plugin/cli's families);
  * a library of the table links (target_link_libraries) a library of a higher layer or of
    another folder of its own layer, or a library defined under plugin/ is not in the table;
  * a `*.pb.h` is included outside the folders whose row says they include it, tests/ and bench/;
  * emulator/ includes a header of plugin/ other than plugin/common and nsxalb_controller_api's
    (the headers of the sources plugin/controller/CMakeLists.txt lists for that library).
Prints each violation as FILE:LINE: what; exits 1 on any.
Usage: python3 layers_test.py SOURCE_DIR
"""

import os
import re
import sys

DOC = "docs/design/layers.md"
HEADER = re.compile(r"^\|\s*#\s*\|\s*folder\s*\|\s*library\s*\|")
RANK = re.compile(r"^([0-9]+)([a-z]?)$")
CODE = re.compile(r"`([^`]+)`")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Folders outside plugin/ where *.pb.h may appear: the harness and the benchmarks speak the
# protocol to the binary (layers.md says so under the table).
PB_OUTSIDE_PLUGIN = ("tests/", "bench/")
CPP_SUFFIXES = (".h", ".cc")


class Row(object):
    """One row of the table: its position, folders and libraries."""

    def __init__(self, rank, folders, libraries, text):
        self.rank = rank  # (number, letter): "4b" is (4, "b"), after (4, "")
        self.folders = folders
        self.libraries = libraries
        self.text = text


def read_table(root):
    """The rows of the layers table, in the doc's order (which must be the rank order)."""
    rows = []
    in_table = False
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        for line in f:
            if HEADER.match(line):
                in_table = True
                continue
            if not in_table:
                continue
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= set("-: "):
                continue  # the |---| line
            m = RANK.match(cells[0])
            if not m or len(cells) < 4:
                sys.exit("%s: a table row without a rank, folders and libraries: %s"
                         % (DOC, line.strip()))
            folders = [c.rstrip("/") for c in CODE.findall(cells[1])]
            libraries = CODE.findall(cells[2])
            rows.append(Row((int(m.group(1)), m.group(2)), folders, libraries, cells[3]))
    if len(rows) < 2:
        sys.exit("%s: no table of layers (| # | folder | library | ...) found" % DOC)
    ranks = [r.rank for r in rows]
    if ranks != sorted(ranks) or len(set(ranks)) != len(ranks):
        sys.exit("%s: the rows are not in increasing, distinct order: %s" % (DOC, ranks))
    return rows


def source_files(root):
    """Every C++ source of the tree (relative paths), build trees and hidden folders left out."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and
                             not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        for name in sorted(filenames):
            if name.endswith(CPP_SUFFIXES):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def includes(root, path):
    """(line number, included path) of every #include "..." of a file."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, start=1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def folder_of(path, folders):
    """The table folder holding path (the longest match), or None."""
    best = None
    for folder in folders:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def cmake_commands(text, command):
    """The argument lists of every command(...) in a CMakeLists.txt, comments removed."""
    text = re.sub(r"#[^\n]*", "", text)
    for m in re.finditer(r"\b%s\s*\(([^)]*)\)" % command, text):
        yield m.group(1).split()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    rows = read_table(root)
    row_of_folder = dict((folder, row) for row in rows for folder in row.folders)
    row_of_library = dict((library, row) for row in rows for library in row.libraries)
    pb_folders = [f for row in rows if "`*.pb.h`" in row.text for f in row.folders]
    if not pb_folders:
        sys.exit("%s: no row says which folders include `*.pb.h`" % DOC)
    errors = []

    # Folders with subfolders in the table (plugin/segroup, plugin/cli): each of their
    # subfolders is a row of its own, so a new one cannot join its parent's row unnoticed.
    parents = set(p for p in row_of_folder for f in row_of_folder if f.startswith(p + "/"))

    files = list(source_files(root))
    for path in files:
        in_plugin = path.startswith("plugin/")
        own = folder_of(path, row_of_folder) if in_plugin else None
        if in_plugin and own is None:
            errors.append("%s:1: in no folder of the table in %s (add its row)" % (path, DOC))
        elif own in parents and "/" in path[len(own) + 1:]:
            errors.append("%s:1: in a subfolder of %s with no row of its own in %s, where %s's "
                          "subfolders each have one (add its row)" % (path, own, DOC, own))
        for number, header in includes(root, path):
            where = "%s:%d" % (path, number)
            if header.endswith(".pb.h") and folder_of(path, pb_folders) is None and \
                    not path.startswith(PB_OUTSIDE_PLUGIN):
                errors.append("%s: includes %s: only %s, %s include *.pb.h (%s)"
                              % (where, header, ", ".join(pb_folders),
                                 ", ".join(PB_OUTSIDE_PLUGIN), DOC))
            if own is None:
                continue
            target = folder_of(header, row_of_folder)
            if target is None or target == own:
                continue
            mine, theirs = row_of_folder[own], row_of_folder[target]
            if theirs.rank >= mine.rank:
                errors.append("%s: includes %s: %s (layer %d%s) includes only lower layers "
                              "(smaller numbers in %s), and %s is layer %d%s"
                              % (where, header, own, mine.rank[0], mine.rank[1], DOC, target,
                                 theirs.rank[0], theirs.rank[1]))

    # Libraries: where each is defined, and what it links.
    defined = {}
    links = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and
                             not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        if "CMakeLists.txt" not in filenames:
            continue
        cmake = os.path.relpath(os.path.join(dirpath, "CMakeLists.txt"), root)
        with open(os.path.join(root, cmake), encoding="utf-8") as f:
            text = f.read()
        for command in ("add_library", "add_executable"):
            for args in cmake_commands(text, command):
                if args:
                    defined[args[0]] = cmake
        for args in cmake_commands(text, "target_link_libraries"):
            if args:
                links.setdefault(args[0], (cmake, set()))[1].update(args[1:])
    for library, cmake in sorted(defined.items()):
        if cmake.startswith("plugin/") and library not in row_of_library:
            errors.append("%s:1: %s is in no row of the table in %s (add it)"
                          % (cmake, library, DOC))
    for library, (cmake, deps) in sorted(links.items()):
        mine = row_of_library.get(library)
        if mine is None:
            continue
        for dep in sorted(deps):
            theirs = row_of_library.get(dep)
            if theirs is None:
                continue
            same_folder = defined.get(dep) == defined.get(library)
            if theirs.rank >= mine.rank and not same_folder:
                errors.append("%s:1: %s (layer %d%s) links %s (layer %d%s): a library links only "
                              "lower layers (smaller numbers in %s)"
                              % (cmake, library, mine.rank[0], mine.rank[1], dep, theirs.rank[0],
                                 theirs.rank[1], DOC))

    # The emulator: plugin/common and nsxalb_controller_api's headers only.
    api_cmake = defined.get("nsxalb_controller_api")
    if api_cmake is None:
        sys.exit("no CMakeLists.txt defines nsxalb_controller_api")
    with open(os.path.join(root, api_cmake), encoding="utf-8") as f:
        api_sources = next(args for args in cmake_commands(f.read(), "add_library")
                           if args[0] == "nsxalb_controller_api")[1:]
    api_headers = set(os.path.join(os.path.dirname(api_cmake), s[:-len(".cc")] + ".h")
                      for s in api_sources if s.endswith(".cc"))
    api_headers = set(h for h in api_headers if os.path.exists(os.path.join(root, h)))
    if not api_headers:
        sys.exit("%s: nsxalb_controller_api lists no source with a header" % api_cmake)
    for path in files:
        if not path.startswith("emulator/"):
            continue
        for number, header in includes(root, path):
            if header.startswith("plugin/") and not header.startswith("plugin/common/") and \
                    header not in api_headers:
                errors.append("%s:%d: includes %s: of plugin/, the emulator includes only "
                              "plugin/common and nsxalb_controller_api (%s)"
                              % (path, number, header, ", ".join(sorted(api_headers))))

    for error in errors:
        print("ERROR: " + error)
    print("layers: %d rows in %s, %d C++ files, the links of %d libraries: %d violation(s)"
          % (len(rows), DOC, len(files), len(row_of_library), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
