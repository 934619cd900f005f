#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: provision, build and install through DKMS, then run every
# guest scenario in its own QEMU boot.  Each guest script announces how many
# results it owes (MMT-PLAN n) and prints MMT-TEST PASS|FAIL lines; a result
# it never printed (crash, hang, timeout) counts as failed.  The output is
# KTAP (scripts/ktap.py); the last line is "N passed, N failed".
#   scripts/check.sh [scenario...]     (make check T="..."; scenarios named:
#                                      only those, see below; default: all
#                                      but "sockets", which
#                                      "nodes8" contains, and "shared", a
#                                      measurement; "debug" (the
#                                      sanitizer kernel's scenarios), "core"
#                                      (stock, control, tiering, params and
#                                      phase on each of $MMT_CORE_KVERS,
#                                      default 6.12.117+deb13-amd64 and
#                                      7.2.12+deb13-amd64; those of
#                                      $MMT_CORE_SHORT_KVERS, default none,
#                                      stock, tiering and params), the bench
#                                      smoke test, KUnit; "service",
#                                      "postgres" and "selftests" boot the
#                                      Debian guest of scripts/debian-guest.sh)
# Guests run $MMT_JOBS (default 2) at a time.  MMT_NO_KUNIT=1 skips the
# KUnit run, MMT_NO_BENCH=1 the bench smoke test, MMT_NO_DEBUG=1 the
# sanitizer kernel, MMT_NO_CORE=1 the other kernels; MMT_SCALE=N multiplies
# the stress suite's counts.
set -uo pipefail

. "$(dirname "$0")/env.sh"
# The output as KTAP (scripts/ktap.py): each group of results a nested test,
# the rest diagnostics, the last line "N passed, N failed" as it is.
# MMT_RAW=1: the lines as the scripts print them.
if [ -z "${MMT_RAW:-}" ] && [ -z "${MMT_KTAP_FILTERED:-}" ]; then
	MMT_KTAP_FILTERED=1 bash "$MMT_TOP/scripts/check.sh" "$@" | python3 -u "$MMT_TOP/scripts/ktap.py"
	exit "${PIPESTATUS[0]}"
fi
out=$MMT_TOP/build/check
mkdir -p "$out"
# Scenarios named (make check T="phase tiering"): only those, and only the
# set-up they need; the pseudo-scenarios "kunit", "bench", "reach"
# (scripts/kernel-reach.sh) and "piuparts" name the rest, which a full run
# always has.
only=$# no_reach='' no_piuparts=''
if [ "$only" -gt 0 ]; then
	case " $* " in *" kunit "*) ;; *) MMT_NO_KUNIT=1 ;; esac
	case " $* " in *" bench "*) ;; *) MMT_NO_BENCH=1 ;; esac
	case " $* " in *" reach "*) ;; *) no_reach=1 ;; esac
	case " $* " in *" piuparts "*) ;; *) no_piuparts=1 ;; esac
	# shellcheck disable=SC2046 # scenario names are single words
	set -- $(for s in "$@"; do
		case $s in kunit|bench|reach|piuparts) ;; *) echo "$s" ;; esac
	done)
fi
# The scenarios and their facts (tests/scenarios)
. "$MMT_TOP/scripts/scenarios.sh"
for s in "$@"; do
	case $s in debug|core) ;; *)
		[ -n "${S_RUN[$s]:-}" ] ||
			{ echo "check: no scenario '$s' in tests/scenarios"; echo "0 passed, 1 failed"; exit 1; } ;;
	esac
done

passed=0
failed=0

step() { echo "== $*"; }
die_setup() {
	echo "check: $1 failed" >&2
	echo "0 passed, 1 failed"
	exit 1
}

