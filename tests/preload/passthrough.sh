#!/bin/sh
# Pass-through on the host (no user_events here, which is fine): every
# call of logcalls prints the same stderr and stdout and exits with the
# same status with and without LD_PRELOAD=libehsyslog.so (output-then-daemon
# with standard output a watched stream), and errno
# survives (logcalls prints it), or is what glibc's call left (nofile3,
# nofile4: RLIMIT_NOFILE 3 and 4).
set -u
lib="$top_builddir/.libs/libehsyslog.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
# At RLIMIT_NOFILE 3 the sanitizers' runtime itself cannot open what it
# needs and aborts, with or without the library.
low_limits="nofile3 nofile4"
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: nofile3, nofile4: the sanitizers' runtime aborts at RLIMIT_NOFILE 3 and 4"
	low_limits=
fi
for prog in logcalls logcalls_fortify; do
	bin="$top_builddir/tests/preload/$prog"
	for what in warn warnx vwarn vwarnx warn-null err errx verr verrx \
		    error error-exit error_at_line error_at_line-exit \
		    syslog vsyslog openlog mask badpri output-then-daemon $low_limits; do
		# output-then-daemon: standard output a log the library watches.
		stdio=
		[ "$what" = output-then-daemon ] && stdio=stdout
		EHSYSLOG_STDIO=$stdio "$bin" "$what" >"$tmp/out0" 2>"$tmp/err0"; rc0=$?
		EHSYSLOG_STDIO=$stdio LD_PRELOAD="$lib" "$bin" "$what" >"$tmp/out1" 2>"$tmp/err1"; rc1=$?
		# LOG_PID puts the pid into the LOG_PERROR copy: mask it.
		sed -i 's/\[[0-9]*\]/[PID]/' "$tmp/err0" "$tmp/err1"
		if [ "$rc0" != "$rc1" ] || ! cmp -s "$tmp/out0" "$tmp/out1" ||
		   ! cmp -s "$tmp/err0" "$tmp/err1"; then
			echo "FAIL: $prog $what: rc $rc0/$rc1"
			diff "$tmp/err0" "$tmp/err1"
			diff "$tmp/out0" "$tmp/out1"
			fail=1
		elif ! grep -q . "$tmp/err0" && [ "$what" != syslog ] && [ "$what" != vsyslog ]; then
			echo "FAIL: $prog $what printed nothing on stderr"
			fail=1
		else
			echo "ok: $prog $what rc=$rc0"
		fi
	done
done
exit $fail
