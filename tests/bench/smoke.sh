#!/bin/sh
# make check: runs scripts/bench --smoke (one repetition, a few ms per
# configuration) so the benchmark keeps building and running; its figures
# are not looked at.  Skips (77) where scripts/bench does: without root.
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: the benchmark's malloc-counting shim and timings mean nothing under ASan"
	exit 77
fi
exec "${top_srcdir:-.}/scripts/bench" --smoke --out "${top_builddir:-.}/tests/bench/smoke-out"
