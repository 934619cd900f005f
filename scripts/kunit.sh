#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit: run the KUnit tests of the module's pure logic in a UML kernel
# built from Debian's linux-source-$MMT_SRCVER (Debian's own kernels have
# KUnit off).
#
# How: the cached source tree gets one overlay directory, mm/mm_tiering/,
# whose files are symbolic links to this checkout (kunit/Kconfig,
# kunit/Makefile, kunit/*_test.c and the module's pure files,
# mm-tiering/mmt_{logic,ctl,class}.[ch]), and two lines hooking it into
# mm/Kconfig and mm/Makefile.  The tests are thus built-in code compiled
# from the very files the module uses.  kunit.py
# builds the UML kernel in $MMT_CACHE/uml-$MMT_SRCVER (kept, so a second run
# only rebuilds what changed) and runs it.  Last line: "kunit: N passed,
# N failed"; the exit status is non-zero on any failure.
set -uo pipefail

. "$(dirname "$0")/env.sh"
"$MMT_TOP/scripts/provision.sh" source || exit 1
"$MMT_TOP/scripts/provision.sh" host || exit 1

ov=$MMT_SRC/mm/mm_tiering
mkdir -p "$ov"
for f in "$MMT_TOP"/kunit/Kconfig "$MMT_TOP"/kunit/Makefile \
	 "$MMT_TOP"/kunit/*_test.c "$MMT_TOP"/mm-tiering/mmt_logic.[ch] \
	 "$MMT_TOP"/mm-tiering/mmt_ctl.[ch] \
	 "$MMT_TOP"/mm-tiering/mmt_class.[ch]; do
	ln -sfn "$f" "$ov/$(basename "$f")"
done
grep -q '^obj-y += mm_tiering/' "$MMT_SRC/mm/Makefile" ||
	echo 'obj-y += mm_tiering/' >>"$MMT_SRC/mm/Makefile"
grep -q 'mm/mm_tiering/Kconfig' "$MMT_SRC/mm/Kconfig" ||
	echo 'source "mm/mm_tiering/Kconfig"' >>"$MMT_SRC/mm/Kconfig"

build=$MMT_CACHE/uml-$MMT_SRCVER
log=$MMT_TOP/build/kunit.log
mkdir -p "$build" "$(dirname "$log")"
# the overlay's objects are always rebuilt: make compares the links'
# targets by time, and a checkout older than the last build (another clone,
# a file put back) would otherwise run the last build's tests
rm -rf "$build/mm/mm_tiering"
cd "$MMT_SRC" || exit 1
python3 tools/testing/kunit/kunit.py run --kunitconfig="$MMT_TOP/kunit" \
	--build_dir="$build" --jobs="$(nproc)" >"$log" 2>&1
rc=$?
grep -E '^\[..:..:..\] +(\[(PASSED|FAILED|SKIPPED)\]|=+|# |Testing complete|    )' "$log" |
	sed 's/^\[..:..:..\] //' | grep -v '^$' | tail -n 80
line=$(grep -E 'Ran [0-9]+ tests' "$log" | tail -1)
passed=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
failed=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
crashed=$(echo "$line" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
failed=$(( ${failed:-0} + ${crashed:-0} ))
if [ -z "$line" ]; then
	tail -30 "$log"
	echo "kunit: the UML build or run failed (see build/kunit.log)"
	failed=$((failed + 1))
elif [ $rc -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1
fi
# Every case the sources declare ran: a suite or case lost from the build
# (a Kconfig or Makefile line, a case array) must fail the run, not make it
# smaller.  A case's result line is "[PASSED] name" (a parameterised case's
# between "=" rules).
if [ -n "$line" ]; then
	missing=$(sed -n 's/.*KUNIT_CASE\(_PARAM\)\{0,1\}(\([a-z0-9_]*\).*/\2/p' \
		"$MMT_TOP"/kunit/*_test.c | sort -u | while read -r c; do
		grep -qE "\] +(=+ )?\[(PASSED|FAILED|SKIPPED)\] $c( =+)?\$" "$log" ||
			echo "$c"
	done)
	if [ -n "$missing" ]; then
		echo "kunit: declared but not run: $(echo $missing)"
		failed=$((failed + $(echo "$missing" | wc -l)))
	fi
fi
echo "kunit: ${passed:-0} passed, $failed failed"
[ "$failed" -eq 0 ]