step "provision (cache: $MMT_CACHE)"
"$MMT_TOP/scripts/provision.sh" all || die_setup provisioning
step "build mm-tiering-dkms and -tools, install them with apt (DKMS builds against linux-headers-$MMT_KVER)"
"$MMT_TOP/scripts/build-dkms.sh" || die_setup "the DKMS build"
"$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd.gz" || die_setup initramfs
step "the documents against the module and the Makefile (scripts/docs-check.sh)"
"$MMT_TOP/scripts/docs-check.sh" \
	"${MMT_STAGE:-$MMT_CACHE/stage-$MMT_KVER}/lib/modules/$MMT_KVER/updates/dkms/mm_tiering.ko" \
	"$(ls "$MMT_TOP/build/deb-$MMT_KVER"/mm-tiering-dkms_*_all.deb 2>/dev/null | tail -1)" \
	"$MMT_ROOT/var/lib/dkms/mok.pub" |
	tee "$out/docs-check.out"
passed=$((passed + $(grep -c '^  PASS ' "$out/docs-check.out")))
failed=$((failed + $(grep -c '^  FAIL ' "$out/docs-check.out")))
step "the code's layers, style and licences (scripts/code-check.sh)"
"$MMT_TOP/scripts/code-check.sh" "$("$MMT_TOP/scripts/provision.sh" checkpatch)" |
	tee "$out/code-check.out"
passed=$((passed + $(grep -c '^  PASS ' "$out/code-check.out")))
failed=$((failed + $(grep -c '^  FAIL ' "$out/code-check.out")))
step "the packaging from a checkout: dpkg-buildpackage, lintian (scripts/package-check.sh)"
"$MMT_TOP/scripts/package-check.sh" | tee "$out/package-check.out"
passed=$((passed + $(grep -c '^  PASS ' "$out/package-check.out")))
failed=$((failed + $(grep -c '^  FAIL ' "$out/package-check.out")))
# piuparts in the background (its results reported last): mostly
# downloads and dpkg in a chroot of its own, beside the scenarios
piuparts_pid=
if [ -z "$no_piuparts" ]; then
	# piuparts installed into the root first, in the foreground: on an
	# empty cache its apt would hold the root's dpkg lock while
	# kernel-reach, next, needs it
	"$MMT_TOP/scripts/provision.sh" piuparts >/dev/null ||
		die_setup "piuparts in the root"
	"$MMT_TOP/scripts/piuparts-check.sh" >"$out/piuparts-check.out" 2>&1 &
	piuparts_pid=$!
fi
# KUnit's UML kernel builds in the background from here (its results are
# reported last): kernel-reach is mostly downloads and dpkg, and the first
# scenarios have wide margins, so its 5 minutes of compiling cost little
# wall time there, where at the end they were all serial.
kunit_pid=
if [ -z "${MMT_NO_KUNIT:-}" ]; then
	# its source fetched first, through the root's apt, before
	# kernel-reach uses that apt
	"$MMT_TOP/scripts/provision.sh" tarball || die_setup "fetching linux-source"
	"$MMT_TOP/scripts/kunit.sh" >"$out/kunit.out" 2>&1 &
	kunit_pid=$!
fi
if [ -z "$no_reach" ]; then
	step "kernel headers installed beside the module: 6.12 built by DKMS, 6.1 skipped, apt succeeds (scripts/kernel-reach.sh)"
	"$MMT_TOP/scripts/kernel-reach.sh" | tee "$out/kernel-reach.out"
	passed=$((passed + $(grep -c '^  PASS ' "$out/kernel-reach.out")))
	failed=$((failed + $(grep -c '^  FAIL ' "$out/kernel-reach.out")))
fi

