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
#                        newest, mm-tiering-status's and mm-tiering-bench's
#   docs_man_pages       the packages (DEB and the tools' beside it) install
#                        the three manual pages where man finds them,
#                        mm_tiering(4) names every parameter, each formats
#                        without a warning
#   docs_bench_generated Documentation/bench.rst's results are make bench's:
#                        the block between its bench-summary markers is
#                        bench/report.py's table (its header, conditions,
#                        rows of mm_tiering beside another policy), its
#                        plot is there, and no hand-kept results page is
#   docs_module_signed   admin-guide.rst's Secure Boot entry holds: the
#                        module DKMS built carries a PKCS#7 signature that
#                        verifies against DKMS's key (MOK) and no other
#   docs-check.sh KO [DEB [MOK]]   (KO: the mm_tiering.ko DKMS built; DEB:
#                        the built mm-tiering-dkms package; MOK: the root's
#                        /var/lib/dkms/mok.pub)
# Prints "  PASS name ..." / "  FAIL name ..." lines, as kernel-reach.sh does.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ko=${1:-}
deb=${2:-}
mok=${3:-}
guide=$top/Documentation/admin-guide.rst

result() { # NAME OK DETAIL
	if [ "$2" = y ]; then echo "  PASS $1 $3"; else echo "  FAIL $1 $3"; fi
}
# documented NAME: in the guide as ``NAME`` or as NAME= in a literal
documented() {
	grep -qE "\`\`$1\`\`|[\` ]$1=" "$guide"
}
# all_documented CHECK WHAT NAMES...: a result for CHECK, naming those of
# NAMES (WHAT they are) the guide lacks; none at all fails too
all_documented() {
	local check=$1 what=$2 missing='' n ok=y
	shift 2
	for n in "$@"; do
		documented "$n" || missing="$missing $n"
	done
	[ -z "$missing" ] && [ $# -gt 0 ] || ok=
	result "$check" "$ok" "$# $what${missing:+; not in admin-guide.rst:$missing}"
}

# parameters: the module's own list (its MODULE_PARM_DESC entries)
params=
[ -n "$ko" ] && [ -f "$ko" ] &&
	params=$(objcopy -O binary --only-section=.modinfo "$ko" /dev/stdout |
		 tr '\0' '\n' | sed -n 's/^parm=\([^:]*\):.*/\1/p' | sort -u)
# shellcheck disable=SC2086 # one word each
all_documented docs_params "parameters of ${ko:-(no module given)}" $params

# status fields: the keys of the format strings that print status
fields=$(grep -h 'seq_buf_printf' -A1 "$top"/mm-tiering/mmt_status.c \
	 "$top"/mm-tiering/mmt_loop.c | grep -o '"[^"]*"' |
	 grep -oE '(^"| )[a-z_0-9]+=' | tr -d '" =' | sort -u)
# shellcheck disable=SC2086 # one word each
all_documented docs_status_fields "status fields" $fields

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

# commit hashes: words of 7 to 40 hex digits with a letter and a digit
ids=$(cd "$top" && git grep -noIwE '[0-9a-f]{7,40}' -- \
	README.md 'Documentation/*.rst' mm-tiering conftest kunit scripts \
	tests service debian/control debian/rules |
	awk -F: '$3 ~ /[a-f]/ && $3 ~ /[0-9]/ { print $1 ":" $3 }' |
	sort -u | head -5 | tr '\n' ' ')
ok=y; [ -z "$ids" ] || ok=
result docs_no_commit_ids "$ok" "${ids:+found: $ids}"

# one release: the changelog's, in dkms.conf, NEWS and the status tool
rel=$(sed -n '1s/^mm-tiering (\([^)]*\)).*/\1/p' "$top/debian/changelog")
dk=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
news=$(grep -m1 -xE '[0-9]+\.[0-9]+\.[0-9]+' "$top/NEWS")
tool=$(sed -n 's/^VERSION = "\(.*\)"/\1/p' "$top/service/mm-tiering-status")
btool=$(sed -n 's/^VERSION = "\(.*\)"/\1/p' "$top/service/mm-tiering-bench")
ok=y
[ -n "$rel" ] && [ "$dk" = "$rel" ] && [ "$news" = "$rel" ] && [ "$tool" = "$rel" ] &&
	[ "$btool" = "$rel" ] || ok=
result docs_version_agrees "$ok" "debian/changelog ${rel:-?}, dkms.conf ${dk:-?}, NEWS ${news:-?}, mm-tiering-status ${tool:-?}, mm-tiering-bench ${btool:-?}"

# the manual pages, as the packages ship them (made from
# Documentation/man/*.rst when the package builds): mm_tiering(4) in
# mm-tiering-dkms (DEB), mm-tiering-status(8) and mm-tiering-bench(8) in
# mm-tiering-tools beside it;
# every parameter in mm_tiering(4), both formatted without a warning (as
# lintian does)
missing='' warn='' inpkg=''
mandir=$(mktemp -d)
trap 'rm -rf "$mandir"' EXIT
if [ -n "$deb" ] && [ -f "$deb" ]; then
	for d in "$deb" "${deb%/*}/mm-tiering-tools_${deb##*/mm-tiering-dkms_}"; do
		dpkg-deb -x "$d" "$mandir" 2>/dev/null
	done
	inpkg=$(cd "$mandir" && ls usr/share/man/man[48]/*.gz 2>/dev/null | tr '\n' ' ')
fi
man4=$mandir/usr/share/man/man4/mm_tiering.4.gz
man8=$mandir/usr/share/man/man8/mm-tiering-status.8.gz
man8b=$mandir/usr/share/man/man8/mm-tiering-bench.8.gz
# a parameter is described where it heads an item: the line after .TP
items=$(zcat "$man4" 2>/dev/null |
	awk 'prev == ".TP" { print } { prev = $0 }' | sed 's/\\f[BIPR]//g')
for p in $params; do
	echo "$items" | grep -qw -- "$p" || missing="$missing $p"
done
for m in "$man4" "$man8" "$man8b"; do
	[ -f "$m" ] || continue
	w=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		man --warnings -E UTF-8 -l -Tutf8 -Z "$m" 2>&1 >/dev/null)
	[ -z "$w" ] || warn="$warn $(basename "$m"): $w"
done
ok=y
[ -n "$params" ] && [ -z "$missing" ] && [ -z "$warn" ] || ok=
case $inpkg in *man4/mm_tiering.4.gz*man8/mm-tiering-bench.8.gz*man8/mm-tiering-status.8.gz*) ;; *) ok= ;; esac
result docs_man_pages "$ok" "$(echo $params | wc -w) parameters; package: ${inpkg:-no pages (or no package given)}${missing:+; not in mm_tiering.4:$missing}${warn:+; warnings:$warn}"

# the bench page's results: what make bench BENCH_DOC=1 wrote, nothing else
bench=$top/Documentation/bench.rst
blk=$(sed -n '/^\.\. bench-summary: begin/,/^\.\. bench-summary: end/p' "$bench")
rows=$(echo "$blk" | grep -c '^   \* - ' || true)
ok=y
echo "$blk" | grep -q '^\.\. Made by make bench (bench/report.py)' || ok=
echo "$blk" | grep -q '^Conditions: ' || ok=
echo "$blk" | grep -q '^     - mm_tiering defaults$' || ok=
[ "$(echo "$blk" | grep -c '^     - ' || true)" -gt 7 ] || ok=
[ -s "$top/Documentation/bench-share.png" ] || ok=
grep -q 'bench-share.png' "$bench" || ok=
hand=$(cd "$top" && git ls-files 'Documentation/*results*' | tr '\n' ' ')
[ -z "$hand" ] || ok=
result docs_bench_generated "$ok" "$((rows - 1)) rows between the markers${hand:+; hand-kept: $hand}"

# Secure Boot: DKMS signs what it builds with its own key; the signature
# (the kernel's module_signature trailer, a PKCS#7 blob) must verify over
# the module's bytes against that key's certificate, and fail once a byte
# of the module changes (the check's own negative control)
sig_verify() { # BODY: verify the split signature over BODY
	openssl cms -verify -binary -inform DER -in "$tmp/sig" -content "$1" \
		-certfile "$mok" -nointern -noverify -out /dev/null 2>/dev/null
}
ok='' why="no module or key given"
if [ -f "$ko" ] && [ -f "$mok" ]; then
	tmp=$(mktemp -d)
	why=$(python3 - "$ko" "$tmp" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic = b"~Module signature appended~\n"
if not data.endswith(magic):
    print("not signed")
    sys.exit(0)
info = data[-len(magic) - 12:-len(magic)]
end = len(data) - len(magic) - 12
size = struct.unpack(">I", info[8:12])[0]
open(sys.argv[2] + "/sig", "wb").write(data[end - size:end])
open(sys.argv[2] + "/body", "wb").write(data[:end - size])
print("PKCS#7" if info[2] == 2 else "id type %d" % info[2])
PY
)
	if [ "$why" = "PKCS#7" ] && sig_verify "$tmp/body"; then
		printf x >>"$tmp/body"
		if sig_verify "$tmp/body"; then
			why="the signature verifies over a changed module too"
		else
			ok=y why="PKCS#7 signature by $(openssl x509 -inform DER -in "$mok" -noout -subject 2>/dev/null | sed 's/^subject= *//'), verified; a changed byte fails"
		fi
	elif [ "$why" = "PKCS#7" ]; then
		why="PKCS#7 signature does not verify against $mok"
	fi
	rm -rf "$tmp"
fi
result docs_module_signed "$ok" "$why"
