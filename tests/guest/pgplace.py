#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""pgplace: on which node each PostgreSQL shared buffer's pages are.

  pgplace.py PID [MIN_USAGE]

PID is the postmaster's.  Its main shared memory segment is the largest
"/dev/zero (deleted)" mapping (huge_pages=off); the buffer pool starts at
the "Buffer Blocks" allocation's offset in it (pg_get_shmem_allocations(),
aligned up to 4096 as PostgreSQL aligns it), buffer b (1-based) at
(b - 1) * 8192 from there.  pg_buffercache gives each used buffer's usage
count.  The segment is mapped here too (/proc/PID/map_files: the same shmem
pages; a backend maps only the buffers it touched), each used buffer's
pages read once to map them, and move_pages(2) with no target nodes gives
each page's node.  Prints
one line:
  pgplace buffers=N buffers_up=N hot=N hot_up=N min_usage=U other=N
counting 4 KiB pages: of every buffer holding a block, and of those whose
usage count is at least MIN_USAGE (default 4: buffers the clock sweep
keeps finding used), on node 0 ("up"); other: pages on no node or unmapped.
"""
import ctypes
import mmap
import os
import subprocess
import sys

SYS_MOVE_PAGES = 279    # x86_64
PAGE = 4096
BLCKSZ = 8192


def psql(sql):
    out = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-XAt",
                          "-F", " ", "-c", sql], check=True,
                         capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line]


def segment(pid):
    best = (0, 0)
    with open("/proc/%d/maps" % pid) as f:
        for line in f:
            if not line.rstrip().endswith("/dev/zero (deleted)"):
                continue
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if hi - lo > best[1] - best[0]:
                best = (lo, hi)
    if not best[1]:
        sys.exit("pgplace: no shared memory segment in /proc/%d/maps" % pid)
    return best


def nodes(pid, lo, hi, offsets):
    """the node of each page at @offsets in PID's segment lo-hi"""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_long)
    fd = os.open("/proc/%d/map_files/%x-%x" % (pid, lo, hi), os.O_RDONLY)
    base = libc.mmap(None, hi - lo, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    os.close(fd)
    if base in (None, ctypes.c_void_p(-1).value):
        sys.exit("pgplace: mmap: errno %d" % ctypes.get_errno())
    # one read per page maps it: used buffers' pages are present, so
    # nothing is allocated
    for off in offsets:
        ctypes.c_char.from_address(base + off).value
    n = len(offsets)
    pages = (ctypes.c_void_p * n)(*(base + off for off in offsets))
    status = (ctypes.c_int * n)()
    if libc.syscall(SYS_MOVE_PAGES, 0, ctypes.c_ulong(n), pages, None,
                    status, 0) < 0:
        sys.exit("pgplace: move_pages: errno %d" % ctypes.get_errno())
    return list(status)


def main():
    pid = int(sys.argv[1])
    min_usage = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    lo, hi = segment(pid)
    off = int(psql("SELECT off FROM pg_get_shmem_allocations() "
                   "WHERE name = 'Buffer Blocks'")[0][0])
    base = (off + PAGE - 1) // PAGE * PAGE     # from the segment's start
    bufs = psql("SELECT bufferid, usagecount FROM pg_buffercache "
                "WHERE relfilenode IS NOT NULL")
    offsets, usage = [], []
    for bufferid, count in bufs:
        start = base + (int(bufferid) - 1) * BLCKSZ
        if start + BLCKSZ > hi - lo:
            sys.exit("pgplace: buffer %s past the segment's end" % bufferid)
        for p in range(0, BLCKSZ, PAGE):
            offsets.append(start + p)
            usage.append(int(count or 0))
    st = nodes(pid, lo, hi, offsets)
    c = dict(buffers=len(st), buffers_up=0, hot=0, hot_up=0, other=0)
    for node, count in zip(st, usage):
        hot = count >= min_usage
        c["hot"] += hot
        if node == 0:
            c["buffers_up"] += 1
            c["hot_up"] += hot
        elif node < 0:
            c["other"] += 1
    print("pgplace buffers=%d buffers_up=%d hot=%d hot_up=%d min_usage=%d other=%d" %
          (c["buffers"], c["buffers_up"], c["hot"], c["hot_up"], min_usage, c["other"]))


if __name__ == "__main__":
    main()
