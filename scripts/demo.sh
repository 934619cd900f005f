#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: provision, build through DKMS, boot Debian's kernel under QEMU
# with a DRAM-like node0 and a CXL-like CPU-less node1, load the module with
# modprobe and show the hot set moving from node1 to node0, live.
set -euo pipefail

. "$(dirname "$0")/env.sh"
out=$MMT_TOP/build/demo
mkdir -p "$out"
"$MMT_TOP/scripts/provision.sh" all
"$MMT_TOP/scripts/build-dkms.sh"
"$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd.gz"
echo "booting Debian $MMT_KVER under QEMU TCG (node0: 2 CPUs + 1 GiB, node1: CPU-less 1 GiB, HMAT 80/250 ns)"
"$MMT_TOP/scripts/vm.sh" "$out/initrd.gz" demo 600 quiet loglevel=3 |
	tr -d '\r' | grep --line-buffered -v '^MMT-BOOT'
