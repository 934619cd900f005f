#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian guest: a trixie root that boots with systemd and Debian's own
# linux-image-$MMT_KVER (its initramfs made by initramfs-tools), with the
# mm-tiering-dkms and -tools packages installed by apt (its DKMS postinst builds the
# module, its unit is shipped disabled), the test workload and the guest
# scenarios; written as an ext4 disk image that vm.sh boots (MMT_DISK).
# The root is cached by kernel version; the package is reinstalled when it
# changed; the image is written anew each time (QEMU runs it with
# snapshot=on: a boot never changes it).
#   [MMT_DEB=pkg.deb] scripts/debian-guest.sh
# prints the directory holding disk.img, vmlinuz and initrd.img.
set -euo pipefail

. "$(dirname "$0")/env.sh"
dir=$MMT_CACHE/guest-$MMT_KVER
main_root=$MMT_ROOT
export MMT_ROOT=$dir/root
"$MMT_TOP/scripts/provision.sh" guest >&2
in_root() { "$MMT_TOP/scripts/provision.sh" in-root "$@"; }

# the package (MMT_DEB: one built already, as make check's; else built now
# in the build root), installed with apt by build-dkms.sh
deb=${MMT_DEB:-$(MMT_ROOT=$main_root "$MMT_TOP/scripts/build-deb.sh")}
MMT_DEB=$deb MMT_STAGE=$dir/stage "$MMT_TOP/scripts/build-dkms.sh" >&2

# the next version, which the service scenario upgrades to with the
# service running: this tree packaged as $ver.1 (Debian sorts it after
# $ver), and DKMS's tarball of its source and of its module built here for
# this kernel.  The guest puts the tarball where the package's postinst
# loads one from (/usr/share/mm-tiering-dkms/, dh_dkms's tarball root)
# instead of compiling: 30 s here, over 10 minutes under TCG.  Made again
# when the tree changes.
ver=$("$MMT_TOP/scripts/version.sh")
up=$ver.1 upd=$MMT_ROOT/var/tmp/mmt-upgrade
if [ "$(cat "$upd/stamp" 2>/dev/null)" != "$up" ]; then
	rm -rf "$upd" && mkdir -p "$upd"
	MMT_ROOT=$main_root MMT_VERSION=$up MMT_DEB_OUT=$dir/upgrade-deb \
		"$MMT_TOP/scripts/build-deb.sh" >/dev/null
	cp "$dir/upgrade-deb/mm-tiering-dkms_${up}_all.deb" \
		"$dir/upgrade-deb/mm-tiering-tools_${up}_all.deb" "$upd/"
	dpkg-deb -x "$upd/mm-tiering-dkms_${up}_all.deb" "$upd/x"
	in_root sh -euc 'v=$1 k=$2 d=/var/tmp/mmt-upgrade
		dkms add "$d/x/usr/src/mm-tiering-$v"
		dkms build -m mm-tiering -v "$v" -k "$k"
		dkms mktarball -m mm-tiering -v "$v" -k "$k" \
			--archive "$d/mm-tiering-$v.dkms.tar.gz"
		dkms remove -m mm-tiering -v "$v" --all
		rm -rf "/usr/src/mm-tiering-$v" "$d/x"' sh "$up" "$MMT_KVER" \
		>"$dir/upgrade-dkms.log" 2>&1 ||
		{ cat "$dir/upgrade-dkms.log" >&2; exit 1; }
	echo "$up" >"$upd/stamp"
fi

# what the scenarios need: the workload, the scripts, a unit that runs the
# one named on the kernel command line (mmt.script=) after boot
r=$MMT_ROOT
gcc -O2 -static -Wall -Wextra -Werror -o "$r/usr/local/bin/tierload" \
	"$MMT_TOP/tests/workload/tierload.c" -lm
