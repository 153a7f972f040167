#!/bin/sh
# The man pages render without a warning, and ehsyslog(1) documents every
# option and environment variable the subcommands' --help mentions.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

command -v groff >/dev/null || skip "groff not installed"
for page in ehsyslog.1 libehsyslog.7 ehsyslog.conf.5 ehs_event.3; do
	f=$top_srcdir/man/$page
	checks=$((checks + 1))
	groff -t -man -Tutf8 -ww -z "$f" >"$T/groff" 2>&1 || fail "groff failed on $page"
	[ ! -s "$T/groff" ] || fail "groff warns on $page: $(cat "$T/groff")"
	if command -v man >/dev/null; then
		checks=$((checks + 1))
		LC_ALL=C MANWIDTH=80 man --warnings -l "$f" >/dev/null 2>"$T/man" || fail "man failed on $page"
		[ ! -s "$T/man" ] || fail "man warns on $page: $(cat "$T/man")"
	fi
done

# Rendered text of ehsyslog(1), hyphenation off so words stay whole.
groff -man -Tutf8 -rHY=0 -P-c -P-b -P-u "$top_srcdir/man/ehsyslog.1" 2>/dev/null |
	sed 's/‐/-/g' >"$T/page"
for c in run register status cleanup preload config tail export decode; do
	"$EHSYSLOG" "$c" --help >"$T/help"
	for word in $(grep -o -- '--[a-z][a-z-]*\|EHSYSLOG_[A-Z_]*' "$T/help" | sort -u); do
		checks=$((checks + 1))
		grep -qF -- "$word" "$T/page" || fail "ehsyslog(1) does not mention $word of '$c --help'"
	done
done
for code in 0 1 2 3 4; do
	checks=$((checks + 1))
	grep -q "^ *$code  *[A-Z]" "$T/page" || grep -q "^ *$code\$" "$T/page" || fail "ehsyslog(1) lacks exit status $code"
done

finish
