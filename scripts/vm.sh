#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's $MMT_KVER kernel under QEMU TCG with two NUMA nodes:
#   node0: 2 CPUs + 1 GiB   ("DRAM": 80 ns, 72 GB/s in HMAT)
#   node1: no CPU, 1 GiB    ("CXL": 250 ns, 26 GB/s in HMAT)
# and run one guest script (tests/guest/, bench/guest/ or scripts/guest/)
# as init's job; the serial console
# goes to stdout.  MMT_TOPO=flat gives each node one CPU instead (no lower
# tier: nothing to tier).  The console shows warnings and worse
# (MMT_LOGLEVEL, default 5): info lines stay in dmesg, where the scripts read
# them; a serial console printing every enable under TCG slows a stress loop
# to a crawl.  MMT_KERNEL=bzImage boots another kernel (the
# sanitizer kernel of scripts/debug-kernel.sh).  MMT_TOPO=hotplug: node1
# has 256 MiB at boot plus a 768 MiB pc-dimm that the guest finds offline
# (memhp_default_state=offline) and onlines itself while a test runs;
# MMT_TOPO=hotplug_new: the same without node1's boot memory (node1 has
# no memory until the guest onlines the DIMM).  MMT_TOPO=join: node1 a
# 512 MiB CPU-less node, node2 a farther one whose only memory is an
# offline 512 MiB pc-dimm (a node that joins and leaves while node1 runs),
# then a 256 MiB pc-dimm of node1's above node2's: node1's span holds the
# PCI hole and all of node2.  MMT_NODE_MB=N: both nodes of the default
# topology N MiB instead of 1024.  MMT_LOWERS=K: the default topology's
# CPU-less memory split over K nodes (1 to 8; the same total in 128 MiB
# blocks, the first nodes one block more where it does not divide, a
# remainder under a block left out), all alike in SLIT and HMAT.  MMT_SMP=N gives node0 N
# CPUs instead of 2 (the mm migration selftest wants at least 3).
# MMT_TOPO=sockets: two sockets of a CPU, 1 GiB and a 512 MiB CPU-less node
# each (nodes 0 and 1 upper, 2 behind 0, 3 behind 1).  MMT_TOPO=nodes8:
# the same two sockets with three 256 MiB CPU-less nodes each, at three
# distances (2-4 behind node0, 5-7 behind node1).  MMT_TOPO=nodes24: node0
# with both CPUs and 1 GiB, 23 CPU-less nodes of 128 MiB (a memory block
# each) behind it, each a step farther.  MMT_TOPO=ranges: node1 256 MiB at
# boot and a 2304 MiB pc-dimm onlined movable at boot (18 blocks, for more
# ranges than a small table holds).  MMT_TOPO=stress: the default topology
# and an offline 128 MiB pc-dimm of node1's (a memory event that moves no
# page).  MMT_DISK=disk.img: the
# Debian guest of scripts/debian-guest.sh (its kernel, initramfs and root
# disk, written to a snapshot that the boot throws away; systemd runs the
# script, and the guest may reboot: it ends by powering off).
#   scripts/vm.sh INITRD SCRIPT [TIMEOUT_S] [extra kernel args...]
set -euo pipefail

. "$(dirname "$0")/env.sh"
initrd=$1 script=$2 tmo=${3:-600}
shift 3 || shift $#
kernel=${MMT_KERNEL:-$MMT_KDIR/usr/lib/modules/$MMT_KVER/vmlinuz}

# MMT_NODE_MB: the two nodes' size in the default topology (1024)
nmb=${MMT_NODE_MB:-1024}
lowers=${MMT_LOWERS:-1}
[ -z "${MMT_TOPO:-}" ] || lowers=1
mem=(-m $((2 * nmb))M -object "memory-backend-ram,id=m0,size=${nmb}M")
if [ "$lowers" -le 1 ]; then
	mem+=(-object "memory-backend-ram,id=m1,size=${nmb}M")
else
	blocks=$((nmb / 128))
	if [ "$lowers" -gt 8 ] || [ "$lowers" -gt "$blocks" ]; then
		echo "vm.sh: MMT_LOWERS=$lowers: 1 to 8, at most $blocks" >&2
		exit 2
	fi
	# -m is the sum of the nodes' memory
	mem[1]=$((nmb + blocks * 128))M
	for n in $(seq 1 "$lowers"); do
		b=$((blocks / lowers + (n - 1 < blocks % lowers)))
		mem+=(-object "memory-backend-ram,id=m$n,size=$((b * 128))M")
	done
