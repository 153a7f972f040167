#!/bin/sh
# Events a trace buffer could not keep, marked where they were lost
# (one guest boot).  tail --buffer-size sets its instance's
# buffer_size_kb; under a flood from several threads, tail --json and
# text tail with a small buffer print lost markers in the stream, and
# the events printed plus the markers' counts are the events sent, the
# markers adding up to the total on stderr.  The same flood recorded by
# trace-cmd (-b 8) and perf (-m 1): decode marks the losses the files
# hold, in the stream, adding up as exactly as each file can say.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
in_kernel "$0" "$@"

FLOOD=$top_builddir/tests/cli/kernel_flood
THREADS=8 EACH=25000
SENT=$((THREADS * EACH))
KIB=8
# start_tail sets pid_<name>.
pid_json='' pid_text=''

# size_of [KIB]: buffer_size_kb as the kernel shows it in a new instance,
# with KIB written to it (it rounds up to whole pages), or as made.
size_of() {
	d=$TR/instances/ehsyslog-test-size
	mkdir "$d" && { [ $# = 0 ] || echo "$1" >"$d/buffer_size_kb"; } && cat "$d/buffer_size_kb"
	rmdir "$d"
}

# flood: kernel_flood under the preload, replace mode.
flood() {
	frc=0
	env LD_PRELOAD="$BUILT_LIBRARY" EHSYSLOG_PASSTHROUGH=0 "$FLOOD" "$THREADS" "$EACH" || frc=$?
	[ "$frc" = 0 ] || fail "kernel_flood $THREADS $EACH exited $frc"
}

# check_lost NAME EVENTS MARKERS: tail NAME's output held EVENTS event
# lines and MARKERS (marker lines, one count each); checks what the
# header says.
check_lost() {
	total=$(sed -n 's/^ehsyslog tail: \([0-9]*\) events\{0,1\} lost: the trace buffer overflowed before they were read$/\1/p' "$T/$1.err")
	n=$(wc -l <"$3")
	sum=$(awk '{ s += $1 } END { print s + 0 }' "$3")
	echo "$1: $2 events printed, $n markers of $sum lost, ${total:-no} total on stderr, $SENT sent"
	checks=$((checks + 1))
	[ "$n" -gt 0 ] || fail "$1: no lost marker"
	checks=$((checks + 1))
	[ $(($2 + sum)) = "$SENT" ] || fail "$1: $2 printed + $sum in markers != $SENT sent"
	checks=$((checks + 1))
	[ "${total:-0}" = "$sum" ] || fail "$1: markers add up to $sum, stderr says ${total:-nothing}: $(cat "$T/$1.err")"
}

# --buffer-size: the instance's buffer_size_kb, as the kernel sets it.
want_kib=$(size_of $KIB)
default_kib=$(size_of)
checks=$((checks + 1))
[ -n "$want_kib" ] && [ "$want_kib" != "$default_kib" ] ||
	fail "cannot tell --buffer-size $KIB from the default: $want_kib KiB and $default_kib KiB"
start_tail json Syslog_L4K2 --json --facility user --buffer-size $KIB
start_tail text Syslog_L4K2 --facility user -b $KIB
for t in json text; do
	got=$(cat "$(instance_of "$(eval echo "\$pid_$t")")/buffer_size_kb")
	checks=$((checks + 1))
	[ "$got" = "$want_kib" ] || fail "tail $t --buffer-size $KIB: buffer_size_kb $got, expected $want_kib"
done
echo "buffer_size_kb: $want_kib for $KIB written, $default_kib by default"

flood
# Both tails read what is left, then stop.
sleep 1
stop_tail json
stop_tail text

# JSON: events, then markers ({"lost":N,"cpu":C}, nothing else).
events=$(grep -c '^{"n":"Syslog:flood","message":"flood [0-9]* [0-9]*",' "$T/json.out")
sed -n 's/^{"lost":\([0-9]*\),"cpu":[0-9]*}$/\1/p' "$T/json.out" >"$T/json.markers"
other=$(grep -v -c -e '^{"n":"Syslog:flood",' -e '^{"lost":[0-9]*,"cpu":[0-9]*}$' "$T/json.out")
checks=$((checks + 1))
[ "$other" = 0 ] || fail "tail --json: $other lines neither events nor markers: $(grep -v -e '^{"n":' -e '^{"lost":' "$T/json.out" | head -n 3)"
check_lost json "$events" "$T/json.markers"
# A marker with an event after it: marked in the stream, not only at exit.
checks=$((checks + 1))
last_event=$(grep -n '^{"n":' "$T/json.out" | tail -n 1 | cut -d: -f1)
first_marker=$(grep -n '^{"lost":' "$T/json.out" | head -n 1 | cut -d: -f1)
[ -n "$first_marker" ] && [ -n "$last_event" ] && [ "$first_marker" -lt "$last_event" ] ||
	fail "tail --json: no lost marker before the last event (first marker line ${first_marker:-none}, last event line ${last_event:-none})"

# Text: "-- CPU C: N events lost --" (or "1 event").
events=$(grep -c ' flood\[[0-9]*\]: user.info flood [0-9]* [0-9]*$' "$T/text.out")
sed -n 's/^-- CPU [0-9]*: \([0-9]*\) events\{0,1\} lost --$/\1/p' "$T/text.out" >"$T/text.markers"
check_lost text "$events" "$T/text.markers"

# decode: the flood recorded by trace-cmd and perf, which need the
# tracepoint registered to name it.
command -v trace-cmd >/dev/null || fail "trace-cmd not installed (scripts/setup installs it)"
find_perf
"$EHSYSLOG" register --facility user --level info >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L4K2 "$TR/user_events_status" ||
	fail "register did not register Syslog_L4K2: $(cat "$T/reg.err")"

# decode_lost NAME FILE: decode --json FILE; sets events, known (the sum
# of the markers' counts), unknown (markers without one); checks that
# there is a marker before the last event, and that text decode marks
# the same places.
decode_lost() {
	expect 0 "$EHSYSLOG" decode --json "$2"
	cp "$T/out" "$T/$1.json"
	events=$(grep -c '^{"n":"Syslog:flood",' "$T/$1.json")
	known=$(sed -n 's/^{"lost":\([0-9]*\)\(,"cpu":[0-9]*\)\{0,1\}}$/\1/p' "$T/$1.json" |
		awk '{ s += $1 } END { print s + 0 }')
	unknown=$(grep -c '^{"lost":null' "$T/$1.json")
	markers=$(grep -c '^{"lost":' "$T/$1.json")
	echo "decode $1: $events events, $markers markers of $known lost ($unknown uncounted), $SENT sent"
	checks=$((checks + 1))
	last_event=$(grep -n '^{"n":' "$T/$1.json" | tail -n 1 | cut -d: -f1)
	first_marker=$(grep -n '^{"lost":' "$T/$1.json" | head -n 1 | cut -d: -f1)
	[ -n "$first_marker" ] && [ -n "$last_event" ] && [ "$first_marker" -lt "$last_event" ] ||
		fail "decode $1: no lost marker before the last event (first marker line ${first_marker:-none}, last event line ${last_event:-none})"
	expect 0 "$EHSYSLOG" decode "$2"
	grep -n -e '^-- ' -e ' flood\[' "$T/out" | sed -n 's/^\([0-9]*\):-- .*/\1/p' >"$T/$1.text.at"
	grep -n -e '^{"lost":' -e '^{"n":' "$T/$1.json" | sed -n 's/^\([0-9]*\):{"lost".*/\1/p' >"$T/$1.json.at"
	expect_same "decode $1: text markers on the JSON markers' lines" "$T/$1.json.at" "$T/$1.text.at"
}

# trace.dat: each page's count of missed events, where the page had room
# for it; with all of them counted, they and the events are what was sent.
expect 0 trace-cmd record -q -b $KIB -e user_events:Syslog_L4K2 -o "$T/flood.dat" -- \
	env LD_PRELOAD="$BUILT_LIBRARY" EHSYSLOG_PASSTHROUGH=0 "$FLOOD" "$THREADS" "$EACH"
decode_lost trace.dat "$T/flood.dat"
checks=$((checks + 1))
if [ "$unknown" = 0 ]; then
	[ $((events + known)) = "$SENT" ] || fail "decode trace.dat: $events events + $known lost != $SENT sent"
else
	[ $((events + known)) -lt "$SENT" ] || fail "decode trace.dat: $events events + $known counted lost, with $unknown uncounted, not below $SENT sent"
fi

# perf.data: LOST records count records of any kind (side-band ones too),
# and perf's closing totals the losses after the last of them: no lost
# sample goes unmarked.
expect 0 "$PERF" record -q -m 1 -e user_events:Syslog_L4K2 -o "$T/flood.perf" -- \
	env LD_PRELOAD="$BUILT_LIBRARY" EHSYSLOG_PASSTHROUGH=0 "$FLOOD" "$THREADS" "$EACH"
decode_lost perf.data "$T/flood.perf"
checks=$((checks + 1))
[ $((events + known)) -ge "$SENT" ] || fail "decode perf.data: $events events + $known lost < $SENT sent"
kill "$reg"
wait "$reg" 2>/dev/null

no_leftovers "at the end"
finish
