#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The module's files in layers, and its functions short.

Each file includes and calls only the files below it, and no function of
the module or its KUnit tests is longer than MAX_LINES lines of body.

A unit is a file name without .c or .h (mmt_nodes.c and mmt_nodes.h are one
unit).  A unit uses another when one of its files includes the other's
header, or names (outside comments and strings) a function, macro, type,
enum constant or variable that the other's header declares.  LAYERS lists
the units from the top down; a use of a unit at or above the user's place
is reported, with the name that makes it, and so is a unit missing from
the list.  With no upward use there is no circle.

Usage: layers.py [DIR...] (default: mm-tiering kunit; layers in the first)
Prints one line per violation; exit 1 if there is any.
"""
import os
import re
import sys

# From the top down; Documentation/design.rst draws the same picture.
LAYERS = [
    # the module's life
    "mmt_main",
    # outputs
    "mmt_status",
    # when tiering starts, stops and re-plans: enabled, commit_inputs,
    # memory events
    "mmt_engine",
    # all-or-nothing commits to the running contexts
    "mmt_commit",
    # the controller
    "mmt_loop",
    # what runs in the kdamonds
    "mmt_kdamond",
    # the node table and its locks
    "mmt_nodes",
    # what the kernel says: tiers, contexts, HMAT, hotplug, the build
    "mmt_plan",
    "mmt_ctx",
    "mmt_hmat",
    "mmt_hotplug",
    "mmt_kernel",
    # the inputs
    "mmt_params",
    # DAMON access: symbols, calls, every kernel difference
    "mmt_hook",
    "mmt_damon",
    "mmt_compat",
    # pure policy (KUnit-tested)
    "mmt_trace",
    "mmt_ctl",
    "mmt_class",
    "mmt_logic",
]

# files that belong to another unit: an X-macro list read by mmt_damon, and
# the compile probes' results (written by the build) read by mmt_compat
PART_OF = {"mmt_damon_funcs": "mmt_damon", "mmt_config": "mmt_compat"}

MAX_LINES = 60

IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def strip(text):
    """Text without comments and string literals, lines kept."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, text,
                  flags=re.S)


def exported(header):
    """Names a header declares for other files."""
    names = set()
    depth = 0
    in_enum = False
    for line in strip(header).splitlines():
        m = re.match(r"\s*#\s*define\s+(\w+)", line)
        if m:
            names.add(m.group(1))
            continue
        if line.startswith("#"):
            continue
        if depth == 0:
            m = re.match(r"(?:typedef\s+)?(struct|enum|union)\s+(\w+)\s*\{",
                         line)
            if m:
                names.add(m.group(2))
                in_enum = m.group(1) == "enum"
            else:
                m = re.match(r"[A-Za-z_][^(;=]*?\b(\w+)\s*\(", line)
                if m and not line.startswith((" ", "\t")):
                    names.add(m.group(1))
                m = re.match(r"extern\s[^(]*?\b(\w+)\s*(\[.*\])?;", line)
                if m:
                    names.add(m.group(1))
        elif in_enum and depth == 1:
            m = re.match(r"\s*([A-Z_][A-Z0-9_]*)\b", line)
            if m:
                names.add(m.group(1))
        depth += line.count("{") - line.count("}")
        if depth == 0:
            in_enum = False
    return names


def long_functions(path):
    """Functions of a C file whose body is longer than MAX_LINES."""
    lines = strip(open(path).read()).splitlines()
    head, body, bad = None, None, []
    for i, line in enumerate(lines):
        if re.match(r"[A-Za-z_][^;=]*\b(\w+)\s*\(", line) and head is None:
            head = re.match(r"[A-Za-z_][^;=]*?\b(\w+)\s*\(", line).group(1)
        elif line.startswith((" ", "\t", "#")) or not line.strip():
            pass
        elif line == "{" and head:
            body = i
        elif line.startswith("}") and body is not None:
            if i - body - 1 > MAX_LINES:
                bad.append(f"{os.path.basename(path)}: {head}() is "
                           f"{i - body - 1} lines, at most {MAX_LINES}")
            head, body = None, None
        elif body is None:
            head = None
        if line.rstrip().endswith(";") and body is None:
            head = None
    return bad


def main():
    dirs = sys.argv[1:] or ["mm-tiering", "kunit"]
    src = dirs[0]
    files = sorted(f for f in os.listdir(src) if f.endswith((".c", ".h")))
    unit_of = {}
    for f in files:
        stem = f.rsplit(".", 1)[0]
        unit_of[f] = PART_OF.get(stem, stem)
    text = {f: strip(open(os.path.join(src, f)).read()) for f in files}
    rank = {u: i for i, u in enumerate(LAYERS)}
    bad = []
    for u in sorted(set(unit_of.values()) - set(rank)):
        bad.append(f"{u}: not in scripts/layers.py's LAYERS")
    owner = {}
    for f in files:
        if f.endswith(".h"):
            for name in exported(open(os.path.join(src, f)).read()):
                owner.setdefault(name, unit_of[f])
    raw = {f: open(os.path.join(src, f)).read() for f in files}
    for f in files:
        u = unit_of[f]
        uses = {}
        for inc in re.findall(r'^\s*#\s*include\s+"(\w+)\.h"', raw[f], re.M):
            uses.setdefault(PART_OF.get(inc, inc), f'#include "{inc}.h"')
        for name in IDENT.findall(text[f]):
            v = owner.get(name)
            if v:
                uses.setdefault(v, name)
        for v, why in sorted(uses.items()):
            if v == u or v not in rank or u not in rank:
                continue
            if rank[v] <= rank[u]:
                bad.append(f"{f}: uses {v} ({why}), which is not below it")
    for d in dirs:
        for f in sorted(os.listdir(d)):
            if f.endswith(".c"):
                bad += long_functions(os.path.join(d, f))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