# run_one NAME LOG INITRD [kernel args...]: one boot (two tries when the boot
# never reached init: the bench's fault, not a result); environment as
# for vm.sh (MMT_KVER, MMT_KERNEL)
run_one() {
	local s=$1 log=$2 initrd=$3 topo=${S_TOPO[$1]} smp=${S_CPUS[$1]} try t0 el gs
	local g=$MMT_CACHE/guest-$MMT_KVER disk='' kernel=${MMT_KERNEL:-}
	shift 3
	# the Debian guest's scenarios boot its disk, kernel and initramfs
	case " $GUEST " in *" $s "*)
		disk=$g/disk.img initrd=$g/initrd.img kernel=$g/vmlinuz ;;
	esac
	rm -f "${log%.log}.clock.log" "${log%.log}.clock.txt"
	for try in 1 2; do
		t0=$(date +%s)
		MMT_TOPO=$topo MMT_SMP=$smp MMT_DISK=$disk MMT_KERNEL=$kernel \
			"$MMT_TOP/scripts/vm.sh" "$initrd" "$s" \
			"$(timeout_of "$s")" "$@" </dev/null >"$log" 2>&1
		if ! grep -q '^MMT-BOOT' "$log"; then
			cp "$log" "${log%.log}.boot$try.log"
			continue
		fi
		# the guest's clock is the host's (QEMU's virtual clock, under
		# TCG the host's monotonic one): a guest that read more seconds
		# than its boot lasted saw the machine's clock jump, and the
		# kernel reported stalls that no code of the guest made (CI saw
		# a printk time of 125653 s in a 279 s boot).  Booted once more.
		gs=$(guest_secs "$log")
		el=$(( $(date +%s) - t0 ))
		if [ "$try" -eq 1 ] && [ "$gs" -gt $((el + 60)) ]; then
			echo "guest clock read $gs s in a $el s boot" >"${log%.log}.clock.txt"
			cp "$log" "${log%.log}.clock.log"
			continue
		fi
		break
	done
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	case $s in service) { plot_record "$log"; metrics_parse "$log"; } >>"$log" ;; esac
}