fi
extra='' node1=memdev=m1,
# dimm_node1 BOOT_MB DIMM_MB STATE: node0 1 GiB, node1 BOOT_MB at boot and a
# DIMM_MB pc-dimm, which the guest's kernel onlines as STATE
# (memhp_default_state) at boot
dimm_node1() {
	mem=(-m $((1024 + $1))M,slots=2,maxmem=4G
	     -object memory-backend-ram,id=m0,size=1G
	     -object "memory-backend-ram,id=m1,size=$1M"
	     -object "memory-backend-ram,id=hp0,size=$2M"
	     -device pc-dimm,id=dimm0,memdev=hp0,node=1)
	extra=memhp_default_state=$3
}
case ${MMT_TOPO:-} in
hotplug_new)
	mem=(-m 1G,slots=2,maxmem=4G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=hp0,size=768M
	     -device pc-dimm,id=dimm0,memdev=hp0,node=1)
	extra=memhp_default_state=offline node1=
	;;
join)
	mem=(-m 1536M,slots=2,maxmem=4G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=m1,size=512M
	     -object memory-backend-ram,id=hp0,size=512M
	     -device pc-dimm,id=dimm0,memdev=hp0,node=2
	     -object memory-backend-ram,id=hp1,size=256M
	     -device pc-dimm,id=dimm1,memdev=hp1,node=1)
	extra=memhp_default_state=offline
	;;
sockets)
	mem=(-m 3G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=m1,size=1G
	     -object memory-backend-ram,id=m2,size=512M
	     -object memory-backend-ram,id=m3,size=512M)
	;;
shared)
	mem=(-m 3G
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=m1,size=1G
	     -object memory-backend-ram,id=m2,size=1G)
	;;
nodes8)
	mem=(-m 3584M
	     -object memory-backend-ram,id=m0,size=1G
	     -object memory-backend-ram,id=m1,size=1G)
	for n in 2 3 4 5 6 7; do
		mem+=(-object "memory-backend-ram,id=m$n,size=256M")
	done
	;;
nodes24)
	mem=(-m 3968M -object memory-backend-ram,id=m0,size=1G)
	for n in $(seq 1 23); do
		mem+=(-object "memory-backend-ram,id=m$n,size=128M")
	done
	;;
stress) dimm_node1 1024 128 offline ;;
ranges) dimm_node1 256 2304 online_movable ;;
hotplug) dimm_node1 256 768 offline ;;
esac
# hmat_lb INITIATOR TARGET NS GBPS: an HMAT latency and bandwidth entry
hmat_lb() {
	echo -numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3"
	echo -numa "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4G"
}
if [ "${MMT_TOPO:-}" = sockets ]; then
	# two sockets, each a CPU with 1 GiB ("DRAM") and its own 512 MiB
	# CPU-less node ("CXL"): node2 behind socket 0, node3 behind socket 1;
	# the other socket's memory is farther (SLIT and HMAT)
	numa=(-machine pc,hmat=on -smp 2,sockets=2,cores=1,threads=1
	      -numa node,nodeid=0,cpus=0,memdev=m0,initiator=0
	      -numa node,nodeid=1,cpus=1,memdev=m1,initiator=1
	      -numa node,nodeid=2,memdev=m2,initiator=0
	      -numa node,nodeid=3,memdev=m3,initiator=1
	      -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=24
	      -numa dist,src=0,dst=3,val=34 -numa dist,src=1,dst=2,val=34
	      -numa dist,src=1,dst=3,val=24 -numa dist,src=2,dst=3,val=44
	      $(hmat_lb 0 0 80 72; hmat_lb 0 1 130 40; hmat_lb 0 2 250 26
		hmat_lb 0 3 350 13; hmat_lb 1 0 130 40; hmat_lb 1 1 80 72
		hmat_lb 1 2 350 13; hmat_lb 1 3 250 26))
elif [ "${MMT_TOPO:-}" = shared ]; then
	# two sockets sharing one CPU-less node, as far from either
	numa=(-machine pc,hmat=on -smp 2,sockets=2,cores=1,threads=1
	      -numa node,nodeid=0,cpus=0,memdev=m0,initiator=0
	      -numa node,nodeid=1,cpus=1,memdev=m1,initiator=1
	      -numa node,nodeid=2,memdev=m2,initiator=0
	      -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=24
	      -numa dist,src=1,dst=2,val=24
	      $(hmat_lb 0 0 80 72; hmat_lb 0 1 130 40; hmat_lb 0 2 250 26
		hmat_lb 1 0 130 40; hmat_lb 1 1 80 72; hmat_lb 1 2 250 26))
