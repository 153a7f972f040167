#!/bin/sh
# Replays the decoder's fuzz regressions, then fuzzes for a bounded time
# from the seed corpus.  New inputs go to a temporary directory: the
# source tree may be read-only.
bin=${top_builddir:-.}/tests/fuzz/fuzz_decode
src=${top_srcdir:-.}/tests/fuzz
if [ ! -x "$bin" ]; then
	echo "SKIP: fuzz_decode not built (configure found no clang with libFuzzer)"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
set -e
for f in "$src"/regress/decode/*; do
	[ -f "$f" ] || continue
	"$bin" -artifact_prefix="$tmp/" "$f"
done
"$bin" -max_total_time="${FUZZ_SECONDS:-20}" -rss_limit_mb=2048 -max_len=4096 \
	-artifact_prefix="$tmp/" "$tmp" "$src/corpus/decode"
