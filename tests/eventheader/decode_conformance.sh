#!/bin/sh
# Decodes Microsoft's EventHeaderInterceptorLE64.dat and compares every
# event, by parsed value, with perf-decode's JSON for it.
dat=${top_srcdir:-.}/tests/data/EventHeaderInterceptorLE64.dat
if [ ! -r "$dat" ] || [ ! -r "$dat.linux.json" ]; then
	echo "FAIL: $dat or its .linux.json is missing from the tree"
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not installed"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"${top_builddir:-.}/tests/eventheader/decode_dump" "$dat" "$tmp/ours.jsonl" || exit 1
python3 "${top_srcdir:-.}/tests/eventheader/decode_conformance.py" \
	"$tmp/ours.jsonl" "$dat.linux.json"
