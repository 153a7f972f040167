#!/bin/sh
# Run by tests/e2e/clients.sh (directly or under trace-cmd record): the
# syslog clients of SET once each, in tests/e2e/clients_check.py's order
# (all: every one; paths: three that reach the daemon's socket by other
# names than /dev/log), with the
# environment VAR=VALUE... (LD_PRELOAD, EHSYSLOG_PASSTHROUGH; none: no
# library).  Appends "name pid exit-status" per client to RUNS, their
# stdout and stderr to RUNS.out.  Needs the listener
# (tests/e2e/clients_listen.py) on every socket.
#
# usage: clients_run.sh SET E2E-BUILDDIR RUNS [VAR=VALUE]...
set -u
set=$1 e2e=$2 runs=$3
shift 3
# No space in the values: one word each (see client).
envs="$*"

# client NAME COMMAND...: COMMAND under $envs; its pid is the pid of
# every event it makes (env execs it, and each client is one thread).
client() {
	name=$1
	shift
	# shellcheck disable=SC2086 # envs are words
	env -u EHSYSLOG_REMOTE_SYSLOG $envs "$@" >>"$runs.out" 2>&1 &
	pid=$!
	wait "$pid"
	echo "$name $pid $?" >>"$runs"
}

client logger logger -t sh_logger -p local3.warning "from logger"
if [ "$set" = paths ]; then
	# /dev/log a link to systemd's socket, that socket by its own name,
	# and the BSD name.
	client c_write "$e2e/clients" write /run/systemd/journal/dev-log
	client c_writev "$e2e/clients" writev /var/run/log
	exit 0
fi
client logger_5424 logger --rfc5424 -t app5424 -p daemon.err --msgid ID47 \
	--sd-id exampleSDID@32473 --sd-param 'iut="3"' --sd-param 'eventSource="Application"' \
	--sd-param 'eventID="1011"' "structured"
# Loopback: on by default, EHSYSLOG_REMOTE_SYSLOG unset.
client logger_udp logger -n 127.0.0.1 -P 514 -d -t udp_logger -p local4.notice "over udp"
client logger_tcp logger -n 127.0.0.1 -P 514 -T -t tcp_logger -p local5.info "over tcp"
client logger_tcp_octets logger -n 127.0.0.1 -P 601 -T --octet-count -t tcp_octets \
	-p local5.err "octet counted"
client python_devlog python3 -c '
import logging, logging.handlers as h
s = h.SysLogHandler(address="/dev/log", facility=h.SysLogHandler.LOG_LOCAL1)
s.ident = "pyunix: "
log = logging.getLogger("devlog")
log.addHandler(s)
log.warning("python to dev log")'
client python_udp python3 -c '
import logging, logging.handlers as h
log = logging.getLogger("udp")
log.addHandler(h.SysLogHandler(facility="local1"))
log.warning("python over udp")'
# Sys::Syslog's own socket (its "native" one would be libc syslog()).
client perl perl -MSys::Syslog=:standard,:macros,setlogsock -e '
setlogsock("unix") or die "setlogsock: $!";
openlog("perlsys", "pid", LOG_LOCAL2);
syslog(LOG_ERR, "from perl %d", 7);
closelog();'
for mode in journal mmsg writev write; do
	client "c_$mode" "$e2e/clients" $mode
done
if [ "$("$e2e/clients_calls" has-journal)" = yes ]; then
	client c_calls "$e2e/clients_calls"
else
	client c_calls_nojournal "$e2e/clients_calls"
fi
