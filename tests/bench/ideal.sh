#!/bin/sh
# tests/bench/ideal.sh [SMALL LARGE]: the native API's exact instruction
# counts beside the ideal producer's (tests/bench/ideal.c), as lines of
# scripts/bench's facts.csv on stdout.  scripts/bench appends them to its
# facts; run alone (after make bench or make check built bench-native)
# it measures these figures only:
#
#   top_builddir=. sh tests/bench/ideal.sh
#
# Each call is counted as scripts/bench counts its instructions.* facts:
# callgrind over SMALL then LARGE calls (1000 and 11000 by default), the
# difference divided by the extra calls, so that start-up cancels out.
# Untraced and traced, two fields and eight, EHS_EMIT beside the ideal
# producer of the same bytes on the same descriptor; their differences
# carry the targets (traced at most 15 more, untraced at most 2).
set -eu
small=${1:-1000} large=${2:-11000}
bin=${top_builddir:-.}/tests/bench/bench-native
[ -x "$bin" ] || { echo "ideal.sh: $bin missing: run make bench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "ideal.sh: no valgrind: native counts not measured" >&2; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ehs-ideal.XXXXXX")
trap 'rm -rf "$work"' EXIT

# count [-u] KIND: instructions per call, user space.
count() {
	for n in $small $large; do
		valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" \
			"$bin" -n "$n" "$@" > /dev/null 2> "$work/log" ||
			{ echo "ideal.sh: bench-native $*: failed" >&2; cat "$work/log" >&2; exit 1; }
	done
	ir() { sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$1" | head -n 1; }
	echo $(( ($(ir "$work/cg.$large") - $(ir "$work/cg.$small") + (large - small) / 2) / (large - small) ))
}

floor=$(count empty)
echo "instructions.native.floor,$floor,instructions per call,,,bench-native: the loop and an indirect call of an empty function"
for n in 2 8; do
	for mode in untraced traced; do
		u=; [ $mode = untraced ] && u=-u
		# shellcheck disable=SC2086 # -u or nothing
		ideal=$(count $u "ideal$n")
		# shellcheck disable=SC2086
		emit=$(count $u "emit$n")
		echo "instructions.native.ideal$n.$mode,$((ideal - floor)),instructions,,,ideal producer of the $n-field event $mode beyond the floor: whole call $ideal less $floor"
		echo "instructions.native.emit$n.$mode,$((emit - floor)),instructions,,,EHS_EMIT of the same event $mode beyond the floor: whole call $emit less $floor"
		target=15; [ $mode = untraced ] && target=2
		v=MISSED; [ $((emit - ideal)) -le $target ] && v=met
		echo "instructions.native.emit$n.${mode}_over_ideal,$((emit - ideal)),instructions,<= $target,$v,$mode EHS_EMIT with $n fields less the ideal producer of the same bytes ($emit against $ideal per call)"
	done
done
