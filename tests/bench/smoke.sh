#!/bin/sh
# make check: runs scripts/bench --smoke (one repetition, a few ms per
# configuration) so the benchmark keeps building and running; its figures
# are not looked at, but its Markdown tables must hold one row for each
# configuration and each fact it measured, and must land between the
# bench-table markers of a copy of docs/performance.md, as a full run
# puts them into the page itself.  Skips (77) where scripts/bench does:
# without root.
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: the benchmark's malloc-counting shim and timings mean nothing under ASan"
	exit 77
fi
top=${top_srcdir:-.}
out=${top_builddir:-.}/tests/bench/smoke-out
mkdir -p "$out" || exit 99
page=$out/performance.md
cp "$top/docs/performance.md" "$page" && chmod u+w "$page" || exit 99
"$top/scripts/bench" --smoke --out "$out" --page "$page" || exit $?
want=$(($(wc -l <"$out/results.csv") - 1 + $(wc -l <"$out/facts.csv") - 1))
got=$(($(grep -c '^| ' "$out/table.md") - 2))	# less the two header rows
echo "table.md: $got rows for $want configurations and facts"
[ "$got" = "$want" ] || exit 1
# The page: the text around the markers kept, the tables between them.
sed '/^<!-- bench-table begin -->$/,/^<!-- bench-table end -->$/d' "$top/docs/performance.md" >"$out/around.want"
sed '/^<!-- bench-table begin -->$/,/^<!-- bench-table end -->$/d' "$page" >"$out/around.got"
cmp -s "$out/around.want" "$out/around.got" || { echo "performance.md: text around the tables changed"; exit 1; }
sed -n '/^<!-- bench-table begin -->$/,/^<!-- bench-table end -->$/p' "$page" | sed '1d;$d' >"$out/between"
cmp -s "$out/between" "$out/table.md" || { echo "performance.md: the tables between the markers are not table.md"; exit 1; }
echo "performance.md: table.md between the markers, the rest unchanged"
