#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Eight memory nodes (MMT_TOPO=nodes8): two sockets
# of a CPU and 1 GiB, three 256 MiB CPU-less nodes behind each at three
# distances.  Every node tiered: each CPU-less node promotes to its own
# socket's DRAM, each DRAM demotes into its nearest CPU-less node; status
# has a line for every node.  The hot sets start on the farthest CPU-less
# node of each socket (4 and 7) and end on their own DRAM; the rest is
# sockets.sh, which reads the variables below.
# shellcheck disable=SC2034
LOW0=4 LOW1=7 EXPECT="0 upper 2
1 upper 5
2 lower 0
3 lower 0
4 lower 0
5 lower 1
6 lower 1
7 lower 1" FOREIGN0="1 5 6 7" FOREIGN1="0 2 3 4"
. /mmt/sockets.sh
