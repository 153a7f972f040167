# shellcheck shell=sh disable=SC2154 # small, large and work: the caller's
# tests/bench/callgrind-count.sh: sourced by tests/bench/ideal.sh and
# tests/bench/guest-instructions.sh.  One call's exact instructions as
# scripts/bench counts its instructions.* facts: callgrind over $small
# then $large calls, the difference divided by the extra calls, so that
# start-up and warm-up cancel out.  The callgrind files go to $work, a
# scratch directory of the caller's.

# cg_count PROGRAM [ARG]...: user-space instructions per call of PROGRAM
# -n CALLS ARG...; exits, with valgrind's log on stderr, if it fails.
cg_count() {
	cg_bin=$1
	shift
	for n in $small $large; do
		valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" \
			"$cg_bin" -n "$n" "$@" > /dev/null 2> "$work/log" ||
			{ echo "$cg_bin $*: failed under callgrind" >&2; cat "$work/log" >&2; exit 1; }
	done
	cg_ir() { sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$1" | head -n 1; }
	cg_per_call "$(cg_ir "$work/cg.$large")" "$(cg_ir "$work/cg.$small")"
}

# cg_own ERE: the instructions per call, in the last cg_count's runs, of
# the functions whose callgrind_annotate line (file:function [object])
# matches ERE, their own (self) cost only.
cg_own() {
	cg_sum() {
		callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | awk -v re="$2" '
			$1 ~ /^[0-9,]+$/ && $0 ~ re { gsub(",", "", $1); s += $1 }
			END { print s + 0 }'
	}
	cg_per_call "$(cg_sum "$work/cg.$large" "$1")" "$(cg_sum "$work/cg.$small" "$1")"
}

# cg_per_call LARGE SMALL: one call's share of the difference, rounded.
cg_per_call() {
	echo $(( ($1 - $2 + (large - small) / 2) / (large - small) ))
}
