#!/bin/sh
# tests/bench/ideal.sh [SMALL LARGE]: the native API's untraced exact
# instruction counts beside the ideal producer's (tests/bench/ideal.c),
# as lines of scripts/bench's facts.csv on stdout.  scripts/bench appends
# them to its facts; run alone (after make bench or make check built
# bench-native) it measures these figures only:
#
#   top_builddir=. sh tests/bench/ideal.sh
#
# Each call is counted as scripts/bench counts its instructions.* facts
# (tests/bench/callgrind-count.sh; 1000 and 11000 calls by default).
# Untraced, two fields and eight, EHS_EMIT beside the ideal producer;
# their difference carries the target (at most 2 more).  The traced
# counts need the real writer and a real tracepoint: they are
# tests/bench/guest-instructions.sh's.  Here, traced, bench-native only
# checks that EHS_EMIT, over the writer's double, writes the ideal
# producer's bytes.
set -eu
small=${1:-1000} large=${2:-11000}
bin=${top_builddir:-.}/tests/bench/bench-native
[ -x "$bin" ] || { echo "ideal.sh: $bin missing: run make bench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "ideal.sh: no valgrind: native counts not measured" >&2; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ehs-ideal.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/bench/callgrind-count.sh
. "$(dirname "$0")/callgrind-count.sh"

floor=$(cg_count "$bin" empty)
echo "instructions.native.floor,$floor,instructions per call,,,bench-native: the loop and an indirect call of an empty function"
for n in 2 8; do
	"$bin" -n 1 "emit$n" > /dev/null ||
		{ echo "ideal.sh: traced EHS_EMIT with $n fields and the ideal producer differ" >&2; exit 1; }
	ideal=$(cg_count "$bin" -u "ideal$n")
	emit=$(cg_count "$bin" -u "emit$n")
	echo "instructions.native.ideal$n.untraced,$((ideal - floor)),instructions,,,ideal producer of the $n-field event untraced beyond the floor: whole call $ideal less $floor"
	echo "instructions.native.emit$n.untraced,$((emit - floor)),instructions,,,EHS_EMIT of the same event untraced beyond the floor: whole call $emit less $floor"
	v=MISSED; [ $((emit - ideal)) -le 2 ] && v=met
	echo "instructions.native.emit$n.untraced_over_ideal,$((emit - ideal)),instructions,<= 2,$v,untraced EHS_EMIT with $n fields less the ideal producer of the same bytes ($emit against $ideal per call)"
done
