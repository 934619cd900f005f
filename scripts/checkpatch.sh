#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel coding style: linux-source's checkpatch.pl on every C file we ship
# (make check runs it too, with the other code checks: scripts/code-check.sh).
set -euo pipefail

. "$(dirname "$0")/env.sh"
cp=$("$MMT_TOP/scripts/provision.sh" checkpatch)
cd "$MMT_TOP"
files=$(git ls-files 'mm-tiering/*.[ch]' 'kunit/*.[ch]' 'tests/workload/*.c' 'conftest/*.c' 2>/dev/null ||
	ls mm-tiering/*.[ch])
perl "$cp" --no-tree --quiet --terse \
	-f $files