# guest_secs LOG: the most seconds the guest's clock read, from the
# console's printk times and the uptime its end marker gives
guest_secs() {
	tr -d '\r' <"$1" | awk '
		/^\[ *[0-9]+\.[0-9]+\]/ { sub(/^\[ */, ""); t = int($1); if (t > m) m = t }
		/^MMT-END .*uptime=/ { sub(/.*uptime=/, ""); t = int($1); if (t > m) m = t }
		END { print m + 0 }'
}

# plot_record LOG: the one result of the service scenario that the host
# gives: mm-tiering-status plot (matplotlib, on the host) draws the record
# its guest printed (MMT-CSV lines) as a PNG beside the log
plot_record() {
	local csv=${1%.log}.record.csv png=${1%.log}.record.png msg rc rows
	sed -n 's/^MMT-CSV //p' "$1" >"$csv"
	rows=$(( $(wc -l <"$csv") - 1 ))
	msg=$(/usr/bin/python3 "$MMT_TOP/service/mm-tiering-status" plot \
		--title "mm_tiering in the Debian guest ($MMT_KVER, QEMU TCG): a 100 MiB hot set moving" \
		"$csv" "$png" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ "$rows" -ge 20 ] &&
	   [ "$(stat -c %s "$png" 2>/dev/null || echo 0)" -gt 10000 ] &&
	   echo "$msg" | grep -q "^plot: $rows samples, nodes 0 1, peak migration [1-9]"; then
		echo "MMT-TEST PASS service_record_plot ${msg#plot: } ($(stat -c %s "$png") bytes)"
	else
		echo "MMT-TEST FAIL service_record_plot rc=$rc rows=$rows: $msg"
	fi
}

# metrics_parse LOG: the service scenario's other result on the host: the
# metrics its guest printed (MMT-PROM lines) read by Prometheus's own text
# parser (python3-prometheus-client)
metrics_parse() {
	local prom=${1%.log}.prom msg
	sed -n 's/^MMT-PROM //p' "$1" >"$prom"
	if msg=$(/usr/bin/python3 "$MMT_TOP/scripts/prom-check.py" "$prom" "0 1" 2>&1); then
		echo "MMT-TEST PASS service_metrics_parse $msg"
	else
		echo "MMT-TEST FAIL service_metrics_parse $(echo "$msg" | tail -3 | tr '\n' ' ')"
	fi
}

# console_reports LOG: the kernel's reports on a boot's console, first line
# to last, one line each (the console shows warnings and worse: vm.sh's
# loglevel).  A guest's dmesg_clean reads the ring buffer once, at its end,
# where an early report may have scrolled out; the console keeps all.  A
# guest script names reports it provokes and counts itself by printing
# "MMT-ALLOW <ERE>" first (offline: the offline's own allocation failures).
REPORT='WARNING:|BUG:|Oops|general protection fault|Kernel panic|possible (circular|recursive) locking|inconsistent lock state|blocked for more than|invoked oom-killer|page allocation failure|UBSAN:|KASAN:|KFENCE:|detected stall|soft lockup|hard LOCKUP'
console_reports() {
	local allow
	allow=$(sed -n 's/^MMT-ALLOW //p' "$1" | paste -sd'|')
	grep -E "^\[ *[0-9]+\.[0-9]+\] .*($REPORT)" "$1" |
		if [ -n "$allow" ]; then grep -vE "$allow"; else cat; fi
}

# report NAME LOG SECONDS: print the results of one boot and count them
report() {
	local s=$1 log=$2 secs=$3 want p f sk missing c
	want=$(sed -n 's/^MMT-PLAN \([0-9]*\).*/\1/p' "$log" | head -1)
	p=$(grep -c '^MMT-TEST PASS ' "$log")
	f=$(grep -c '^MMT-TEST FAIL ' "$log")
	sk=$(grep -c '^MMT-TEST SKIP ' "$log")
	grep -E '^MMT-(TEST|INFO) ' "$log" | sed 's/^MMT-TEST /  /; s/^MMT-INFO /    info: /'
	missing=$(( ${want:-1} - p - f - sk ))
	if ! grep -q '^MMT-BOOT' "$log"; then
		echo "  note: no boot of $s reached init; $(grep -m1 -E 'Kernel panic|Oops' "$log")"
	fi
	if [ -e "${log%.log}.clock.txt" ]; then
		c=${log%.log}.clock
		echo "  note: $s booted twice: in the first boot the $(cat "$c.txt") (its log: ${c#"$MMT_TOP"/}.log)"
	fi
	if ! grep -q '^MMT-END rc=0' "$log"; then
		echo "  FAIL $s: the guest did not finish (see ${log#"$MMT_TOP"/})"
		grep -E 'Kernel panic|BUG|Oops|WARNING|possible .* locking' "$log" | head -5 | sed 's/^/    /'
		[ $missing -lt 1 ] && missing=1
	fi
	c=$(console_reports "$log")
	if [ -z "$c" ]; then
		echo "  PASS ${s}_console_clean no kernel report on the console"
		p=$((p + 1))
	else
		echo "  FAIL ${s}_console_clean $(echo "$c" | wc -l) kernel report(s) on the console, the first: $(echo "$c" | head -1)"
		f=$((f + 1))
	fi
	[ $missing -gt 0 ] && echo "  FAIL $s: $missing result(s) never reported"
	[ $missing -lt 0 ] && missing=0
	passed=$((passed + p))
	failed=$((failed + f + missing))
	c=''
	[ "$sk" -gt 0 ] && c=", $sk skipped"
	echo "  ($s: $p passed, $((f + missing)) failed$c, $secs s)"
}

SOLO=$(scenarios_where LANE solo)
GUEST=$(scenarios_where BOOT debian)
# guest_desc NAME DESC: the description of NAME's boot (DESC names the
# kernel and the two-node topology; the others' topologies are vm.sh's)
guest_desc() {
	local k=${2%%, node0*} t=${S_MACHINE[$1]:-}
	case $GUEST in
	*" $1 "*) echo "QEMU TCG, Debian trixie guest with systemd, $MMT_KVER; ${t:-${2#"$k", }}" ;;
	*) if [ -n "$t" ]; then echo "$k, $t"; else echo "$2"; fi ;;
	esac
}

