#!/bin/sh
# make check: runs scripts/bench --smoke (one repetition, a few ms per
# configuration) so the benchmark keeps building and running; its figures
# are not looked at, but its Markdown tables must hold one row for each
# configuration and each fact it measured.  Skips (77) where scripts/bench
# does: without root.
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: the benchmark's malloc-counting shim and timings mean nothing under ASan"
	exit 77
fi
out=${top_builddir:-.}/tests/bench/smoke-out
"${top_srcdir:-.}/scripts/bench" --smoke --out "$out" || exit $?
want=$(($(wc -l <"$out/results.csv") - 1 + $(wc -l <"$out/facts.csv") - 1))
got=$(($(grep -c '^| ' "$out/table.md") - 2))	# less the two header rows
echo "table.md: $got rows for $want configurations and facts"
[ "$got" = "$want" ]
