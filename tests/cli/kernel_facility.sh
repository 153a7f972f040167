#!/bin/sh
# Facilities 24..127, which glibc accepts and the library logs on the
# keyword-0 tracepoints, in a kernel with user_events (one guest boot):
# register -f 30 registers Syslog_L1K0..Syslog_L5K0; tail -f 30 prints
# exactly the facility-30 event and tail -f 31 only the facility-31 one;
# plain tail shows them among the others, their facility as a number;
# decode -f 30 selects them in a trace-cmd recording.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
in_kernel "$0" "$@"

host=$(uname -n)
k0() { printf 'Syslog_L%sK0\n' 1 2 3 4 5; }

# Persistent, so that trace-cmd below can name them; deleted at the end.
expect 0 "$EHSYSLOG" register --persist -f 30
expect_empty err
k0 >"$T/want"
expect_same "register --persist -f 30" "$T/want" "$T/out"

# start_tail sets pid_<name>.
pid_all=''
start_tail f30 Syslog_L5K0 --facility 30
start_tail f31 Syslog_L5K0 -f 31
start_tail json Syslog_L5K0 --json -f 30
# Plain tail enables keyword 0 first, local7 last.
start_tail all Syslog_L5K800000
checks=$((checks + 1))
enabled_in "$pid_all" Syslog_L1K0 || fail "plain tail did not enable Syslog_L1K0"

logs p30 30 6 1 "info to 30"
p1=$lpid
logs p31 31 3 1 "err to 31"
p2=$lpid
logs puser 1 6 1 "info to user"
p3=$lpid
logs p127 127 7 1 "debug to 127"
p4=$lpid

for t in f30 f31 json all; do
	stop_tail $t
	checks=$((checks + 1))
	[ ! -s "$T/$t.err" ] || fail "tail $t wrote on stderr: $(cat "$T/$t.err")"
done

line1="TIME $host p30[$p1]: 30.info info to 30"
line2="TIME $host p31[$p2]: 31.err err to 31"
line3="TIME $host puser[$p3]: user.info info to user"
line4="TIME $host p127[$p4]: 127.debug debug to 127"
printf '%s\n' "$line1" >"$T/want"
mask_text "$T/f30.out" >"$T/got"
expect_same "tail -f 30" "$T/want" "$T/got"
printf '%s\n' "$line2" >"$T/want"
mask_text "$T/f31.out" >"$T/got"
expect_same "tail -f 31" "$T/want" "$T/got"
printf '%s\n' "$line1" "$line2" "$line3" "$line4" >"$T/want"
mask_text "$T/all.out" >"$T/got"
expect_same "tail" "$T/want" "$T/got"
# (perf-decode leaves keyword 0 out of the meta, and so do we.)
cat >"$T/want" <<JSON
{"n":"Syslog:p30","message":"info to 30","severity":6,"facility":30,"errno":"ENOENT(2)","meta":{"time":"TIME","cpu":N,"pid":$p1,"tid":$p1,"level":4}}
JSON
mask_json "$T/json.out" >"$T/got"
expect_same "tail --json -f 30" "$T/want" "$T/got"

# Recorded by trace-cmd: decode -f selects by the facility field.
expect 0 "$EHSYSLOG" register --persist -f user -l info
# shellcheck disable=SC2016 # the inner shell expands them
expect 0 trace-cmd record -q -o "$T/trace.dat" -e user_events:Syslog_L4K0 -e user_events:Syslog_L4K2 \
	sh -c 'for f in 30 31 1; do env LD_PRELOAD="$1" "$2" rec$f $f 6 1 "recorded $f" & echo $! >"$3/pid$f"; wait $!; done' \
	sh "$BUILT_LIBRARY" "$LOGGER" "$T"
r30="TIME - rec30[$(cat "$T/pid30")]: 30.info recorded 30"
r31="TIME - rec31[$(cat "$T/pid31")]: 31.info recorded 31"
r1="TIME - rec1[$(cat "$T/pid1")]: user.info recorded 1"
# check_decode LABEL WANT-LINE... : decode's output for the options in $opts.
check_decode() {
	label=$1
	shift
	# shellcheck disable=SC2086 # opts is words
	expect 0 "$EHSYSLOG" decode $opts "$T/trace.dat"
	expect_empty err
	printf '%s\n' "$@" >"$T/want"
	sed -E 's/^[^ ]+ /TIME /' "$T/out" >"$T/got"
	expect_same "$label" "$T/want" "$T/got"
}
opts="-f 30"; check_decode "decode -f 30" "$r30"
opts="--facility 31"; check_decode "decode --facility 31" "$r31"
opts="-f 30,user"; check_decode "decode -f 30,user" "$r30" "$r1"
opts=""; check_decode "decode" "$r30" "$r31" "$r1"
expect 0 "$EHSYSLOG" decode -f 29 "$T/trace.dat"
expect_empty out

expect 0 "$EHSYSLOG" register --delete -f 30
k0 >"$T/want"
expect_same "register --delete -f 30" "$T/want" "$T/out"
expect 0 "$EHSYSLOG" register --delete -f user -l info
no_leftovers "at the end"

finish
