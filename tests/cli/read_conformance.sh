#!/bin/sh
# SPDX-License-Identifier: MIT
# ehsyslog decode --json on the conformance perf.data prints the events
# perf-decode printed for it (read_compare.py lists the allowed differences).
set -u
shared=${EHSYSLOG_SHARED:-${top_srcdir:-.}/../shared}
data=$shared/conformance/perf.data
if [ ! -r "$data" ]; then
	echo "SKIP: $data not found (set EHSYSLOG_SHARED)"
	exit 77
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
