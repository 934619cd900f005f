#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel coding style: linux-source's checkpatch.pl on every C file we ship.
set -euo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" source
cd "$MMT_TOP"
files=$(git ls-files 'mm-tiering/*.[ch]' 'kunit/*.[ch]' 'tests/workload/*.c' 'conftest/*.c' 2>/dev/null ||
	ls mm-tiering/*.[ch])
perl "$MMT_SRC/scripts/checkpatch.pl" --no-tree --quiet --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files