# run_group LABEL INITRD NAMES -- ARGS: boot NAMES at once, then report
run_group() {
	local label=$1 initrd=$2 names=() pids=() s start
	shift 2
	while [ "$1" != -- ]; do names+=("$1"); shift; done
	shift
	start=$(date +%s)
	for s in "${names[@]}"; do
		run_one "$s" "$out/$label$s.log" "$initrd" "$@" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for s in "${names[@]}"; do
		step "scenario $label$s ($(guest_desc "$s" "$desc"))"
		report "$s" "$out/$label$s.log" $(( $(date +%s) - start ))
	done
}

# run_batch LABEL INITRD SCENARIO... -- [kernel args]: the scenarios, each in
# its own boot, $MMT_JOBS (default 2) at a time but those in $SOLO: each
# guest is one single-threaded TCG process, one host core.
run_batch() {
	local label=$1 initrd=$2 names=() group=() s
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do names+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	for s in "${names[@]}"; do
		if [ "${SOLO#* "$s" }" != "$SOLO" ]; then
			[ ${#group[@]} -gt 0 ] &&
				run_group "$label" "$initrd" "${group[@]}" -- "$@"
			group=()
			run_group "$label" "$initrd" "$s" -- "$@"
			continue
		fi
		group+=("$s")
		if [ ${#group[@]} -ge "${MMT_JOBS:-2}" ]; then
			run_group "$label" "$initrd" "${group[@]}" -- "$@"
			group=()
		fi
	done
	[ ${#group[@]} -gt 0 ] && run_group "$label" "$initrd" "${group[@]}" -- "$@"
	return 0
}

# "debug" among the names: the sanitizer kernel's scenarios; "core": the core
# scenarios on the other Debian kernels ($MMT_CORE_KVERS)
scenarios='' debug='' core=''
CORE="stock control tiering params phase"
core_kvers=${MMT_CORE_KVERS-6.12.117+deb13-amd64 7.2.12+deb13-amd64}
# Kernels listed here run the installation, the move and the control
# surface only (a shorter run); by default every kernel runs all of $CORE
short_kvers=${MMT_CORE_SHORT_KVERS-}
SHORT="stock tiering params"
# 6.12 also runs the race: its hook is another path (after_sampling and
# after_aggregation callbacks, not damon_call()) that an unload must stop
core_of() {
	case " $short_kvers " in *" $1 "*) echo "$SHORT"; return ;; esac
	case $1 in 6.12.*) echo "$CORE race" ;; *) echo "$CORE" ;; esac
}
# shellcheck disable=SC2046 # the names are single words
[ $# -eq 0 ] && [ "$only" -eq 0 ] && set -- $(scenarios_where RUN all) debug core
for s in "$@"; do
	case $s in
	debug) [ -z "${MMT_NO_DEBUG:-}" ] && debug=y ;;
	core) [ -z "${MMT_NO_CORE:-}" ] && [ -n "$core_kvers" ] && core=y ;;
	esac
done
# With both, these stock-kernel scenarios join the other kernels' core
# scenarios in the two lanes that run beside the stress suite and the race.
LANE2=$(scenarios_where LANE late) lane2=
for s in "$@"; do
	case $s in
	debug|core) ;;
	*)	if [ -n "$debug" ] && [ -n "$core" ] && [ "${LANE2#* "$s" }" != "$LANE2" ]; then
			lane2="$lane2 $s"
		else
			scenarios="$scenarios $s"
		fi ;;
	esac
