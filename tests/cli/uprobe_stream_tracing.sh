#!/bin/sh
# An output stream's lines when tracing starts and stops while the
# program writes (libehsyslog(7), OUTPUT STREAMS): a line begun before a
# tracer came is not an event, nor is its end; a line held while traced
# is dropped when an untraced write follows; the first line that starts
# after tracing did is.  python3 writes to a pipe named by EHSYSLOG_STDIO,
# waiting at each step for the test, which starts and stops tail (the
# uprobe transport on this machine's kernel) in between.  The pipe's
# bytes are the program's, with the library and without.  tail's pid is
# the process's for a line a second thread wrote (the trace's is the
# thread's): the main thread's id.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/cli/journal_lib.sh"
in_namespace --pid "$0" "$@"
own_library "$T/libehsyslog.so.0"

cat >"$T/steps.py" <<'EOF'
import os, sys, threading, time
steps = sys.argv[1]
def step(n):
    open("%s/at%d" % (steps, n), "w").close()
    for _ in range(12000):
        if os.path.exists("%s/go%d" % (steps, n)):
            return
        time.sleep(0.01)
    sys.exit("step %d: no go" % n)
def w(s):
    os.write(1, s.encode())
w("begun untraced, ")
step(1)  # traced from here
w("ended traced\n")
w("the first traced line\n")
t = threading.Thread(target=w, args=("from a thread\n",))
t.start()
t.join()
w("held while traced, ")
step(2)  # untraced again
w("ended untraced\n")
w("a whole untraced line\n")
w("begun untraced again")
step(3)  # traced again: after a line that did not end
w(", ended traced\n")
w("<3>the second traced line\n")
w("unfinished at exit")
EOF

start_tail() {
	"$EHSYSLOG" tail --uprobes="$LIB" --timeout 600 --json >"$T/tail$1.out" 2>"$T/tail$1.err" &
	tail_pid=$!
	wait_until 60 enabled_in_tail $tail_pid "$GROUP" verbose ||
		fail "tail $1 did not enable $GROUP: $(cat "$T/tail$1.err")"
}

# stop_tail N: once tail N printed the marker, it printed all before it.
stop_tail() {
	LD_PRELOAD=$PRELOAD python3 -c 'import syslog, sys; syslog.openlog("marker"); syslog.syslog(sys.argv[1])' "mark $1"
	wait_until 120 grep -q "\"message\":\"mark $1\"" "$T/tail$1.out" ||
		fail "tail $1 did not print its marker: $(cat "$T/tail$1.err")"
	kill -INT $tail_pid
	wait $tail_pid || fail "tail $1 exited $? after SIGINT: $(cat "$T/tail$1.err")"
	expect_quiet "tail$1.err"
}

# wait_step N: the program is at step N.
wait_step() {
	wait_until 120 test -e "$T/steps/at$1" || fail "python3 did not reach step $1"
}

mkdir "$T/steps"
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=stdout python3 "$T/steps.py" "$T/steps" | cat >"$T/with.out" &
prog=$!
wait_step 1
start_tail 1
touch "$T/steps/go1"
wait_step 2
stop_tail 1
touch "$T/steps/go2"
wait_step 3
start_tail 2
touch "$T/steps/go3"
wait $prog || fail "python3 exited $?"
stop_tail 2

printf '6\t%s\n' "'the first traced line'" "'from a thread'" >"$T/want1"
event_lines "$T/tail1.out" python3 stdout >"$T/got1"
expect_same "the lines of the first tracing" "$T/want1" "$T/got1"
python3 -c '
import json, sys
meta = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    meta[e.get("message")] = e["meta"]
main, other = meta["the first traced line"], meta["from a thread"]
print(main["pid"] == main["tid"], other["pid"] == main["pid"], other["tid"] != main["tid"])' \
	"$T/tail1.out" >"$T/pids"
echo "True True True" >"$T/pids.want"
expect_same "tail's pid and tid of the main thread's line and another's" "$T/pids.want" "$T/pids"
printf '%s\t%s\n' 3 "'the second traced line'" 6 "'unfinished at exit'" >"$T/want2"
event_lines "$T/tail2.out" python3 stdout >"$T/got2"
expect_same "the lines of the second tracing" "$T/want2" "$T/got2"

mkdir "$T/steps-without"
touch "$T/steps-without/go1" "$T/steps-without/go2" "$T/steps-without/go3"
python3 "$T/steps.py" "$T/steps-without" | cat >"$T/without.out" || fail "python3 without the library exited $?"
expect_same "the pipe's bytes with the library and without" "$T/without.out" "$T/with.out"
finish
