#!/usr/bin/env python3
"""Runs clang-tidy over the project's own sources in batches: one translation unit per batch.

Checking a source file costs clang-tidy about 10 s, and nearly all of it is the system headers
(gRPC, Protobuf, Abseil, nlohmann::json) that every file includes again: their AST is built and
every matcher walks it, for each file. A batch is a generated file that #includes up to
BATCH_FILES sources compiled with the same flags, whatever their folder (in folder order), so the
headers are read and walked once per batch. plugin/sizing's 12 files: 10 s as one batch, 88 s
one by one (both while a build shared the cores); all 152 files: 216 s on 2 cores, 856 s one by
one. With the unity build's names (2026-12-07, 158 files, 2 cores): batches of a folder's files
(29 batches) took 165 s; of up to 12 files across folders 127 s, of 24 117 s, of 40 120 s (the
fewer the batches, the worse the cores are balanced). The 24 include the re-runs of 15 files
whose names clash with another folder's (each command of plugin/cli/'s families has its own
`Options`).

Sources may clash in one translation unit: two files each with their own `kUsage`
or `Options` in an anonymous namespace. A batch whose files fail to compile (a
clang-diagnostic-error in one of them) keeps the findings of the files that compiled, and the
files that did not go into a new batch of their own, until each compiles or is checked alone
(where a compile error is a finding, as clang-tidy on that file would report it).

What a batch changes: diagnostics inside the included .cc files are reported through
--header-filter (which also keeps the root .clang-tidy's header rule), and
bugprone-suspicious-include, which would flag the batch's own #include of a .cc, is replaced by a
plain scan of the sources for such an include. A file's findings can differ from checking it
alone only where an earlier file of its batch declares a name it then uses (an overload found by
lookup); the build compiles each file with its own folder's only (NSXALB_UNITY), or alone
(NSXALB_UNITY=OFF).

Usage: clang_tidy_batches.py SOURCE_DIR BUILD_DIR JOBS
Prints the findings and a summary; exits 1 on any finding, 0 on none.
"""

import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

BATCH_FILES = 24
# A diagnostic's first line: path:line:col: severity: message [check,...].
DIAGNOSTIC = re.compile(
    r"^(?P<path>/[^:]+):\d+:\d+: (?P<severity>error|warning|note): (?P<text>.*)$")
CHECK_NAMES = re.compile(r"\[(?P<checks>[A-Za-z0-9.,_-]+)\]$")
# clang-tidy's own summaries, not findings: the count of diagnostics it filtered out, and the
# line it adds after a compile error (whose diagnostics are reported themselves).
SUMMARY_LINE = re.compile(
    r"^([0-9]+ warnings?( and [0-9]+ errors?)? generated\.|Error while processing .*\.)$")
INCLUDES_SOURCE = re.compile(r'^\s*#\s*include\s*[<"][^">]*\.(cc|cpp|cxx|c)[">]', re.M)
# The sources a unity file of CMake's (NSXALB_UNITY) includes, by absolute path.
UNITY_INCLUDE = re.compile(r'^\s*#\s*include\s*"(/[^"]+)"', re.M)


def compiled_sources(path):
    """The sources a compile_commands.json entry compiles: the file itself, or, for a unity file
    of CMake's (under the build tree, NSXALB_UNITY), the sources it includes."""
    name = os.path.basename(path)
    if not (name.startswith("unity_") and os.sep + "Unity" + os.sep in path):
        return [path]
    with open(path, encoding="utf-8") as unity:
        return [os.path.normpath(p) for p in UNITY_INCLUDE.findall(unity.read())]


def project_sources(root, build):
    """The plugin/ and emulator/ sources of compile_commands.json: path -> (arguments, dir,
    the file the arguments compile)."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as db:
        entries = json.load(db)
    seen = {}
    for entry in entries:
        compiled = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        args = entry.get("arguments") or shlex.split(entry["command"])
        for path in compiled_sources(compiled):
            rel = os.path.relpath(path, root)
            if rel.split(os.sep)[0] not in ("plugin", "emulator") or path in seen:
                continue
            seen[path] = (args, entry["directory"], compiled)
    return seen


def flags_without_file(args, directory, path):
    """The compile arguments without the source, -c and -o: the flags a batch is compiled with."""
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg != "-c" and os.path.normpath(os.path.join(directory, arg)) != path:
            kept.append(arg)
    return kept


def first_batches(sources, root):
    """Files with equal flags, whatever their folder, in folder order, in batches of at most
    BATCH_FILES (as even as can be). The flags name every path absolutely, so a batch compiles
    in the build folder of its first file."""
    groups = {}
    for path, (args, directory, compiled) in sorted(sources.items()):
        flags = tuple(flags_without_file(args, directory, compiled))
        groups.setdefault(flags, []).append((path, directory))
    batches = []
    for flags, members in sorted(groups.items()):
        count = -(-len(members) // BATCH_FILES)
        size = -(-len(members) // count)
        for start in range(0, len(members), size):
            chunk = members[start:start + size]
            folder = os.path.dirname(os.path.relpath(chunk[0][0], root))
            batches.append((folder, chunk[0][1], list(flags), [path for path, _ in chunk]))
    return batches


def split_blocks(output):
    """clang-tidy's output as diagnostics: each first line with its snippet and notes."""
    blocks = []
    for line in output.splitlines():
        if SUMMARY_LINE.match(line.strip()):
            continue
        match = DIAGNOSTIC.match(line)
        if match and match.group("severity") != "note":
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        elif line.strip():
            blocks.append([line])
    return blocks


