#!/bin/sh
# ehsyslog export refuses a header file (it holds tokens) that others
# could read or write, or that another user than root or the caller
# owns, with exit status 1 and one line saying why; before it traces
# anything, so no kernel support is needed.  The accepted case is
# kernel_export_tls.sh's, where the header file's token reaches the
# collector.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"
EHSYSLOG_CONFIG=$T/absent.conf
export EHSYSLOG_CONFIG
me=$(id -u)

# refused FILE WHY: export refuses FILE for WHY, saying only that.
refused() {
	expect 1 "$EHSYSLOG" export --endpoint http://127.0.0.1:1 --header-file "$1"
	mode=$(stat -c %a "$1")
	owner=$(stat -c %u "$1")
	printf 'ehsyslog export: %s: refused: %s (owner %s, mode %04d); it holds tokens: make it the owner'"'"'s or root'"'"'s, mode 0600 or 0640\n' \
		"$1" "$2" "$owner" "$mode" >"$T/want"
	checks=$((checks + 1))
	cmp -s "$T/want" "$T/err" || fail "$1: $(diff "$T/want" "$T/err")"
	expect_empty out
}

h=$T/headers
printf 'Authorization: Bearer t0ken\n' >"$h"
chmod 644 "$h"
refused "$h" "readable by others"
chmod 601 "$h"
refused "$h" "readable by others"
chmod 660 "$h"
refused "$h" "writable by group"
chmod 602 "$h"
refused "$h" "writable by others"
mkdir "$T/dir"
chmod 700 "$T/dir"
refused "$T/dir" "not a regular file"
# A FIFO is refused, not waited on for a writer.
mkfifo -m 600 "$T/fifo"
refused "$T/fifo" "not a regular file"
if [ "$me" = 0 ]; then
	chmod 600 "$h"
	chown nobody "$h"
	refused "$h" "owned by another user than root or the one export runs as"
fi
expect 1 "$EHSYSLOG" export --endpoint http://127.0.0.1:1 --header-file "$T/absent"
checks=$((checks + 1))
[ "$(cat "$T/err")" = "ehsyslog export: $T/absent: No such file or directory" ] ||
	fail "absent header file: $(cat "$T/err")"
finish