done
desc_of() { echo "QEMU TCG, Debian $1, node0 2 CPUs + 1 GiB, node1 CPU-less 1 GiB"; }
desc=$(desc_of "$MMT_KVER")
# The Debian guest's image: made in the background (downloads and dpkg,
# about one core) while the first scenarios run; waited for before its own.
guest_pid=
# wants_guest LIST: whether LIST names one of the Debian guest's scenarios
wants_guest() {
	local s
	for s in $GUEST; do
		case " $1 " in *" $s "*) return 0 ;; esac
	done
	return 1
}
if wants_guest "$scenarios $lane2"; then
	MMT_DEB=$(ls "$MMT_TOP/build/deb-$MMT_KVER"/mm-tiering-dkms_*_all.deb) \
		"$MMT_TOP/scripts/debian-guest.sh" >"$out/guest-setup.log" 2>&1 &
	guest_pid=$!
fi
wait_guest() {
	[ -n "$guest_pid" ] || return 0
	step "the Debian guest (systemd, linux-image-$MMT_KVER, mm-tiering-dkms and -tools installed by apt)"
	wait "$guest_pid" || { cat "$out/guest-setup.log"; die_setup "the Debian guest"; }
	guest_pid=
	echo "  ready: $(tail -1 "$out/guest-setup.log")"
}
# Each other kernel: its own cached root, the package built and installed
# there by DKMS, its own initramfs (another root: no shared state).
prep_core() {
	local k
	for k in $core_kvers; do
		(export MMT_KVER=$k MMT_ROOT=$MMT_CACHE/trixie-$k/root
		 "$MMT_TOP/scripts/provision.sh" all &&
		 "$MMT_TOP/scripts/build-dkms.sh" &&
		 "$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd-$k.gz") ||
			{ echo "check: setting up $k failed"; return 1; }
	done
}
# The sanitizer kernel's build and the other kernels' set-up (a cold cache:
# about 25 and 8 minutes of a core) start now, in the background at idle
# priority (SCHED_IDLE): while the scenarios below run they take a host core
# only when neither guest wants it, and they have the cores whole after.
idle() { chrt --idle -p 0 "$BASHPID" >/dev/null; }
dbg_pid='' core_pid=''
if [ -n "$debug" ]; then
	# its build tools go into the root now, while nothing else uses its apt
	"$MMT_TOP/scripts/provision.sh" kbuild >/dev/null || die_setup "the kernel build tools"
	dbg_start=$(date +%s)
	(idle; exec "$MMT_TOP/scripts/debug-kernel.sh") \
		>"$out/debug-kernel.out" 2>"$out/debug-kernel.log" &
	dbg_pid=$!
fi
if [ -n "$core" ]; then
	(idle; prep_core) >"$out/core-setup.log" 2>&1 &
	core_pid=$!
fi
wants_guest "$scenarios" && wait_guest
[ -n "$scenarios" ] &&
	run_batch "" "$out/initrd.gz" $scenarios -- "mmt.scale=${MMT_SCALE:-1}"

