#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read mm-tiering-status --prometheus output with Prometheus's own parser.

  prom-check.py FILE NODES   (NODES: the tiered node ids, as "0 1")

Prints one line and exits 0 when the text parses and says what the module
does: mm_tiering_up 1, a kdamond up and both migrated-bytes directions for
every node, counters whole and non-negative, ratios within 0..1; else 1.
"""
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    text = open(sys.argv[1]).read()
    nodes = set(sys.argv[2].split())
    try:
        families = list(text_string_to_metric_families(text))
    except ValueError as e:
        print("does not parse: %s" % e)
        return 1
    samples = [s for f in families for s in f.samples]
    bad = []
    up = [s.value for s in samples if s.name == "mm_tiering_up"]
    if up != [1.0]:
        bad.append("mm_tiering_up %s" % up)
    for name, want in (("mm_tiering_kdamond_up", {(n,) for n in nodes}),
                       ("mm_tiering_migrated_bytes_total",
                        {(n, d) for n in nodes for d in ("promote", "demote")})):
        got = {tuple(v for k, v in sorted(s.labels.items(), key=lambda kv: kv[0] != "node")
                     if k in ("node", "direction"))
               for s in samples if s.name == name}
        if got != want:
            bad.append("%s for %s, want %s" % (name, sorted(got), sorted(want)))
    for s in samples:
        if s.name.endswith("_total") and (s.value < 0 or s.value != int(s.value)):
            bad.append("%s %s" % (s.name, s.value))
        if s.name.endswith("_ratio") and not 0 <= s.value <= 1:
            bad.append("%s %s" % (s.name, s.value))
    types = {f.name: f.type for f in families}
    print("%d families (%s), %d samples%s" % (
        len(families), ", ".join("%s %s" % kv for kv in sorted(types.items())),
        len(samples), "; " + "; ".join(bad) if bad else ""))
    return 1 if bad or not samples else 0


if __name__ == "__main__":
    sys.exit(main())
