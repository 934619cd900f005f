#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make check's output as KTAP (Documentation/dev-tools/ktap.rst).

Reads scripts/check.sh's lines on stdin and writes them on stdout as they
come: each group of results (a scenario, the documents, the code checks,
kernel-reach, the bench smoke test, KUnit) becomes one nested test whose
subtests are its checks ("  PASS name detail" -> "ok N name # detail",
"  FAIL" -> "not ok", "  SKIP" -> "ok N name # SKIP detail"; KUnit's
"[PASSED] name" lines likewise); every other line is a diagnostic ("# ...").
The number of groups is known only at the end, so the top level has no
plan, which KTAP allows.  The last line, "N passed, N failed", is passed
through unchanged for CI.  A line the filter cannot read is passed through
as a diagnostic: the filter never loses output.
"""
import re
import sys

RESULT = re.compile(r"^  (PASS|FAIL|SKIP) (\S+)\s?(.*)$")
KUNIT = re.compile(r"^\s*\[(PASSED|FAILED|SKIPPED)\] (.*)$")
SCENARIO_END = re.compile(r"^  \((\S+): \d+ passed, \d+ failed.*\)$")
SUMMARY = re.compile(r"^\d+ passed, \d+ failed$")
SCRIPT = re.compile(r"scripts/([\w-]+)\.sh")


class Ktap:
    def __init__(self, out):
        self.out = out
        self.group = None
        self.results = []
        self.number = 0
        self.say("KTAP version 1")

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def start(self, name):
        self.flush()
        self.group = name

    def flush(self, name=None):
        name = name or self.group or "check"
        if self.results:
            self.number += 1
            self.say("  KTAP version 1")
            self.say(f"  # Subtest: {name}")
            self.say(f"  1..{len(self.results)}")
            for i, (ok, test, directive) in enumerate(self.results, 1):
                self.say(f"  {'ok' if ok else 'not ok'} {i} {test}{directive}")
            failed = any(not ok for ok, _, _ in self.results)
            self.say(f"{'not ok' if failed else 'ok'} {self.number} {name}")
        self.results = []
        self.group = None

    def result(self, kind, test, detail):
        test = re.sub(r"[#\s]+", "_", test.rstrip(":"))
        detail = detail.replace("#", "no.")
        if kind in ("SKIP", "SKIPPED"):
            directive = " # SKIP" + (f" {detail}" if detail else "")
        else:
            directive = f" # {detail}" if detail else ""
        self.results.append((kind not in ("FAIL", "FAILED"), test, directive))

    def line(self, line):
        m = RESULT.match(line)
        if m:
            self.result(*m.groups())
            return
        if self.group == "kunit":
            m = KUNIT.match(line)
            if m:
                self.result(m.group(1), m.group(2), "")
                return
        m = SCENARIO_END.match(line)
        if m:
            self.say("# " + line.strip())
            self.flush(m.group(1))
            return
        if SUMMARY.match(line):
            self.flush()
            self.say(line)
            return
        if line.startswith("== "):
            m = re.match(r"== scenario (\S+)", line)
            s = SCRIPT.search(line)
            if m:
                self.start(m.group(1))
            elif line.startswith("== KUnit"):
                self.start("kunit")
            elif line.startswith("== bench"):
                self.start("bench")
            elif s:
                self.start(s.group(1))
            else:
                self.flush()
        self.say("# " + line if line else "#")


def main():
    k = Ktap(sys.stdout)
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        line = line.rstrip("\n")
        try:
            k.line(line)
        except Exception:  # never lose a line
            k.say("# " + line)
    k.flush()


if __name__ == "__main__":
    main()
