#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documents against what they describe:
#   docs_params          every parameter of the built module (its .modinfo)
#                        is documented in Documentation/admin-guide.rst
#   docs_status_fields   every key=value field that status prints
#                        (mmt_status.c, mmt_loop.c) is named there too
#   docs_readme_commands the README's two commands for a fresh machine are
#                        the Makefile's demo and check targets, and .ci/run
#                        runs the one that tests
#   docs_no_commit_ids   no commit hash in README, Documentation/*.rst or
#                        the sources
#   docs_version_agrees  debian/changelog's release is dkms.conf's, NEWS's
#                        newest and mm-tiering-status's
#   docs-check.sh KO     (KO: the built mm_tiering.ko)
# Prints "  PASS name ..." / "  FAIL name ..." lines, as kernel-reach.sh does.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ko=${1:-}
guide=$top/Documentation/admin-guide.rst

result() { # NAME OK DETAIL
	if [ "$2" = y ]; then echo "  PASS $1 $3"; else echo "  FAIL $1 $3"; fi
}
# documented NAME: in the guide as ``NAME`` or as NAME= in a literal
documented() {
	grep -qE "\`\`$1\`\`|[\` ]$1=" "$guide"
}

# parameters: the module's own list (its MODULE_PARM_DESC entries)
params=
[ -n "$ko" ] && [ -f "$ko" ] &&
	params=$(objcopy -O binary --only-section=.modinfo "$ko" /dev/stdout |
		 tr '\0' '\n' | sed -n 's/^parm=\([^:]*\):.*/\1/p' | sort -u)
missing=
for p in $params; do
	documented "$p" || missing="$missing $p"
done
ok=y; [ -z "$missing" ] && [ -n "$params" ] || ok=
result docs_params "$ok" "$(echo $params | wc -w) parameters of ${ko:-(no module given)}${missing:+; not in admin-guide.rst:$missing}"

# status fields: the keys of the format strings that print status
fields=$(grep -h 'seq_buf_printf' -A1 "$top"/mm-tiering/mmt_status.c \
	 "$top"/mm-tiering/mmt_loop.c | grep -o '"[^"]*"' |
	 grep -oE '(^"| )[a-z_0-9]+=' | tr -d '" =' | sort -u)
missing=
for f in $fields; do
	documented "$f" || missing="$missing $f"
done
ok=y; [ -z "$missing" ] && [ -n "$fields" ] || ok=
result docs_status_fields "$ok" "$(echo $fields | wc -w) fields${missing:+; not in admin-guide.rst:$missing}"

# the README's two commands
block=$(sed -n '/^## Two commands on a fresh machine/,/^## /p' "$top/README.md" |
	sed -n '/^```sh/,/^```/p')
cmds=$(echo "$block" | grep -oE '^make [a-z]+' | tr '\n' ' ')
ok=y
[ "$cmds" = "make demo make check " ] || ok=
grep -qE '^demo:' "$top/Makefile" && grep -qE '^check:' "$top/Makefile" || ok=
grep -qE '^\s+bash scripts/check.sh' "$top/Makefile" || ok=
grep -qE '^\s+bash scripts/demo.sh' "$top/Makefile" || ok=
grep -qE '^make check( |$)' "$top/.ci/run" || ok=
result docs_readme_commands "$ok" "README: ${cmds:-none}; Makefile's demo and check targets, .ci/run's make check"

# commit hashes: 7 to 40 hex digits with a letter and a digit, not 0x...
ids=$(cd "$top" && git grep -nIE '(^|[^0-9a-zA-Z_x/.-])[0-9a-f]{7,40}([^0-9a-zA-Z_]|$)' -- \
	README.md 'Documentation/*.rst' mm-tiering conftest kunit scripts \
	tests service debian/control debian/rules 2>/dev/null |
	grep -E '[0-9a-f]*[a-f][0-9a-f]*' | while IFS= read -r l; do
		for w in $(echo "${l#*:*:}" | grep -oE '(^|[^0-9a-zA-Z_x/.-])[0-9a-f]{7,40}([^0-9a-zA-Z_]|$)' |
			   grep -oE '[0-9a-f]{7,40}'); do
			case $w in *[a-f]*) case $w in *[0-9]*) echo "${l%%:*}:$w" ;; esac ;; esac
		done
	done | sort -u | head -5 | tr '\n' ' ')
ok=y; [ -z "$ids" ] || ok=
result docs_no_commit_ids "$ok" "${ids:+found: $ids}"

# one release: the changelog's, in dkms.conf, NEWS and the status tool
rel=$(sed -n '1s/^mm-tiering (\([^)]*\)).*/\1/p' "$top/debian/changelog")
dk=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
news=$(grep -m1 -xE '[0-9]+\.[0-9]+\.[0-9]+' "$top/NEWS")
tool=$(sed -n 's/^VERSION = "\(.*\)"/\1/p' "$top/service/mm-tiering-status")
ok=y
[ -n "$rel" ] && [ "$dk" = "$rel" ] && [ "$news" = "$rel" ] && [ "$tool" = "$rel" ] || ok=
result docs_version_agrees "$ok" "debian/changelog ${rel:-?}, dkms.conf ${dk:-?}, NEWS ${news:-?}, mm-tiering-status ${tool:-?}"
