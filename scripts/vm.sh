#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's $MMT_KVER kernel under QEMU TCG with two NUMA nodes:
#   node0: 2 CPUs + 1 GiB   ("DRAM": 80 ns, 72 GB/s in HMAT)
#   node1: no CPU, 1 GiB    ("CXL": 250 ns, 26 GB/s in HMAT)
# and run one guest script (tests/guest/ or scripts/guest/) as init's job; the serial console
# goes to stdout.  MMT_TOPO=flat gives each node one CPU instead (no lower
# tier: nothing to tier).  The console shows warnings and worse
# (MMT_LOGLEVEL, default 5): info lines stay in dmesg, where the scripts read
# them; a serial console printing every enable under TCG slows a stress loop
# to a crawl.  MMT_KERNEL=bzImage boots another kernel (the
# sanitizer kernel of scripts/debug-kernel.sh).  MMT_TOPO=hotplug: node1
# has 256 MiB at boot plus a 768 MiB pc-dimm that the guest finds offline
# (memhp_default_state=offline) and onlines itself while a test runs;
# MMT_TOPO=hotplug_new: the same without node1's boot memory (node1 has
# no memory until the guest onlines the DIMM).  MMT_SMP=N gives node0 N
# CPUs instead of 2 (the mm migration selftest wants at least 3).
# MMT_DISK=disk.img: the
# Debian guest of scripts/debian-guest.sh (its kernel, initramfs and root
# disk, written to a snapshot that the boot throws away; systemd runs the
# script, and the guest may reboot: it ends by powering off).
#   scripts/vm.sh INITRD SCRIPT [TIMEOUT_S] [extra kernel args...]
set -euo pipefail

. "$(dirname "$0")/env.sh"
initrd=$1 script=$2 tmo=${3:-600}
shift 3 || shift $#
kernel=${MMT_KERNEL:-$MMT_KDIR/usr/lib/modules/$MMT_KVER/vmlinuz}

mem=(-m 2G -object memory-backend-ram,id=m0,size=1G
     -object memory-backend-ram,id=m1,size=1G)
extra= node1=memdev=m1,
case ${MMT_TOPO:-} in
hotplug_new)
	mem=(-m 1G,slots=2,maxmem=4G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=hp0,size=768M
	     -device pc-dimm,id=dimm0,memdev=hp0,node=1)
	extra=memhp_default_state=offline node1=
	;;
hotplug)
	mem=(-m 1280M,slots=2,maxmem=4G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=m1,size=256M
	     -object memory-backend-ram,id=hp0,size=768M
	     -device pc-dimm,id=dimm0,memdev=hp0,node=1)
	extra=memhp_default_state=offline
	;;
esac
if [ "${MMT_TOPO:-}" = flat ]; then
	# one socket per node, or the kernel warns that CPUs sharing a cache
	# sit on different nodes
	numa=(-machine pc -smp 2,sockets=2,cores=1,threads=1
	      -numa node,nodeid=0,cpus=0,memdev=m0
	      -numa node,nodeid=1,cpus=1,memdev=m1)
else
	smp=${MMT_SMP:-2}
	numa=(-machine pc,hmat=on -smp "$smp"
	      -numa "node,nodeid=0,cpus=0-$((smp - 1)),memdev=m0,initiator=0"
	      -numa "node,nodeid=1,${node1}initiator=0"
	      -numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=80
	      -numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=72G
	      -numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=250
	      -numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=26G)
fi

disk=(-no-reboot)
if [ -n "${MMT_DISK:-}" ]; then
	disk=(-drive "file=$MMT_DISK,format=raw,if=virtio,snapshot=on" -nic none)
	extra="$extra root=/dev/vda rw systemd.show_status=0"
fi

exec timeout --foreground -k 5 "$tmo" qemu-system-x86_64 \
	-accel "tcg,thread=${MMT_TCG_THREAD:-single}" -cpu max \
	"${mem[@]}" "${numa[@]}" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 loglevel=${MMT_LOGLEVEL:-5} panic=-1 mmt.script=$script $extra $*" \
	-display none -serial stdio -monitor none "${disk[@]}"