rm -rf "$r/mmt" "$r/var/lib/mmt-test" && mkdir -p "$r/mmt"
cp -p "$MMT_TOP"/tests/guest/*.sh "$MMT_TOP"/tests/guest/*.py \
	"$MMT_TOP"/tests/guest/*.sql "$MMT_TOP"/scripts/guest/*.sh "$r/mmt/"
install -m 755 "$MMT_TOP/tests/guest/systemd/guest-run" "$r/mmt/guest-run"
# the kernel's DAMON selftests and the mm migration selftest (the selftests
# scenario), from the linux-source tarball: DAMON's two workloads built
# static here, migration (kselftest harness, libnuma) inside the root
"$MMT_TOP/scripts/provision.sh" tarball >&2
st=$dir/selftests-$MMT_SRCVER
if [ ! -e "$st/.mmt-ok2" ]; then
	rm -rf "$st" && mkdir -p "$st"
	tar -C "$st" --strip-components=4 -xf \
		"$MMT_CACHE"/linux-source-"$MMT_SRCVER".tar.* \
		--wildcards '*/tools/testing/selftests/damon/*' \
		'*/tools/testing/selftests/kselftest*.h' \
		'*/tools/testing/selftests/mm/migration.c' \
		'*/tools/testing/selftests/mm/vm_util.[ch]' \
		'*/tools/testing/selftests/mm/hugepage_settings.[ch]'
	for c in access_memory access_memory_even; do
		gcc -O2 -static -o "$st/damon/$c" "$st/damon/$c.c"
	done
	touch "$st/.mmt-ok2"
fi
rm -rf "$r/mmt/selftests" && mkdir -p "$r/mmt/selftests"
cp -a "$st/damon" "$st/mm" "$st"/kselftest*.h "$r/mmt/selftests/"
in_root sh -c 'cd /mmt/selftests/mm && gcc -Wall -O2 -I .. -o migration \
	migration.c vm_util.c hugepage_settings.c -lnuma -lpthread'
install -m 644 "$MMT_TOP/tests/guest/systemd/mmt-guest.service" \
	"$r/etc/systemd/system/mmt-guest.service"
mkdir -p "$r/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/mmt-guest.service \
	"$r/etc/systemd/system/multi-user.target.wants/mmt-guest.service"
# the serial console carries the results: no login prompt on it
ln -sf /dev/null "$r/etc/systemd/system/serial-getty@ttyS0.service"
echo 'LABEL=mmt-root / ext4 rw,errors=remount-ro 0 1' >"$r/etc/fstab"
echo mmt-guest >"$r/etc/hostname"
# the unit as the package ships it: disabled (a scenario enables it)
rm -f "$r/etc/systemd/system/multi-user.target.wants/mm-tiering.service"

# PostgreSQL (the postgres scenario): its cluster made anew with data
# checksums, pgbench's tables at scale $PG_SCALE and the extensions the
# scenario reads, once per root (the stamp holds version and scale); the
# server runs here only for that, on its Unix socket alone, and starts in
# the guest only when the scenario starts it.
PG_SCALE=10
pgv=$(ls "$r/usr/lib/postgresql" | sort -n | tail -1)
if [ "$(cat "$r/.mmt-pgdata-ok" 2>/dev/null)" != "$pgv $PG_SCALE" ]; then
	in_root sh -euc '
		v=$1 scale=$2
		pg_dropcluster --stop "$v" main 2>/dev/null || true
		pg_createcluster "$v" main -- --data-checksums >/dev/null
		cat > "/etc/postgresql/$v/main/conf.d/mmt.conf" <<-EOF
		# mm-tiering guest: no network; the buffer pool in 4 KiB pages
		listen_addresses = '"''"'
		shared_buffers = 160MB
		huge_pages = off
		synchronous_commit = off
		max_wal_size = 1GB
		EOF
		pg_ctlcluster "$v" main start
		runuser -u postgres -- psql -Xq -c "CREATE EXTENSION pg_buffercache" \
			-c "CREATE EXTENSION pg_prewarm" -c "CREATE EXTENSION amcheck"
		runuser -u postgres -- "/usr/lib/postgresql/$v/bin/pgbench" -i -q \
			-s "$scale"
		pg_ctlcluster "$v" main stop' sh "$pgv" "$PG_SCALE" >&2
	echo "$pgv $PG_SCALE" >"$r/.mmt-pgdata-ok"
fi
rm -f "$r/etc/systemd/system/multi-user.target.wants/postgresql.service"
in_root apt-get clean

# the image: the root's size and room to write
rm -f "$dir/disk.img"
size=$(( $(du -sm --exclude=./proc --exclude=./sys "$r" | cut -f1) * 5 / 4 + 512 ))
mke2fs -q -F -t ext4 -L mmt-root -d "$r" "$dir/disk.img" "${size}M" >&2
cp "$r/boot/vmlinuz-$MMT_KVER" "$dir/vmlinuz"
cp "$r/boot/initrd.img-$MMT_KVER" "$dir/initrd.img"
echo "$dir"
