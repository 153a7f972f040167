#!/bin/sh
# ehsyslog register --uprobes on this machine's kernel: the library's
# five uprobe events defined from its .note.stapsdt (each probe's and its
# semaphore's file offsets, checked here against readelf's notes and
# program headers, past the note's nop on the nop5 after it where the
# kernel optimises uprobes there; the arguments as uprobe fetch
# arguments), kept when
# defined again, listed by status, deleted by level and whole, refused
# while a tracer has them enabled; the errors, and register without
# --uprobes pointing to it.  Then the contract alone
# (tests/cli/uprobe_tiny.c: a semaphore per probe, arguments in memory):
# its definitions, a tail that reads an event fired through it, field by
# field, and its semaphore raised only while the tail runs.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
in_namespace "$0" "$@"

# note LIB PROBE: "LOCATION SEMAPHORE ARGUMENTS" of the probe's note.
note() {
	readelf -n "$1" | awk -v p="$2" '/Provider: ehsyslog/ { on = 1; next }
		on && $1 == "Name:" { name = $2 }
		on && name == p && /Location:/ { gsub(",", ""); l = $2; s = $6 }
		on && name == p && /Arguments:/ { $1 = ""; print l, s $0; exit }'
}

# place LIB PROBE: what uprobe_events shows of the probe's place,
# PATH:0xOFFSET(0xREFCTR), the offset zero-padded as the kernel prints it:
# the note's (site_offset).
place() {
	# shellcheck disable=SC2046 # the note's words, each an argument
	set -- "$1" $(note "$1" "$2")
	printf '%s:0x%016x(0x%x)\n' "$1" "$(site_offset "$1" "$(file_offset "$1" "$2")")" \
		"$(file_offset "$1" "$3")"
}

own_library "$T/libehsyslog.so.0"
expect 0 "$EHSYSLOG" register --uprobes "$LIB"
printf "$GROUP:%s\\n" critical error warning info verbose >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/out" || fail "register --uprobes printed: $(cat "$T/out")"
case $(uname -m) in
x86_64) args='message=+0(%di):ustring name=+0(%si):ustring severity=%dx:s32 facility=%cx:s32 errno=%r8:s32 event=+0(%r9):ustring' ;;
aarch64) args='message=+0(%x0):ustring name=+0(%x1):ustring severity=%x2:s32 facility=%x3:s32 errno=%x4:s32 event=+0(%x5):ustring' ;;
*) args='' ;;
esac
for l in critical error warning info verbose; do
	checks=$((checks + 1))
	line=$(grep "^p:$GROUP/$l " "$TR/uprobe_events")
	want="p:$GROUP/$l $(place "$LIB" "$l")${args:+ $args}"
	if [ -n "$args" ]; then
		[ "$line" = "$want" ] || fail "$l is defined as '$line', expected '$want'"
	else
		case $line in "$want "*) ;; *) fail "$l is defined as '$line', expected '$want ...'" ;; esac
	fi
done
# One semaphore for all five (the library's contract).
checks=$((checks + 1))
n=$(sed -n "s|^p:$GROUP/[a-z]* [^(]*(\\(0x[0-9a-f]*\\)).*|\\1|p" "$TR/uprobe_events" | sort -u | wc -l)
[ "$n" = 1 ] || fail "the library's five probes carry $n reference counters, not one"

# Defined again: kept, named again, nothing doubled.
expect 0 "$EHSYSLOG" register --uprobes "$LIB"
checks=$((checks + 1))
cmp -s "$T/want" "$T/out" || fail "register --uprobes again printed: $(cat "$T/out")"
checks=$((checks + 1))
[ "$(defined "$GROUP" | wc -l)" = 5 ] || fail "defined twice: $(cat "$TR/uprobe_events")"

expect 0 "$EHSYSLOG" status
expect_line out "transport:     uprobes: this kernel has no user_events, but uprobe events: tail and export read the library's USDT probes, 'register --uprobes' defines them for perf and trace-cmd"
expect_line out "  $GROUP:warning  on $(place "$LIB" warning)  not enabled in tracefs (perf's use does not show here)"
# A copy's group is headed by the copy's path, not as the installed
# library's.  Only our group's line: uprobe events are the kernel's, and
# a suite running alongside may have defined the installed library's.
expect_line out "  group $GROUP: the copy at $LIB"
checks=$((checks + 1))
! grep -q "^  group $GROUP: .*installed library" "$T/out" ||
	fail "status calls $GROUP the installed library's: $(cat "$T/out")"

