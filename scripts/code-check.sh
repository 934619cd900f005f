#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The code's shape, before anything is built:
#   code_layers          every file of mm-tiering/ includes and calls only
#                        the files below it (no circle), and no function is
#                        longer than 60 lines (scripts/layers.py)
#   code_layers_control  the same check finds a call upward put into a copy
#                        of the sources (its negative control)
#   code_checkpatch      linux-source's checkpatch.pl, nothing ignored, on
#                        every C file
#   code_shellcheck      shellcheck (severity warning, .shellcheckrc) on
#                        every shell file
#   code_spdx            every source, script and build file names its
#                        licence (SPDX-License-Identifier)
#   code-check.sh CHECKPATCH   (CHECKPATCH: linux-source's checkpatch.pl)
# Prints "  PASS name ..." / "  FAIL name ..." lines, as docs-check.sh does.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
checkpatch=${1:-}
cd "$top" || exit 1

result() { # NAME OK DETAIL
	if [ "$2" = y ]; then echo "  PASS $1 $3"; else echo "  FAIL $1 $3"; fi
}
# the files of the tree (a clean clone has git; a tarball lists itself)
tree_files() {
	git ls-files -co --exclude-standard 2>/dev/null || find . -type f ! -path './build/*' | sed 's|^\./||'
}
shell_files() {
	tree_files | while read -r f; do
		case $f in
		*.sh|.ci/run) echo "$f" ;;
		*.*|debian/*) ;;
		*) head -n1 "$f" 2>/dev/null | grep -qE '^#!/bin/(ba)?sh' && echo "$f" ;;
		esac
	done
}

out=$(python3 scripts/layers.py 2>&1)
result code_layers "$([ -z "$out" ] && echo y)" \
	"${out:-$(ls mm-tiering/*.[ch] | wc -l) files}${out:+: $(echo "$out" | head -5 | tr '\n' ';')}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a mm-tiering "$tmp/" && cp -a kunit "$tmp/"
echo 'bool mmt_logic_control(void) { return mmt_running(); }' >> "$tmp/mm-tiering/mmt_logic.c"
out=$(python3 scripts/layers.py "$tmp/mm-tiering" "$tmp/kunit" 2>&1)
result code_layers_control \
	"$(echo "$out" | grep -q 'mmt_logic.c: uses mmt_nodes (mmt_running)' && echo y)" \
	"pure policy calling the node table: ${out:-not reported}"

if [ -n "$checkpatch" ] && [ -f "$checkpatch" ]; then
	mapfile -t cfiles < <(tree_files | grep -E '\.[ch]$')
	out=$(perl "$checkpatch" --no-tree --quiet --terse --show-types \
		-f "${cfiles[@]}" 2>&1 | grep -E ': (ERROR|WARNING|CHECK):')
	result code_checkpatch "$([ -z "$out" ] && echo y)" \
		"${#cfiles[@]} files${out:+; $(echo "$out" | head -3 | tr '\n' ';')}"
else
	result code_checkpatch "" "no checkpatch.pl at '$checkpatch'"
fi

mapfile -t sfiles < <(shell_files)
if command -v shellcheck >/dev/null; then
	out=$(shellcheck -S warning -f gcc "${sfiles[@]}" 2>&1)
	result code_shellcheck "$([ -z "$out" ] && echo y)" \
		"${#sfiles[@]} files${out:+; $(echo "$out" | head -3 | tr '\n' ';')}"
else
	result code_shellcheck "" "shellcheck is not installed"
fi

missing=$( { tree_files | grep -E '\.[ch]$|(^|/)(Kbuild|Makefile|Kconfig)$|\.py$'
	printf '%s\n' "${sfiles[@]}"; } | sort -u |
	while read -r f; do head -n3 "$f" | grep -q SPDX-License-Identifier || echo "$f"; done)
result code_spdx "$([ -z "$missing" ] && echo y)" \
	"${missing:+without SPDX: $(echo "$missing" | head -5 | tr '\n' ' ')}"
