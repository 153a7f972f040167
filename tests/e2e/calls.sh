#!/bin/sh
# Every intercepted function, called by a program built plain and with
# -O2 -D_FORTIFY_SOURCE=2 (so it calls __syslog_chk/__vsyslog_chk),
# under LD_PRELOAD: each call's event is compared field by field with
# what the program expected (tests/e2e/calls.c): names, levels,
# keywords, severity, facility, errno, %m, file/line, setlogmask,
# openlog/closelog, a 10000-byte message reassembled from its parts,
# invalid UTF-8 and control characters; exact counts.  The calls that
# exit run one per process, with their exit status checked.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot calls.sh

plain=$e2e/calls_plain fortify=$e2e/calls_fortify
imports() { nm -D --undefined-only "$1" | awk '{ print $NF }' | sed 's/@.*//' |
	grep -E '^(__v?syslog_chk|v?syslog)$' | sort | tr '\n' ' '; }
expect_eq "plain build imports" "syslog vsyslog " "$(imports "$plain")"
expect_eq "fortified build imports" "__syslog_chk __vsyslog_chk " "$(imports "$fortify")"

tail_start "$work/events" 125 || exit 1
for bin in "$plain" "$fortify"; do
	name=${bin##*/}
	E2E_EXPECT=$work/expected LD_PRELOAD=$lib "$bin" calls 2>"$work/$name.stderr"
	expect_eq "$name calls: exit status" 0 $?
	status=5
	for mode in err errx verr verrx errc verrc error error_at_line; do
		E2E_EXPECT=$work/expected LD_PRELOAD=$lib "$bin" $mode 2>>"$work/$name.stderr"
		expect_eq "$name $mode: exit status" $status $?
		status=$((status + 1))
	done
done
tail_stop "$work/events" "$(wc -l <"$work/expected")"
compare_events "events of every call, both builds" "$work/expected" "$work/events"

e2e_finish
