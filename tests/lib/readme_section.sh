# shellcheck shell=sh
# Sourced by the tests that run README.md's commands as written: not run.

# readme_section README TITLE DIR: splits README's section "## TITLE"
# into DIR/cmd.N (N from 1: the indented lines starting with "$ ", a
# command going on while its single quotes are open), DIR/out.N (the
# indented lines shown after command N), DIR/block.N (indented blocks
# without a command), DIR/prose (the other lines) and DIR/count (how
# many commands).  1 if README cannot be read.
readme_section() {
	awk -v q="'" -v d="$3" -v title="## $2" '
function quotes(s) { return gsub(q, "", s) }
$0 == title { on = 1; next }
on && /^## / { exit }
!on { next }
/^    / {
	l = substr($0, 5)
	if (open) { print l > (d "/cmd." n); open = (open + quotes(l)) % 2; next }
	if (l ~ /^\$ /) {
		n++; l = substr(l, 3); print l > (d "/cmd." n)
		open = quotes(l) % 2; cur = n; next
	}
	if (cur) { print l > (d "/out." cur); next }
	if (!inb) { nb++; inb = 1 }
	print l > (d "/block." nb); next
}
{ cur = 0; inb = 0; print > (d "/prose") }
END { print n + 0 > (d "/count") }
' "$1"
}
