#!/usr/bin/env python3
"""Where a profiled run of a release binary spent its time, by source line
and by inlined function.

    perf record -q -o run.data target/profiling/analyze --variant othello8 --depth 11 FILES...
    python3 notebooks/perf_profile.py target/profiling/analyze run.data

`cargo build --profile profiling` keeps the line tables of the release
code; nearly everything of the search is inlined into a few functions, so
`perf report` by symbol says little. This script takes the sampled
instruction addresses (`perf script -F ip`, recorded without `-g`), turns
each runtime address into the binary's virtual address (the mapping of its
executable segment, from `perf script --show-mmap-events`, and the
segment's own address in the program headers), resolves the chain of
inline frames with `llvm-addr2line` (or `addr2line`) and prints the
shares of the innermost source lines, of the inlined functions (inclusive:
a function counts every sample inside it or inside what it inlined) and of
the innermost call chains (four frames).
"""

import collections
import re
import shutil
import subprocess
import sys

TOP = 40
CHAIN_FRAMES = 4


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_segment(binary):
    """(file offset, virtual address) of the binary's executable segment."""
    for line in run(["readelf", "-lW", binary]).splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD" and "E" in fields[-2]:
            return int(fields[1], 16), int(fields[2], 16)
    sys.exit(f"{binary}: no executable LOAD segment in the program headers")


def mapping(data, binary):
    """(runtime start, file offset) of the binary's executable mapping."""
    name = binary.split("/")[-1]
    pattern = re.compile(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*r-xp (\S+)")
    for line in run(["perf", "script", "-i", data, "--show-mmap-events"]).splitlines():
        if "MMAP" in line:
            m = pattern.search(line)
            if m and m.group(4).endswith("/" + name):
                return int(m.group(1), 16), int(m.group(3), 16)
    sys.exit(f"{data}: no executable mapping of {name}")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: perf_profile.py BINARY PERF_DATA")
    binary, data = sys.argv[1], sys.argv[2]
    seg_offset, seg_vaddr = text_segment(binary)
    start, map_offset = mapping(data, binary)
    counts = collections.Counter()
    for line in run(["perf", "script", "-i", data, "-F", "ip"]).split():
        ip = int(line, 16)
        if ip >= start:
            counts[ip - start + map_offset - seg_offset + seg_vaddr] += 1
    if not counts:
        sys.exit(f"{data}: no samples in {binary}")
    tool = shutil.which("llvm-addr2line") or shutil.which("addr2line")
    if tool is None:
        sys.exit("neither llvm-addr2line nor addr2line is installed")
    addresses = sorted(counts)
    out = run([tool, "-a", "-i", "-f", "-C", "-e", binary] + [hex(a) for a in addresses]).splitlines()
    chains, current, i = {}, None, 0
    while i < len(out):
        if out[i].startswith("0x"):
            current = int(out[i], 16)
            chains[current] = []
            i += 1
        else:
            location = out[i + 1] if i + 1 < len(out) else "??:0"
            chains[current].append((re.sub(r"<.*>", "", out[i]), location.split("/")[-1].split(" ")[0]))
            i += 2
    total = sum(counts.values())
    lines, functions, paths = collections.Counter(), collections.Counter(), collections.Counter()
    for address, n in counts.items():
        chain = chains.get(address) or [("??", "??:0")]
        lines[chain[0][1]] += n
        for function in {f for f, _ in chain}:
            functions[function[-70:]] += n
        paths[" <- ".join(loc for _, loc in chain[:CHAIN_FRAMES])] += n
    print(f"{total} samples in {binary}")
    for title, counter in (("source line", lines), ("inlined function, inclusive", functions), ("call chain", paths)):
        print(f"--- {title}")
        for key, n in counter.most_common(TOP):
            print(f"{100 * n / total:5.1f}% {key}")


if __name__ == "__main__":
    main()