# While a tail has them enabled they cannot go; the tail leaves what it
# did not define.
"$EHSYSLOG" tail --uprobes="$LIB" --timeout 30 >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
expect 0 "$EHSYSLOG" status
expect_line out "  $GROUP:info  on $(place "$LIB" info)  enabled in instance $(basename "$TR"/instances/ehsyslog-tail-$tail_pid-*)"
expect 1 "$EHSYSLOG" register --uprobes --delete --level err "$LIB"
expect_empty out
expect_line err "ehsyslog register: cannot delete $GROUP/error: in use (enabled by a tracer: a tail, perf or trace-cmd)"
kill -INT $tail_pid
wait $tail_pid || fail "tail exited $?: $(cat "$T/tail.err")"
checks=$((checks + 1))
[ "$(defined "$GROUP" | wc -l)" = 5 ] || fail "tail removed events register defined: $(defined "$GROUP")"
checks=$((checks + 1))
[ ! -s "$T/tail.err" ] || fail "tail said: $(cat "$T/tail.err")"

# Deleted by level, then the rest; none left to delete.
expect 0 "$EHSYSLOG" register --uprobes --delete --level 3 "$LIB"
expect_line out "$GROUP:warning"
checks=$((checks + 1))
[ "$(defined "$GROUP" | tr '\n' ' ')" = "$GROUP/critical $GROUP/error $GROUP/info $GROUP/verbose " ] ||
	fail "after deleting warning: $(defined "$GROUP")"
expect 0 "$EHSYSLOG" register --uprobes --delete "$LIB"
printf "$GROUP:%s\\n" critical error info verbose >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/out" || fail "register --uprobes --delete printed: $(cat "$T/out")"
expect 0 "$EHSYSLOG" register --uprobes --delete "$LIB"
expect_empty out
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "left defined: $(defined "$GROUP")"

# A copy removed since its events were defined (an upgrade): they are
# deleted by its path all the same.
cp "$BUILT_LIBRARY" "$T/gone.so"
own_events "$T/gone.so"
expect 0 "$EHSYSLOG" register --uprobes --level 1 "$LIB"
rm "$T/gone.so"
expect 0 "$EHSYSLOG" register --uprobes --delete "$LIB"
expect_line out "$GROUP:critical"
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "left defined: $(defined "$GROUP")"

# Errors.  Without --uprobes, register points to it.
expect 3 "$EHSYSLOG" register --level 4
expect_line err "ehsyslog register: $TR/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS)"
expect_line err "ehsyslog register: this kernel has uprobe events: 'ehsyslog register --uprobes' defines the library's events there"
expect 2 "$EHSYSLOG" register --uprobes --persist
expect_line err "ehsyslog register: --uprobes takes no --provider, --facility or --persist (one event per level; a reader filters facilities)"
expect 1 "$EHSYSLOG" register --uprobes
expect_line err "ehsyslog register: /nonexistent/libehsyslog.so.0: No such file or directory (the installed library; EHSYSLOG_LIBRARY names another)"
true_bin=$(realpath /bin/true)
expect 1 "$EHSYSLOG" register --uprobes "$true_bin"
expect_line err "ehsyslog register: $true_bin: no USDT probes (no .note.stapsdt section)"
expect 4 as_nobody "$EHSYSLOG" tail --uprobes="$LIB" --timeout 1
expect_line err "ehsyslog tail: $TR/uprobe_events: Permission denied (defining uprobe events needs root)"
printf 'not ELF\n' >"$T/text.so"
expect 1 "$EHSYSLOG" register --uprobes "$T/text.so"
expect_line err "ehsyslog register: $(realpath "$T/text.so"): not an ELF file"
# A FIFO is refused, not opened for a writer that never comes.
mkfifo "$T/fifo.so"
expect 1 timeout 30 "$EHSYSLOG" register --uprobes "$T/fifo.so"
expect_line err "ehsyslog register: $(realpath "$T/fifo.so"): not a regular file"
# A path holding what the kernel takes for white space: refused, naming
# the character, the path shown with C escapes; nothing defined.
dir=$(realpath "$T")
for c in 'a space: ' 'a tab:\t' 'a newline:\n' 'a vertical tab:\v' 'a form feed:\f' \
	'a carriage return:\r'; do
	name=$(printf 'lib%bx.so' "${c#*:}")
	cp "$BUILT_LIBRARY" "$T/$name"
	expect 1 "$EHSYSLOG" register --uprobes "$T/$name"
	expect_line err "ehsyslog register: $dir/lib${c#*:}x.so: the path holds ${c%%:*}, which uprobe_events takes for white space: it cannot be given there"
	expect_empty out
