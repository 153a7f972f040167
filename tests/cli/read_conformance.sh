#!/bin/sh
# SPDX-License-Identifier: MIT
# ehsyslog decode --json on the conformance perf.data prints the events
# perf-decode printed for it (read_compare.py lists the allowed differences).
set -u
data=${top_srcdir:-.}/tests/data/perf.data
if [ ! -r "$data" ] || [ ! -r "$data.linux.json" ]; then
	echo "FAIL: $data or its .linux.json is missing from the tree"
	exit 1
fi
out=${TMPDIR:-/tmp}/read_conformance.$$
trap 'rm -f "$out"' EXIT
"${top_builddir:-.}/ehsyslog" decode --json "$data" > "$out"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: ehsyslog decode exited $rc"
	exit 1
fi
python3 "${top_srcdir:-.}/tests/cli/read_compare.py" "$out" "$data.linux.json"
