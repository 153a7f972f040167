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
# bodies NAME: the bodies of the records of NAME's messages, in order.
bodies() { sed -n "s/.* | B: \"\\($1 [^\"]*\\)\" | .*/\\1/p" "$T/copies/records"; }
sent() { bodies "$1" | grep -q "^$2\$"; }

start_receiver copies
# The installed library's events, followed by default (no --uprobes).
start_export copies --endpoint "$url" --batch-delay 100
start_copies
for name in vendored private; do
	wait_until 60 sh -c "sed -n 's/.* | B: \"\\($name [0-9]*\\)\" | .*/\\1/p' '$T/copies/records' | grep -q ." ||
		fail "export sent nothing of the $name copy: $(cat "$T/copies/records" "$T/copies.err")"
done
stop_copies
for name in vendored private; do
	wait_until 60 sent $name "$name last" || fail "export did not send '$name last'"
done
stop_export copies
for name in vendored private; do
	bodies $name >"$T/got.$name"
	# One copy's probe armed while the other's fired (rearm.h), and
	# one unexplained run more seen under load (uprobe_copies.sh).
	expect_each_once "export's records" $name "$T/got.$name" 2
done
checks=$((checks + 1))
! grep -v "^ehsyslog: note: the copy of the library that pid [0-9]* maps (.*) cannot be followed: \|^ehsyslog export: [0-9]* records sent, " "$T/copies.err" ||
	fail "export said: $(cat "$T/copies.err")"
finish
