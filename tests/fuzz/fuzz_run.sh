#!/bin/sh
# fuzz_run.sh NAME MAX_LEN: replays tests/fuzz/regress/NAME, then fuzzes
# tests/fuzz/NAME for FUZZ_SECONDS (default 20) from corpus/NAME.  New
# inputs go to a temporary directory: the source tree may be read-only.
# The mutations follow FUZZ_SEED (default 1), so that a run that finds a
# crash finds it again: make check is no lottery.  FUZZ_SEED=0 lets
# libFuzzer pick a seed, to look further (docs/testing.md).
name=$1 max_len=$2
bin=${top_builddir:-.}/tests/fuzz/fuzz_$name
src=${top_srcdir:-.}/tests/fuzz
if [ ! -x "$bin" ]; then
	echo "SKIP: fuzz_$name not built (configure found no clang with libFuzzer)"
	exit 77
fi
# NAME.supp: the leaks LeakSanitizer is to ignore (in system libraries).
if [ -f "$src/$name.supp" ]; then
	LSAN_OPTIONS="suppressions=$src/$name.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
	export LSAN_OPTIONS
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
set -e
for f in "$src/regress/$name"/*; do
	[ -f "$f" ] || continue
	"$bin" -error_exitcode=1 -artifact_prefix="$tmp/" "$f"
done
# FUZZ_SECONDS=0 runs the seeds once and mutates nothing: for a second
# build of the same fuzzers (scripts/test's sanitizer and distcheck legs),
# which would only repeat the first one's search.
seconds=${FUZZ_SECONDS:-20}
if [ "$seconds" = 0 ]; then
	limit=-runs=0
else
	limit=-max_total_time=$seconds
fi
# libFuzzer's own exit code for a crash is 77, which make check would
# count as a skip.
"$bin" -error_exitcode=1 -seed="${FUZZ_SEED:-1}" "$limit" -rss_limit_mb=2048 -max_len="$max_len" \
	-artifact_prefix="$tmp/" "$tmp" "$src/corpus/$name"