elif [ "${MMT_TOPO:-}" = nodes8 ]; then
	# eight memory nodes: two sockets of a CPU and 1 GiB each (nodes 0
	# and 1), three 256 MiB CPU-less nodes behind each, at three distances
	# (2, 3, 4 behind socket 0; 5, 6, 7 behind socket 1)
	numa=(-machine pc,hmat=on -smp 2,sockets=2,cores=1,threads=1)
	for n in 0 1 2 3 4 5 6 7; do
		s=$((n < 2 ? n : (n - 2) / 3))
		c=; [ $n -lt 2 ] && c=cpus=$n,
		numa+=(-numa "node,nodeid=$n,${c}memdev=m$n,initiator=$s")
	done
	# sock N, rank N (0: the DRAM, 1-3: the CPU-less nodes by distance)
	sock() { echo $(($1 < 2 ? $1 : ($1 - 2) / 3)); }
	rank() { echo $(($1 < 2 ? 0 : ($1 - 2) % 3 + 1)); }
	for a in 0 1 2 3 4 5 6 7; do
		for b in 0 1 2 3 4 5 6 7; do
			[ $b -gt $a ] || continue
			d=$((10 + 7 * ($(rank $a) + $(rank $b))))
			[ "$(sock $a)" = "$(sock $b)" ] || d=$((d + 11))
			numa+=(-numa "dist,src=$a,dst=$b,val=$d")
		done
	done
	for i in 0 1; do
		for n in 0 1 2 3 4 5 6 7; do
			r=$(rank $n) far=0
			[ "$(sock $n)" = $i ] || far=1
			numa+=($(hmat_lb $i $n $((80 + 70 * r + 50 * far)) \
				$((72 / (r + 1) / (far + 1)))))
		done
	done
elif [ "${MMT_TOPO:-}" = nodes24 ]; then
	# node0 the DRAM with both CPUs; nodes 1-23 CPU-less, node n at SLIT
	# distance 20 + n from node0 and 30 + |a - b| from each other, all
	# alike in HMAT (250 ns, 26 GB/s from node0)
	numa=(-machine pc,hmat=on -smp 2
	      -numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0)
	for n in $(seq 1 23); do
		numa+=(-numa "node,nodeid=$n,memdev=m$n,initiator=0")
	done
	for a in $(seq 0 23); do
		for b in $(seq $((a + 1)) 23); do
			d=$((30 + b - a)); [ $a -eq 0 ] && d=$((20 + b))
			numa+=(-numa "dist,src=$a,dst=$b,val=$d")
		done
	done
	numa+=($(hmat_lb 0 0 80 72))
	for n in $(seq 1 23); do
		numa+=($(hmat_lb 0 $n 250 26))
	done
elif [ "${MMT_TOPO:-}" = join ]; then
	# node0 the DRAM, node1 a CPU-less node with memory at boot, node2 a
	# farther CPU-less node whose only memory is the offline pc-dimm
	numa=(-machine pc,hmat=on -smp 2
	      -numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
	      -numa node,nodeid=1,memdev=m1,initiator=0
	      -numa node,nodeid=2,initiator=0
	      -numa dist,src=0,dst=1,val=17 -numa dist,src=0,dst=2,val=28
	      -numa dist,src=1,dst=2,val=28
	      $(hmat_lb 0 0 80 72; hmat_lb 0 1 130 40; hmat_lb 0 2 250 26))
elif [ "${MMT_TOPO:-}" = flat ]; then
	# one socket per node, or the kernel warns that CPUs sharing a cache
	# sit on different nodes
	numa=(-machine pc -smp 2,sockets=2,cores=1,threads=1
	      -numa node,nodeid=0,cpus=0,memdev=m0
	      -numa node,nodeid=1,cpus=1,memdev=m1)
elif [ "$lowers" -gt 1 ]; then
	# node0 as below; nodes 1..K CPU-less, all at SLIT 20 from node0 and
	# HMAT 250 ns, 26 GB/s: K alike devices of the one lower tier
	numa=(-machine pc,hmat=on -smp "${MMT_SMP:-2}"
	      -numa "node,nodeid=0,cpus=0-$((${MMT_SMP:-2} - 1)),memdev=m0,initiator=0")
	for n in $(seq 1 "$lowers"); do
		numa+=(-numa "node,nodeid=$n,memdev=m$n,initiator=0")
	done
	for a in $(seq 0 "$lowers"); do
		for b in $(seq $((a + 1)) "$lowers"); do
			d=30; [ $a -eq 0 ] && d=20
			numa+=(-numa "dist,src=$a,dst=$b,val=$d")
		done
	done
	numa+=($(hmat_lb 0 0 80 72))
	for n in $(seq 1 "$lowers"); do
		numa+=($(hmat_lb 0 $n 250 26))
	done
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