# The other kernels' core scenarios (and $lane2) as a queue of jobs, one
# "KVER SCENARIO" line each ("-" for the stock kernel), longest first, that
# the two lanes drain when their sanitizer-kernel boot is done.
core_jobs() {
	local k s
	# the Debian guest's boots (the longest) first
	for s in $lane2; do
		case $GUEST in *" $s "*) echo "- $s" ;; esac
	done
	for s in phase race tiering control params stock; do
		for k in $core_kvers; do
			case " $(core_of "$k") " in *" $s "*) echo "$k $s" ;; esac
		done
	done
	for s in $lane2; do
		case $GUEST in *" $s "*) ;; *) echo "- $s" ;; esac
	done
}
next_job() {
	flock "$out/jobs.lock" sh -c 'head -1 "$1"; sed -i 1d "$1"' sh "$out/jobs"
}
# lane: drain the job queue, one boot at a time
lane() {
	local k s
	while read -r k s < <(next_job) && [ -n "$s" ]; do
		if [ "$k" = - ]; then
			run_one "$s" "$out/$s.log" "$out/initrd.gz" \
				"mmt.scale=${MMT_SCALE:-1}"
		else
			MMT_KVER=$k run_one "$s" "$out/$k-$s.log" \
				"$out/initrd-$k.gz" "mmt.scale=${MMT_SCALE:-1}"
		fi
	done
}
report_core() {
	local k s
	for k in $core_kvers; do
		desc=$(desc_of "$k")
		for s in $(core_of "$k"); do
			step "scenario $k-$s ($desc)"
			report "$s" "$out/$k-$s.log" "$1"
		done
	done
}
# The sanitizer kernel: the stress suite must stay silent on it.
if [ -n "$debug" ]; then
	step "sanitizer kernel: linux-source-$MMT_SRCVER with scripts/debug.config"
	start=$(date +%s)
	wait "$dbg_pid" || { cat "$out/debug-kernel.log"; die_setup "the debug kernel build"; }
	dbg=$(cat "$out/debug-kernel.out")
	rel=${dbg%% *} dir=${dbg#* }
	echo "  $rel in $dir (started at set-up: $(( $(date +%s) - dbg_start )) s," \
		"$(( $(date +%s) - start )) s of them after the scenarios above)"
	sed -n 's/^debug-kernel: .* built in /  built in /p' "$out/debug-kernel.log"
	(export MMT_KVER=$rel MMT_ROOT MMT_BIND=$dir
	 "$MMT_TOP/scripts/build-dkms.sh" &&
	 "$MMT_TOP/scripts/mkinitramfs.sh" "$out/initrd-debug.gz") ||
		die_setup "the DKMS build against the debug kernel"
fi
if [ -n "$core" ]; then
	step "other kernels: $core_kvers (root, mm-tiering packages, initramfs)${lane2:+; lanes also run:$lane2}"
	wait $core_pid || { cat "$out/core-setup.log"; die_setup "setting up $core_kvers"; }
	echo "  ready"
fi
wait_guest
# no5lvl: 4-level paging.  With LA57 (-cpu max has it) an interrupt taken
# while identify_cpu() has cleared the boot CPU's feature bits sees
# pgtable_l5_enabled() false, and KASAN calls the 5-level address of an
# irq_desc wild: the boot panics at 0.003 s (2 of 3 boots in one run).
dbg_args=(panic_on_warn=1 no5lvl "mmt.scale=${MMT_SCALE:-1}" mmt.min_rounds=4 mmt.race_secs=420 mmt.race_max_secs=540)
dbg_desc="QEMU TCG, ${rel:-}: KASAN, UBSAN, KFENCE, lockdep, kmemleak, fault injection; panic_on_warn=1 no5lvl"
if [ -n "$debug" ] && [ -n "$core" ]; then
	# two lanes, one host core each: the stress suite (the longest boot)
	# in one, the race in the other; then both drain the queue of the
	# other kernels' core scenarios
	start=$(date +%s)
	core_jobs >"$out/jobs"
	(MMT_KVER=$rel MMT_KERNEL=$dir/build/arch/x86/boot/bzImage \
		run_one stress "$out/debug-stress.log" "$out/initrd-debug.gz" \
		"${dbg_args[@]}"
	 lane) &
	lane1=$!
	MMT_KVER=$rel MMT_KERNEL=$dir/build/arch/x86/boot/bzImage \
		run_one race "$out/debug-race.log" "$out/initrd-debug.gz" "${dbg_args[@]}"
	lane
	wait $lane1
	desc=$dbg_desc
	for s in stress race; do
		step "scenario debug-$s ($desc)"
		report "$s" "$out/debug-$s.log" $(( $(date +%s) - start ))
	done
	report_core $(( $(date +%s) - start ))
	desc=$(desc_of "$MMT_KVER")
	for s in $lane2; do
		step "scenario $s ($(guest_desc "$s" "$desc"))"
		report "$s" "$out/$s.log" $(( $(date +%s) - start ))
	done
elif [ -n "$debug" ]; then
	desc=$dbg_desc
	MMT_KVER=$rel MMT_KERNEL=$dir/build/arch/x86/boot/bzImage \
		run_batch debug- "$out/initrd-debug.gz" stress race -- "${dbg_args[@]}"
elif [ -n "$core" ]; then
	for k in $core_kvers; do
		desc=$(desc_of "$k")
		MMT_KVER=$k run_batch "$k-" "$out/initrd-$k.gz" $(core_of "$k") -- \
			"mmt.scale=${MMT_SCALE:-1}"
	done
fi

if [ -z "${MMT_NO_BENCH:-}" ]; then
	step "bench harness smoke test (scripts/bench.sh --quick: none and mm_tiering, skew, 30 s)"
	bo=$out/bench-quick
	BENCH_OUT=$bo "$MMT_TOP/scripts/bench.sh" --quick >"$out/bench.out" 2>&1
	rc=$?
	rows=$(tail -n +2 "$bo/runs.csv" 2>/dev/null | wc -l)
	if [ $rc -eq 0 ] && [ "$rows" -eq 2 ] && [ -s "$bo/share.png" ] &&
	   grep -q '^| none (first touch) |' "$bo/report.md" &&
	   grep -q '^| mm_tiering defaults |' "$bo/report.md"; then
		echo "  PASS bench_harness_outputs runs.csv ($rows runs), samples.csv, report.md, share.png"
		passed=$((passed + 1))
	else
		echo "  FAIL bench_harness_outputs rc=$rc runs=$rows (see build/check/bench.out)"
		failed=$((failed + 1))
	fi
	# a real outcome: mm_tiering serves far more accesses from node0
	share() { awk -F, -v p="$1" '$1 == p { printf "%d", $4 }' "$bo/runs.csv" 2>/dev/null; }
	# the intact column found by its name (report.py adds columns)
	intact=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "intact") c = i; next }
		!c || $c != "True" { bad++ } END { print bad + 0 }' "$bo/runs.csv" 2>/dev/null)
	s_none=$(share none); s_mmt=$(share mmt)
	if [ -n "$s_none" ] && [ -n "$s_mmt" ] && [ "$s_mmt" -ge $((s_none + 2000)) ] &&
	   [ "$intact" = 0 ]; then
		echo "  PASS bench_mmt_beats_none mean node0 share: mm_tiering ${s_mmt} bp, none ${s_none} bp; data intact"
		passed=$((passed + 1))
	else
		echo "  FAIL bench_mmt_beats_none mean node0 share: mm_tiering ${s_mmt:-?} bp, none ${s_none:-?} bp; runs with bad data: ${intact:-?}"
		failed=$((failed + 1))
	fi
