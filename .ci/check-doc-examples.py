#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and the DocC catalogs (Sources/*/*.docc/**/*.md).

The rule every block follows: a block is a whole `main.swift`. It imports what it uses (`import Ripple`,
`import Foundation`, ...) and declares every name it uses; Apple-only code sits inside `#if canImport(UIKit)`.
A block whose first line is `// swift-tools-version:` is a whole Package.swift and is evaluated as a manifest.

How: `swift build` builds Ripple's library modules (incremental: CI has just built them); then each block is written
to .build-doc-examples/<file>/<n>/main.swift and compiled on its own with `swiftc -emit-sil` (type checking plus the
mandatory SIL passes: definite initialisation and Swift 6's data-race checks) against those modules, two at a time.
Every diagnostic is mapped back to `file.md:line:column`, all failing blocks are reported at once, and the script
exits 1 if any block has an error or a warning.

Why not one executable target per block under `swift build`: SwiftPM stops at the first target that fails (it has
no keep-going option), so it cannot report every broken block in one run, and it would build Ripple a second time
and link a hundred executables; the modules it imports here are the ones `swift build` made for the package itself.

    .ci/check-doc-examples.py                   # every block
    .ci/check-doc-examples.py --only Sources/RippleNodes/RippleNodes.docc/Syncing.md --only README.md
    .ci/check-doc-examples.py --only FILE --run  # also link and run each block, to compare its output with its
                                                 # comments (a failed assert shows); not in CI: some blocks wait
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".build-doc-examples"
# Modules the blocks may import beyond the toolchain's.
NEEDED_TARGETS = ["Ripple", "RippleTesting", "RippleActionProtocol"]
# The `@ActionProtocol` macro's compiler plugin, which `swift build --target RippleActionProtocol` builds beside the
# modules; blocks that use the macro load it from there.
MACRO_PLUGINS = ["RipplePipesMacros"]

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*swift\b.*$")
DIAGNOSTIC = re.compile(r"^(?P<path>[^:\n]+\.swift):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning|note): "
                        r"(?P<message>.*)$")


class Block:
    def __init__(self, markdown, first_line, text, index):
        self.markdown = markdown          # path relative to ROOT
        self.first_line = first_line      # 1-based line in the Markdown file of the block's first code line
        self.text = text
        self.index = index                # 1-based position among the file's swift blocks

    @property
    def is_manifest(self):
        return self.text.lstrip().startswith("// swift-tools-version")

    @property
    def folder(self):
        flat = re.sub(r"[^A-Za-z0-9]+", "_", str(self.markdown))
        return SCRATCH / flat / str(self.index)

    @property
    def where(self):
        return f"{self.markdown}:{self.first_line - 1}"   # the opening fence's line


def markdown_files(only):
    if only:
        files = []
        for name in only:
            path = (pathlib.Path.cwd() / name).resolve()
            if not path.is_file():
                sys.exit(f"check-doc-examples: no such file: {name}")
            files.append(path)
        return files
    return [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/**/*.md"))


def swift_blocks(path):
    relative = path.relative_to(ROOT)
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, number = [], 0
    while number < len(lines):
        opening = FENCE_OPEN.match(lines[number])
        number += 1
        if not opening:
            continue
        indent, fence = opening["indent"], opening["fence"]
        start, body = number + 1, []
        while number < len(lines) and not re.match(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$",
                                                   lines[number]):
            line = lines[number]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            number += 1
        number += 1   # the closing fence
        blocks.append(Block(relative, start, "\n".join(body) + "\n", len(blocks) + 1))
    return blocks


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def build_modules():
    for target in NEEDED_TARGETS:
        build = subprocess.run(["swift", "build", "--target", target], cwd=ROOT, capture_output=True, text=True)
        if build.returncode != 0:
            sys.stdout.write(build.stdout + build.stderr)
            sys.exit(f"check-doc-examples: `swift build --target {target}` failed; fix the package first")
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    return pathlib.Path(bin_path) / "Modules"


def plugin_flags(modules):
    return [flag for plugin in MACRO_PLUGINS
            for flag in ("-load-plugin-executable", f"{modules.parent / (plugin + '-tool')}#{plugin}")]


def library_objects(modules):
    """The object files of Ripple's library modules and what they use, to link a block for --run."""
    skipped = ("Tests", "LeakChecks", "RippleTour", "OpenCombine", "Benchmark")
    return [str(path) for folder in sorted(modules.parent.glob("*.build"))
            if not any(word in folder.name for word in skipped) for path in sorted(folder.glob("*.o"))]


def run_block(block, modules):
    """Links the block and runs it (10 s at most). Returns (output lines, failed)."""
    executable = block.folder / "example"
    link = subprocess.run(["swiftc", "-swift-version", "6", "-I", str(modules), *plugin_flags(modules),
                           str(block.folder / "main.swift"),
                           *library_objects(modules), "-o", str(executable)], capture_output=True, text=True)
    if link.returncode != 0:
        return (link.stdout + link.stderr).splitlines(), True
    try:
        run = subprocess.run([str(executable)], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired as timeout:
        return [f"(still running after 10 s; output so far:)", *(timeout.stdout or b"").decode().splitlines()], False
    return (run.stdout + run.stderr).splitlines(), run.returncode != 0


def compile_block(block, modules, run=False):
    """Returns (block, diagnostics as text lines, failed)."""
    if block.is_manifest:
        write_if_changed(block.folder / "Package.swift", block.text)
        command = ["swift", "package", "--package-path", str(block.folder), "dump-package"]
        source = block.folder / "Package.swift"
    else:
        source = block.folder / "main.swift"
        write_if_changed(source, block.text)
        command = ["swiftc", "-emit-sil", "-o", os.devnull, "-diagnostic-style", "llvm", "-swift-version", "6", "-module-name", "Example",
                   "-I", str(modules), *plugin_flags(modules), str(source)]
    result = subprocess.run(command, capture_output=True, text=True)
    failed, mapped = result.returncode != 0, []
    # A manifest's stdout is the package's JSON description, noise unless the evaluation failed.
    output = result.stderr if block.is_manifest and result.returncode == 0 else result.stdout + result.stderr
    for line in output.splitlines():
        match = DIAGNOSTIC.match(line)
        if match and pathlib.Path(match["path"]).resolve() == source.resolve():
            failed = failed or match["kind"] != "note"
            line = (f"{block.markdown}:{block.first_line + int(match['line']) - 1}:{match['column']}: "
                    f"{match['kind']}: {match['message']}")
        if line.strip():
            mapped.append(line.replace(str(ROOT) + "/", ""))
    if run and not failed and not block.is_manifest:
        output, failed = run_block(block, modules)
        mapped += ["run" + (" (failed)" if failed else "") + ":"] + ["  " + line for line in output]
    return block, mapped, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", metavar="FILE",
                        help="check only this Markdown file (repeatable); default: README.md and every catalog")
    parser.add_argument("--run", action="store_true", help="also link and run every block, printing its output")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    arguments = parser.parse_args()

    blocks = [block for path in markdown_files(arguments.only) for block in swift_blocks(path)]
    if not arguments.only and SCRATCH.exists():
        # Drop folders of blocks that no longer exist, so the scratch folder mirrors the docs.
        keep = {block.folder for block in blocks}
        for folder in SCRATCH.glob("*/*"):
            if folder.is_dir() and folder not in keep:
                shutil.rmtree(folder)
    modules = build_modules()
    print(f"check-doc-examples: compiling {len(blocks)} swift blocks", flush=True)

    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        for block, diagnostics, failed in pool.map(lambda block: compile_block(block, modules, arguments.run), blocks):
            if arguments.run and not failed:
                print(f"\n✓ {block.where} (block {block.index} of {block.markdown})")
                for line in diagnostics:
                    print("  " + line)
            if failed:
                failures.append(block)
                print(f"\n✗ {block.where} (block {block.index} of {block.markdown})")
                for line in diagnostics:
                    print("  " + line)
    print()
    if failures:
        print(f"check-doc-examples: {len(failures)} of {len(blocks)} blocks fail:")
        by_file = {}
        for block in failures:
            by_file.setdefault(str(block.markdown), []).append(block)
        for name, failed in by_file.items():
            print(f"  {name}: {len(failed)} ({', '.join('line ' + str(b.first_line - 1) for b in failed)})")
        print("Each block must compile as a whole main.swift: imports included, every name declared "
              "(see Sources/Ripple/Ripple.docc/GettingStarted.md, \"Writing examples\").")
        return 1
    print(f"check-doc-examples: all {len(blocks)} blocks compile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