done

# The contract alone, unoptimised: a semaphore per probe, arguments in
# memory.  The expected fetch arguments are made here from the notes.
tiny=$top_builddir/tests/cli/.libs/libuprobe_tiny.so
[ -f "$tiny" ] || { fail "$tiny not built"; finish; }
cp "$tiny" "$T/libtiny.so"
own_events "$T/libtiny.so"
TINY=$LIB
expect 0 "$EHSYSLOG" register --uprobes "$TINY"
if [ "$(uname -m)" = x86_64 ]; then
	for l in critical warning verbose; do
		# shellcheck disable=SC2046 # the note's words, each an argument
		set -- $(note "$TINY" "$l")
		shift 2
		want=$(printf '%s\n' "$@" | awk -v names="message name severity facility errno event" '
			BEGIN { split(names, n, " ") }
			{	size = $0; sub(/@.*/, "", size); op = $0; sub(/^[^@]*@/, "", op)
				if (match(op, /^-?[0-9]+\(%r(bp|sp)\)$/) == 0) { print "unexpected operand " op; exit }
				off = op; sub(/\(.*/, "", off); reg = op; sub(/.*\(%r/, "", reg); sub(/\)/, "", reg)
				loc = sprintf("%+d(%%%s)", off, reg)
				i = NR
				if (i == 1 || i == 2 || i == 6) printf " %s=+0(%s):ustring", n[i], loc
				else printf " %s=%s:s32", n[i], loc
			}')
		checks=$((checks + 1))
		line=$(grep "^p:$GROUP/$l " "$TR/uprobe_events")
		[ "$line" = "p:$GROUP/$l $(place "$TINY" "$l")$want" ] ||
			fail "tiny $l is defined as '$line', expected 'p:$GROUP/$l $(place "$TINY" "$l")$want'"
	done
fi
# Each probe its own semaphore: five reference counters.
checks=$((checks + 1))
n=$(sed -n "s|^p:$GROUP/[a-z]* [^(]*(\\(0x[0-9a-f]*\\)).*|\\1|p" "$TR/uprobe_events" | sort -u | wc -l)
[ "$n" = 5 ] || fail "the tiny library's five probes carry $n reference counters, not five"
expect 0 "$EHSYSLOG" register --uprobes --delete "$TINY"

# fire LEVEL: tiny_fire through ctypes, an event of Syslog:demo at
# severity 4 (warning), facility 3 (daemon), "hi perf"; prints the
# level's semaphore.
event=BwAAAAAAAAMqAAEAZGVtbwBtZXNzYWdlAApzZXZlcml0eQACZmFjaWxpdHkAAmVycm5vAIQEBwBoaSBwZXJmBAMAAAAA
fire() {
	python3 -c '
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
f = lib.tiny_fire
f.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
              ctypes.c_int, ctypes.c_char_p]
print(f(int(sys.argv[2]), b"hi perf", b"Syslog:demo", 4, 3, 0, sys.argv[3].encode()))' "$TINY" "$1" "$event"
}
checks=$((checks + 1))
[ "$(fire 3)" = 0 ] || fail "the semaphore is raised with nobody tracing"
"$EHSYSLOG" tail --uprobes="$TINY" --json --count 1 --timeout 30 >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
checks=$((checks + 1))
[ "$(fire 3)" = 1 ] || fail "the warning probe's semaphore is not 1 while tail runs"
wait $tail_pid || fail "tail exited $?: $(cat "$T/tail.err")"
checks=$((checks + 1))
sed 's/"time":"[^"]*",//; s/"cpu":[0-9]*,//; s/"pid":[0-9]*,"tid":[0-9]*,//' "$T/tail.out" >"$T/got"
echo '{"n":"Syslog:demo","message":"hi perf","severity":4,"facility":3,"errno":"ERRNO(0)","meta":{"level":3,"keyword":"0x8"}}' >"$T/want"
cmp -s "$T/want" "$T/got" || fail "tail printed: $(cat "$T/tail.out") $(cat "$T/tail.err")"
checks=$((checks + 1))
[ "$(fire 3)" = 0 ] || fail "the warning probe's semaphore is not back at 0 after the tail"
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "tail left its events defined: $(defined "$GROUP")"
checks=$((checks + 1))
[ -z "$(ls "$T/run" 2>/dev/null)" ] || fail "tail left $(ls "$T/run")"
finish
