# shellcheck shell=sh
# Shared by tests/preload/sandbox.sh and sandbox_kernel.sh: sourced, not
# run, after admin_lib.sh (through uprobe_lib.sh or kernel_lib.sh).  The
# test sets PRELOAD (what LD_PRELOAD takes) and defines tail_ready PID
# (true once the tail PID follows every level) and may set TAIL_TRANSPORT
# (tail's transport option), then calls
# sandbox_checks.
[ "$(id -u)" = 0 ] || skip "sandbox tests need root for their mount namespace"
if [ "${sanitizers:-no}" = yes ]; then
	skip "the ASan runtime makes system calls of its own that the filters kill"
fi
calls=${top_builddir:-.}/tests/preload/sandbox_calls

# same NAME WANT ENV...: the transcript with the library and ENV is
# $T/WANT (ref: the reference).
same() {
	name=$1 want_file=$T/$2
	shift 2
	checks=$((checks + 1))
	env "$@" LD_PRELOAD="$PRELOAD" "$calls" >"$T/$name" 2>"$T/$name.err"
	rc=$?
	if [ $rc != 0 ] || ! cmp -s "$want_file" "$T/$name"; then
		fail "$name: exit $rc, transcript differs from the expected one:
$(diff "$want_file" "$T/$name")
$(cat "$T/$name.err")"
	else
		echo "ok: $name: $cases cases as expected"
	fi
}

sandbox_checks() {
	grep -q '^Seccomp:' /proc/self/status || skip "this kernel has no seccomp (CONFIG_SECCOMP)"
	env -u LD_PRELOAD "$calls" >"$T/ref" 2>"$T/ref.err" ||
		fail "sandbox_calls without the library exited $?: $(cat "$T/ref.err")"
	# The reference holds what the cases are about: a filter on openat
	# or statfs does not touch glibc's syslog; one on getpid kills it
	# (LOG_PID).
	for want in "prctl openat kill|  logged|  exit 5|  devlog got <30> after the filter: prctl openat kill" \
		"seccomp statfs kill|  logged|  exit 5|" \
		"prctl getpid kill|  killed by signal 31|"; do
		checks=$((checks + 1))
		tr '\n' '|' <"$T/ref" | grep -qF "$want" ||
			fail "the reference lacks '$want': $(cat "$T/ref")"
	done
	cases=$(grep -c '^[a-z_][a-z_]* [a-z]* [a-z]*$' "$T/ref")
	# Replace mode: where a call counts as written (traced or not), the
	# cases that allow the library send nothing to /dev/log.
	if [ "${REPLACE_KEEPS:-no}" = yes ]; then
		awk '/^[a-z_]+ [a-z]+ [a-z]+$/ { c = $2 } !(c == "mknodat" && /^  devlog got/)' \
			"$T/ref" >"$T/ref-replaced"
	else
		cp "$T/ref" "$T/ref-replaced"
	fi
	same pass-through ref EHSYSLOG_PASSTHROUGH=1
	same replace ref-replaced EHSYSLOG_PASSTHROUGH=0

	# The filters on mknodat allow every call of the library: only those
	# cases make events.
	allowed=$(grep -c '^[a-z_]* mknodat [a-z]*$' "$T/ref")
	want=$(sed -n 's/^\([a-z_]* mknodat [a-z]*\)$/\1/p' "$T/ref" | sort)
	for mode in 1 0; do
		"$EHSYSLOG" tail ${TAIL_TRANSPORT:-} --json --timeout 120 >"$T/tail$mode" 2>"$T/tail$mode.err" &
		tail_pid=$!
		wait_until 60 tail_ready $tail_pid ||
			fail "the tail did not enable its events: $(cat "$T/tail$mode.err")"
		if [ $mode = 1 ]; then want_ref=ref; else want_ref=ref-replaced; fi
		same "traced-$mode" $want_ref EHSYSLOG_PASSTHROUGH=$mode
		wait_until 60 test "$(grep -c . "$T/tail$mode")" -ge "$allowed"
		sleep 0.5	# for any event past those
		kill "$tail_pid"
		wait "$tail_pid"
		checks=$((checks + 1))
		got=$(sed -n 's/.*"message":"after the filter: \([^"]*\)".*/\1/p' "$T/tail$mode" | sort)
		if [ "$got" != "$want" ] || [ "$(grep -c . "$T/tail$mode")" != "$allowed" ]; then
			fail "passthrough=$mode: the tail printed, for the $allowed cases that allow the library: $(cat "$T/tail$mode" "$T/tail$mode.err")"
		fi
	done
}
