#!/bin/sh
# ehsyslog config check: FILE:LINE: per error and exit 1, exit 0 when
# valid, warnings for files setuid programs would ignore.  The files use
# only what any syntax of the bridge's parser has: comments, blank lines,
# and lines that are not settings at all.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

unset EHSYSLOG_CONFIG
conf=$T/ehsyslog.conf

printf '# nothing but a comment\n\n' >"$conf"
chmod 644 "$conf"
expect 0 "$EHSYSLOG" config check "$conf"
expect_line out "$conf: valid"
if [ "$(id -u)" = 0 ]; then
	expect_empty err
fi

printf '# comment\n\nthis is no setting at all\n# again\n%%%% neither\n' >"$conf"
expect 1 "$EHSYSLOG" config check "$conf"
expect_empty out
grep -q "^$conf:3: ." "$T/err" || fail "no error for line 3: $(cat "$T/err")"
grep -q "^$conf:5: ." "$T/err" || fail "no error for line 5: $(cat "$T/err")"
grep -q "^$conf:[1246]:" "$T/err" && fail "error on a comment or blank line: $(cat "$T/err")"
expect_line err "$conf: 2 errors: the library ignores this file and uses its defaults"

# The default file comes from EHSYSLOG_CONFIG (else sysconfdir); absent is
# fine there (defaults apply), not when named explicitly.
expect 0 env EHSYSLOG_CONFIG="$T/absent.conf" "$EHSYSLOG" config check
expect_line out "$T/absent.conf: absent; the built-in defaults apply"
expect 1 "$EHSYSLOG" config check "$T/absent.conf"
expect_line err "ehsyslog config: cannot read $T/absent.conf: No such file or directory"
expect 1 "$EHSYSLOG" config check "$T"
expect_line err "ehsyslog config: cannot read $T: Is a directory"

printf '# ok\n' >"$conf"
chmod 664 "$conf"
expect 0 env EHSYSLOG_CONFIG="$conf" "$EHSYSLOG" config check
expect_line err "$conf: warning: writable by group or others: setuid and setgid programs ignore it"
if [ "$(id -u)" = 0 ]; then
	chmod 644 "$conf"
	chown nobody "$conf"
	expect 0 "$EHSYSLOG" config check "$conf"
	expect_line err "$conf: warning: not owned by root: setuid and setgid programs ignore it"
fi

finish
