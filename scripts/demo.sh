#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: provision, build the mm-tiering-dkms package and the Debian
# guest it is installed in with apt (scripts/debian-guest.sh: systemd,
# Debian's kernel package), boot it under QEMU with a DRAM-like node0 and a
# CXL-like CPU-less node1, start mm-tiering.service (it modprobes the
# module) and show the hot set moving from node1 to node0, live, with
# mm-tiering-status.
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" all
dir=$("$MMT_TOP/scripts/debian-guest.sh")
echo "booting the Debian guest ($MMT_KVER, systemd) under QEMU TCG (node0: 2 CPUs + 1 GiB, node1: CPU-less 1 GiB, HMAT 80/250 ns)"
MMT_KERNEL=$dir/vmlinuz MMT_DISK=$dir/disk.img \
	"$MMT_TOP/scripts/vm.sh" "$dir/initrd.img" demo 900 quiet loglevel=3 |
	tr -d '\r' | grep --line-buffered -avE '^MMT-(BOOT|END)|^$' |
	sed -u 's/\x1b\[[0-9;?!]*[a-zA-Z]//g; s/\x1b\][0-9]*\x07\?//g'
