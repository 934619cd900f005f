# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # read by the scripts that source it
# The scenarios and their facts, read from tests/scenarios (its header says
# the columns): S_<COLUMN>[name], and the names in the table's order in
# S_NAMES.  Sourced by scripts/check.sh and scripts/soak.sh.
declare -A S_TOPO S_CPUS S_TIMEOUT S_BOOT S_LANE S_RUN S_MACHINE
S_NAMES=()
while read -r name topo cpus tmo boot lane run machine; do
	case $name in ''|'#'*) continue ;; esac
	S_NAMES+=("$name")
	S_TOPO[$name]=${topo#-} S_CPUS[$name]=${cpus#-} S_TIMEOUT[$name]=$tmo
	S_BOOT[$name]=$boot S_LANE[$name]=$lane S_RUN[$name]=$run
	S_MACHINE[$name]=${machine#-}
done <"$MMT_TOP/tests/scenarios"

# scenarios_where COLUMN VALUE: the names whose COLUMN is VALUE, in the
# table's order, space-separated
scenarios_where() {
	local -n col=S_$1
	local s
	for s in "${S_NAMES[@]}"; do
		[ "${col[$s]}" = "$2" ] && printf ' %s' "$s"
	done
	echo ' '
}

# timeout_of NAME: seconds for NAME's boot ("scale" is MMT_SCALE)
timeout_of() {
	local t=${S_TIMEOUT[$1]:-300}
	echo $(( ${t//scale/${MMT_SCALE:-1}} ))
}