fi

if [ -n "$piuparts_pid" ]; then
	step "the packages through piuparts: install, remove, purge (scripts/piuparts-check.sh)"
	wait "$piuparts_pid"
	grep -E '^  (PASS|FAIL) ' "$out/piuparts-check.out" ||
		{ tail -5 "$out/piuparts-check.out"; echo "  FAIL package_piuparts_clean no result (build/check/piuparts-check.out)"; }
	passed=$((passed + $(grep -c '^  PASS ' "$out/piuparts-check.out")))
	failed=$((failed + $(grep -c '^  FAIL ' "$out/piuparts-check.out")))
	grep -q '^  PASS ' "$out/piuparts-check.out" ||
		grep -q '^  FAIL ' "$out/piuparts-check.out" || failed=$((failed + 1))
fi

if [ -z "${MMT_NO_KUNIT:-}" ]; then
	step "KUnit: the module's pure logic in a UML kernel from linux-source-$MMT_SRCVER"
	wait "$kunit_pid"
	sed 's/^/  /' "$out/kunit.out"
	kp=$(sed -n 's/^kunit: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out/kunit.out")
	kf=$(sed -n 's/^kunit: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out/kunit.out")
	[ -z "$kp" ] && kp=0 && kf=1
	passed=$((passed + kp))
	failed=$((failed + kf))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
