#!/bin/sh
# ehsyslog export following the installed library, on this machine's
# kernel, sends the records of a program that preloads a copy of the
# library at a path of its own, and of one whose copy only its own mount
# namespace has: each message once, none lost from the first one sent
# on (uprobe_copies.sh shows the same of tail).  In a PID namespace of
# its own, so that export adds no other suite's copy.
UPROBE_PID_NS=yes
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

mkdir "$T/installed"
installed_library "$T/installed/libehsyslog.so.0"
mkdir "$T/vendored" "$T/private"
cp "$BUILT_LIBRARY" "$T/vendored/libehsyslog.so.0"
VENDORED=$(realpath "$T/vendored/libehsyslog.so.0")
PRIVATE=$(realpath "$T/private")
RUNTIMES=$(sanitizer_runtimes "$LIB")
# copy.py NAME STOP: "NAME N" every 100 ms until the file STOP exists,
# then "NAME last".
cat >"$T/copy.py" <<'PY'
import os, sys, syslog, time
name, stop = sys.argv[1], sys.argv[2]
syslog.openlog(name, 0, syslog.LOG_USER)
i = 0
while not os.path.exists(stop) and i < 3000:
    syslog.syslog(syslog.LOG_INFO, "%s %d" % (name, i))
    i += 1
    time.sleep(0.1)
syslog.syslog(syslog.LOG_INFO, "%s last" % name)
PY
# bodies NAME: the bodies of the records of NAME's messages, in order.
bodies() { sed -n "s/.* | B: \"\\($1 [^\"]*\\)\" | .*/\\1/p" "$T/copies/records"; }
sent() { bodies "$1" | grep -q "^$2\$"; }

start_receiver copies
# The installed library's events, followed by default (no --uprobes).
start_export copies --endpoint "$url" --batch-delay 100
LD_PRELOAD=$RUNTIMES$VENDORED python3 "$T/copy.py" vendored "$T/stop" 2>"$T/vendored.err" &
vendored=$!
# shellcheck disable=SC2016 # the namespace's shell expands these
unshare --mount --propagation private sh -c '
	mount -t tmpfs none "$1" && cp "$2" "$1/libehsyslog.so.0" || exit 99
	LD_PRELOAD=$3$1/libehsyslog.so.0 exec python3 "$4" private "$5"' sh \
	"$PRIVATE" "$BUILT_LIBRARY" "$RUNTIMES" "$T/copy.py" "$T/stop" 2>"$T/private.err" &
private=$!
for name in vendored private; do
	wait_until 60 sh -c "sed -n 's/.* | B: \"\\($name [0-9]*\\)\" | .*/\\1/p' '$T/copies/records' | grep -q ." ||
		fail "export sent nothing of the $name copy: $(cat "$T/copies/records" "$T/copies.err")"
done
touch "$T/stop"
wait $vendored || fail "the vendored program exited $?: $(cat "$T/vendored.err")"
wait $private || fail "the private program exited $?: $(cat "$T/private.err")"
for name in vendored private; do
	wait_until 60 sent $name "$name last" || fail "export did not send '$name last'"
done
stop_export copies
for name in vendored private; do
	bodies $name >"$T/got.$name"
	first=$(sed -n "1s/^$name //p" "$T/got.$name")
	n=$(grep -c "^$name [0-9]" "$T/got.$name")
	{
		seq "$first" $((first + n - 1)) | sed "s/^/$name /"
		echo "$name last"
	} >"$T/want.$name"
	expect_same "export's records of the $name copy" "$T/want.$name" "$T/got.$name"
done
checks=$((checks + 1))
! grep -v "^ehsyslog: note: the copy of the library that pid [0-9]* maps (.*) cannot be followed: \|^ehsyslog export: [0-9]* records sent, " "$T/copies.err" ||
	fail "export said: $(cat "$T/copies.err")"
finish
