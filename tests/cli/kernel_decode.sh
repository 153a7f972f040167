#!/bin/sh
# ehsyslog decode reads every record perf writes for our events: perf
# record with -z (zstd-compressed records), -a (system-wide), and
# --sample-identifier, and without options, each recording two syslog
# tracepoints while programs log under the preload; decode --json prints
# exactly the logged events, nothing on stderr, exit 0.  A copy of the
# compressed file cut mid-record gives the skip message and exit 1.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
in_kernel "$0" "$@"

find_perf
# Debian's perf is built with zstd; without it there is no -z to test.
"$PERF" version --build-options | grep -q 'zstd: \[ on' ||
	fail "$PERF is built without zstd: cannot test perf record -z"

"$EHSYSLOG" register --facility user,daemon --level info >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L4K8 "$TR/user_events_status" ||
	fail "register did not register Syslog_L4K8: $(cat "$T/reg.err")"
events="-e user_events:Syslog_L4K2 -e user_events:Syslog_L4K8"

# log_both: a user and a daemon program, three messages each; their pids
# in $T/pids.  (Run by perf record, or under perf record -a.)
cat >"$T/log_both" <<'SH'
#!/bin/sh
env LD_PRELOAD="$1" "$2" first 1 6 3 "user said" & echo $! >"$3"; wait $!
env LD_PRELOAD="$1" "$2" second 3 6 3 "daemon said" & echo $! >>"$3"; wait $!
SH
chmod +x "$T/log_both"

# want_json FILE: the six events decode must print, in order.
want_json() {
	p1=$(sed -n 1p "$T/pids") p2=$(sed -n 2p "$T/pids")
	for i in 1 2 3; do
		echo "{\"n\":\"Syslog:first\",\"message\":\"user said $i\",\"severity\":6,\"facility\":1,\"errno\":\"ENOENT(2)\",\"meta\":{\"time\":\"TIME\",\"cpu\":N,\"pid\":$p1,\"tid\":$p1,\"level\":4,\"keyword\":\"0x2\"}}"
	done
	for i in 1 2 3; do
		echo "{\"n\":\"Syslog:second\",\"message\":\"daemon said $i\",\"severity\":6,\"facility\":3,\"errno\":\"ENOENT(2)\",\"meta\":{\"time\":\"TIME\",\"cpu\":N,\"pid\":$p2,\"tid\":$p2,\"level\":4,\"keyword\":\"0x8\"}}"
	done
}

# check_decode NAME: decode --json $T/NAME.data prints exactly want_json.
check_decode() {
	expect 0 "$EHSYSLOG" decode --json "$T/$1.data"
	expect_empty err
	want_json >"$T/want"
	mask_json "$T/out" >"$T/got"
	expect_same "perf record $1: decode --json" "$T/want" "$T/got"
}

# name_of OPTS: a file name for a recording with these perf options.
name_of() {
	printf 'rec%s' "$1" | tr -c '[:lower:]' _
}

# check_compressed NAME OPTS: the file is zstd-compressed iff OPTS has -z
# (so the -z cases cannot pass on a plain file).
check_compressed() {
	checks=$((checks + 1))
	z=no
	"$PERF" report -i "$T/$1.data" --header-only 2>/dev/null | grep -q '^# compressed : Zstd' && z=yes
	case " $2 " in
	*" -z "*) [ $z = yes ] || fail "perf record $2 wrote no compressed records" ;;
	*) [ $z = no ] || fail "perf record $2 compressed" ;;
	esac
}

for opts in -z --sample-identifier "" "-z --sample-identifier"; do
	name=$(name_of "$opts")
	# shellcheck disable=SC2086 # opts and events are words
	expect 0 "$PERF" record -q $opts $events -o "$T/$name.data" -- \
		"$T/log_both" "$BUILT_LIBRARY" "$LOGGER" "$T/pids"
	check_compressed "$name" "$opts"
	check_decode "$name"
done

# -a: system-wide, perf started first, stopped by SIGINT.
for opts in -a "-a -z"; do
	name=$(name_of "$opts")
	# shellcheck disable=SC2086
	"$PERF" record -q $opts $events -o "$T/$name.data" >"$T/perf.out" 2>&1 &
	perf=$!
	for e in Syslog_L4K2 Syslog_L4K8; do
		wait_until 60 grep -qx "$e # Used by perf" "$TR/user_events_status" ||
			fail "perf $opts did not enable $e: $(cat "$T/perf.out")"
	done
	"$T/log_both" "$BUILT_LIBRARY" "$LOGGER" "$T/pids"
	kill -INT $perf
	wait $perf
	check_compressed "$name" "$opts"
	check_decode "$name"
done

# The compressed file cut 20 bytes before the end of its data: exit 1
# and the cut counted.  (The event names, after the data, are cut off
# too: the samples read before the cut are counted as without them.)
off=$(od -An -tu8 -j40 -N8 "$T/rec_z.data" | tr -d ' ')
dsize=$(od -An -tu8 -j48 -N8 "$T/rec_z.data" | tr -d ' ')
head -c $((off + dsize - 20)) "$T/rec_z.data" >"$T/cut.data"
expect 1 "$EHSYSLOG" decode --json "$T/cut.data"
expect_empty out
checks=$((checks + 1))
grep -qxE "ehsyslog decode: $T/cut.data: ([1-7]) records? skipped \(1 cut by the end of the file(, [1-6] without event names)?\)" "$T/err" ||
	fail "cut file: stderr $(cat "$T/err")"

kill -INT $reg
wait $reg
finish
