# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by the scripts that source it
# Shared settings of the scripts: versions and cache locations.  Sourced.
MMT_KVER=${MMT_KVER:-7.3.4+deb13-amd64}
MMT_SRCVER=${MMT_SRCVER:-7.3}
MMT_CACHE=${MMT_CACHE:-/var/cache/mm-tiering}
# the debug kernel reuses the stock kernel's root: MMT_ROOT is then given
MMT_ROOT=${MMT_ROOT:-$MMT_CACHE/trixie-$MMT_KVER/root}
MMT_KDIR=$MMT_CACHE/kernel-$MMT_KVER
MMT_SRC=$MMT_CACHE/linux-source-$MMT_SRCVER
MMT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
