#!/bin/sh
# ehsyslog config check: FILE:LINE: per error and exit 1, exit 0 when
# valid, warnings for files the library would ignore for their owner or mode.  The files use
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

# stdio's words: a program's section checked too.
printf 'stdio = stdout, stderr\n[program worker]\nstdio = both\n[program x]\nstdio = none\n' >"$conf"
expect 0 "$EHSYSLOG" config check "$conf"
expect_line out "$conf: valid"
printf 'stdio = both\n[program x]\nstdio = stdin\n' >"$conf"
expect 1 "$EHSYSLOG" config check "$conf"
expect_line err "$conf:3: stdio must be stdout, stderr, both or none, or several separated by commas"

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
expect_line err "$conf: warning: writable by group or others: the library ignores it and uses its defaults"
if [ "$(id -u)" = 0 ]; then
	chmod 644 "$conf"
	chown nobody "$conf"
	expect 0 "$EHSYSLOG" config check "$conf"
	expect_line err "$conf: warning: not owned by root: the library ignores it and uses its defaults"
fi

# [export] is ehsyslog export's: the library skips its keys, and check
# reads them as export does, each by its long option's code.
rm -f "$conf"
printf 'provider = P\n[export]\nendpoint = https://c:4318 # why\nresource = k=v\nmin-severity = warning\n' >"$conf"
chmod 644 "$conf"
expect 0 "$EHSYSLOG" config check "$conf"
expect_line out "$conf: valid"
printf '[export]\nendpoint = ftp://c\nbatch-size = 0\nnosuch = 1\ntimeout = 5\nfacility = nope\n[program x]\ndisable = yes\n' >"$conf"
expect 1 "$EHSYSLOG" config check "$conf"
expect_empty out
cat >"$T/want" <<EOF2
ehsyslog export: $conf:2: endpoint 'ftp://c' is not an http:// or https:// URL
ehsyslog export: $conf:3: bad batch size '0'
ehsyslog export: $conf:4: unknown key 'nosuch' in [export] (the long options of ehsyslog export that take a value)
ehsyslog export: $conf:5: 'timeout' is for the command line only
ehsyslog export: $conf:6: unknown facility 'nope'
$conf: [export] is not valid: ehsyslog export refuses to start
EOF2
checks=$((checks + 1))
cmp -s "$T/want" "$T/err" || fail "[export] errors: $(diff "$T/want" "$T/err")"
printf '[export]\nprovider = bad!\n' >"$conf"
expect 1 "$EHSYSLOG" config check "$conf"
cat >"$T/want" <<EOF2
ehsyslog export: $conf:2: invalid provider name 'bad!': must be 1-200 characters of A-Z a-z 0-9 _
$conf: [export] is not valid: ehsyslog export refuses to start
EOF2
checks=$((checks + 1))
cmp -s "$T/want" "$T/err" || fail "[export] provider: $(diff "$T/want" "$T/err")"
printf '[export]\nendpoint = ftp://c\nbatch-size = 0\n' >"$conf"
# export itself refuses to start on the same file, before tracing.
expect 2 env EHSYSLOG_CONFIG="$conf" "$EHSYSLOG" export
expect_line err "ehsyslog export: $conf:3: bad batch size '0'"
# A line that is not key = value: the library's error and export's.
printf '[export]\nendpoint\n' >"$conf"
expect 1 "$EHSYSLOG" config check "$conf"
expect_line err "$conf:2: expected key = value, [program NAME], [export] or a comment"
expect_line err "ehsyslog export: $conf:2: expected key = value, [program NAME], [export] or a comment"

finish