def block_path_and_checks(block):
    """The file a diagnostic is in and its check names ("" for a line that is no diagnostic)."""
    match = DIAGNOSTIC.match(block[0])
    if not match:
        return None, ""
    checks = CHECK_NAMES.search(match.group("text"))
    return match.group("path"), checks.group("checks") if checks else ""


class Runner:
    """Runs batches and re-batches the files that fail to compile in them."""

    def __init__(self, root, jobs, workdir):
        self.root = root
        self.jobs = jobs
        self.workdir = workdir
        self.findings = {}
        self.counter = 0
        self.rebatched = 0

    def submit(self, pool, batch):
        """Names the batch (on the calling thread: the workers share no counter) and queues it."""
        self.counter += 1
        name = "%s_%d" % (batch[0].replace(os.sep, "_") or "top", self.counter)
        return pool.submit(self.run_batch, name, batch)

    def run_batch(self, name, batch):
        _, directory, flags, paths = batch
        unit = os.path.join(self.workdir, name + ".cc")
        with open(unit, "w", encoding="utf-8") as out:
            out.writelines('#include "%s"\n' % path for path in paths)
        dbdir = os.path.join(self.workdir, name)
        os.makedirs(dbdir)
        with open(os.path.join(dbdir, "compile_commands.json"), "w", encoding="utf-8") as db:
            json.dump([{"directory": directory, "file": unit,
                        "arguments": flags + ["-c", unit]}], db)
        command = [
            "clang-tidy", "-p", dbdir, "--quiet",
            "--config-file=" + os.path.join(self.root, ".clang-tidy"),
            "--header-filter=/(plugin|emulator)/[^ ]*\\.(h|cc)$",
            "--checks=-bugprone-suspicious-include",
            "--extra-arg=-Wno-unknown-warning-option", "--extra-arg=-ferror-limit=0", unit,
        ]
        started = time.monotonic()
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, check=False)
        if os.environ.get("NSXALB_TIDY_VERBOSE"):
            print("%s: %d files, %.1f s" % (name, len(paths), time.monotonic() - started),
                  flush=True)
        return batch, result

    def settle(self, batch, result):
        """Keeps the findings of the files that compiled; returns the batches still to run."""
        folder, directory, flags, paths = batch
        blocks = split_blocks(result.stdout)
        broken = set()
        unplaced_error = False
        for block in blocks:
            path, checks = block_path_and_checks(block)
            if "clang-diagnostic-error" in checks.split(","):
                if path in paths:
                    broken.add(path)
                else:
                    unplaced_error = True
        if len(paths) > 1 and (broken or unplaced_error):
            if not broken:  # an error in a header: halve the batch to find the clash
                half = len(paths) // 2
                self.rebatched += len(paths)
                return [(folder, directory, flags, paths[:half]),
                        (folder, directory, flags, paths[half:])]
            for block in blocks:
                path, _ = block_path_and_checks(block)
                if path not in broken:
                    self.findings.setdefault(block[0], block)
            self.rebatched += len(broken)
            kept = [path for path in paths if path in broken]
            if len(kept) == len(paths):  # every file broken: the first alone, then the rest
                return [(folder, directory, flags, kept[:1]),
                        (folder, directory, flags, kept[1:])]
            return [(folder, directory, flags, kept)]
        for block in blocks:
            self.findings.setdefault(block[0], block)
        if result.returncode != 0 and not blocks:
            self.findings["clang-tidy " + " ".join(paths)] = [
                "clang-tidy exited with %d on %s and printed no diagnostic"
                % (result.returncode, " ".join(paths))]
        return []

    def run_all(self, batches):
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            pending = {self.submit(pool, batch) for batch in batches}
            while pending:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    for batch in self.settle(*future.result()):
                        pending.add(self.submit(pool, batch))


def source_includes(sources):
    """bugprone-suspicious-include's finding, for the sources themselves: a #include of a .cc."""
    findings = []
    for path in sorted(sources):
        with open(path, encoding="utf-8") as source:
            for match in INCLUDES_SOURCE.finditer(source.read()):
                findings.append("%s: includes a source file: %s (include its header instead)"
                                % (path, match.group(0).strip()))
    return findings


def main():
    root, build, jobs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), int(sys.argv[3])
    sources = project_sources(root, build)
    if not sources:
        print("FAIL: no plugin/ or emulator/ source in compile_commands.json", file=sys.stderr)
        return 1
    batches = first_batches(sources, root)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clang-tidy-batches-") as workdir:
        runner = Runner(root, jobs, workdir)
        runner.run_all(batches)
    findings = [line for block in runner.findings.values() for line in block]
    findings += source_includes(sources)
    print("\n".join(findings))
    print("clang-tidy: %d files in %d batches (%d runs, %d files re-batched after a clash), "
          "%d at a time, %.0f s" % (len(sources), len(batches), runner.counter,
                                    runner.rebatched, jobs, time.monotonic() - started))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
