#!/bin/sh
# Programs under LD_PRELOAD: python3's syslog module; a stock setuid
# binary that logs through PAM (su, run by root: pam_unix's session
# lines with LOG_AUTHPRIV, su's own with LOG_AUTH); 8 threads x 500
# messages at once, every one arriving whole and in its thread's order;
# fork (the child's events carry its pid) and exec (the new image logs
# with its own defaults).
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot programs.sh

# python3 and su: not our programs, so their errno at the call is free.
tail_start "$work/stock" 15 --facility local3,auth,authpriv || exit 1
out=$(LD_PRELOAD=$lib python3 -c 'import syslog; syslog.openlog("pytest", syslog.LOG_PID, syslog.LOG_LOCAL3); syslog.syslog(syslog.LOG_WARNING, "from python")' 2>&1)
expect_eq "python3: exit status and output" "0 " "$? $out"
expect_line pytest 4 19 '*' '*' "from python" >"$work/stock.expected"
out=$(LD_PRELOAD=$lib su nobody -s /bin/sh -c 'id -un' 2>&1)
expect_eq "su: exit status and output" "0 nobody" "$? $out"
{
	expect_line su 5 4 '*' '*' "(to nobody) root on none"
	expect_line su 6 10 '*' '*' "pam_unix(su:session): session opened for user nobody(uid=65534) by (uid=0)"
	expect_line su 6 10 '*' '*' "pam_unix(su:session): session closed for user nobody"
} >>"$work/stock.expected"
tail_stop "$work/stock" "$(wc -l <"$work/stock.expected")"
compare_events "python3 and su" "$work/stock.expected" "$work/stock"

tail_start "$work/threads" 5 --facility local5 || exit 1
E2E_EXPECT=$work/threads.expected LD_PRELOAD=$lib "$e2e/threads" 8 500
expect_eq "threads: exit status" 0 $?
tail_stop "$work/threads" 4000
compare_events "8 threads x 500 messages" "$work/threads.expected" "$work/threads"

tail_start "$work/forkexec" 10 --facility user,daemon || exit 1
E2E_EXPECT=$work/forkexec.expected LD_PRELOAD=$lib "$e2e/forkexec"
expect_eq "forkexec: exit status" 0 $?
tail_stop "$work/forkexec" 4
compare_events "fork and exec" "$work/forkexec.expected" "$work/forkexec"

e2e_finish
