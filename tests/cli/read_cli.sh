#!/bin/sh
# SPDX-License-Identifier: MIT
# ehsyslog decode/tail: usage, exit codes and error messages; malformed
# files (truncated perf.data, garbage, a trace.dat header and nothing
# else, crafted trace.dat files) end in a clear error or the count of
# records skipped, and exit 1, under valgrind when it is installed.
set -u
bin=${top_builddir:-.}/ehsyslog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

# expect RC STDERR-LINE CMD...: exit status and the first stderr line
expect() {
	want_rc=$1 want_err=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	checks=$((checks + 1))
	got_err=$(head -n 1 "$tmp/err")
	if [ "$rc" -ne "$want_rc" ] || [ "$got_err" != "$want_err" ]; then
		echo "FAIL: $*: rc $rc (want $want_rc), stderr '$got_err' (want '$want_err')"
		fails=$((fails + 1))
	fi
}

expect 0 "" "$bin" decode --help
grep -q '^Usage: ehsyslog decode \[OPTIONS\] FILE$' "$tmp/out" || { echo "FAIL: decode --help text"; fails=$((fails + 1)); }
expect 0 "" "$bin" tail --help
grep -q '^Usage: ehsyslog tail \[OPTIONS\]$' "$tmp/out" || { echo "FAIL: tail --help text"; fails=$((fails + 1)); }
expect 2 "ehsyslog decode: expected one FILE" "$bin" decode
expect 2 "ehsyslog decode: --json and --fields exclude each other" "$bin" decode --json -F x
expect 2 "ehsyslog decode: unknown severity 'loud'" "$bin" decode --min-severity loud x
expect 2 "ehsyslog decode: unknown facility 'local8'" "$bin" decode --facility user,local8 x
expect 2 "ehsyslog decode: invalid provider name 'a:b': invalid character in provider name" "$bin" decode --provider a:b x
# decode selects any provider a file may hold; tail only what the library
# would log under.
expect 1 "ehsyslog decode: $tmp/none: No such file or directory" "$bin" decode --provider x-y "$tmp/none"
expect 2 "ehsyslog tail: invalid provider name 'x-y': must be 1-200 characters of A-Z a-z 0-9 _" "$bin" tail --provider x-y
expect 2 "ehsyslog tail: invalid provider name 'a b': must be 1-200 characters of A-Z a-z 0-9 _" "$bin" tail -P 'a b'
# Facilities are 0..127, as glibc takes them.
expect 1 "ehsyslog decode: $tmp/none: No such file or directory" "$bin" decode --facility 30,127 "$tmp/none"
expect 2 "ehsyslog decode: unknown facility '128'" "$bin" decode --facility 128 x
expect 2 "ehsyslog tail: unknown facility '128'" "$bin" tail -f 128
expect 2 "ehsyslog tail: bad count '0'" "$bin" tail --count 0
expect 2 "ehsyslog tail: bad timeout 'soon'" "$bin" tail --timeout soon
expect 2 "ehsyslog tail: unexpected argument 'extra'" "$bin" tail extra
expect 2 "ehsyslog tail: bad buffer size '0' (KiB per CPU, 1 or more)" "$bin" tail --buffer-size 0
expect 2 "ehsyslog tail: bad buffer size '8k' (KiB per CPU, 1 or more)" "$bin" tail -b 8k
expect 2 "ehsyslog tail: bad buffer size '18014398509481984' (KiB per CPU, 1 or more)" "$bin" tail -b 18014398509481984
expect 1 "ehsyslog decode: $tmp/none: No such file or directory" "$bin" decode "$tmp/none"

: > "$tmp/empty"
expect 1 "ehsyslog decode: $tmp/empty: neither a perf.data nor a trace.dat file" "$bin" decode "$tmp/empty"
head -c 5000 /dev/urandom > "$tmp/garbage"
expect 1 "ehsyslog decode: $tmp/garbage: neither a perf.data nor a trace.dat file" "$bin" decode "$tmp/garbage"

expect 1 "ehsyslog decode: standard input: empty (expected a perf.data or trace.dat file)" "$bin" decode - < /dev/null
expect 1 "ehsyslog decode: standard input: neither a perf.data nor a trace.dat file" "$bin" decode - < "$tmp/garbage"
expect 1 "ehsyslog decode: standard input: cannot create a temporary file in $tmp/none: No such file or directory" \
	env TMPDIR="$tmp/none" "$bin" decode - < "$tmp/garbage"

vg=
# valgrind cannot run an ASan build (its shadow memory clashes).
if command -v valgrind > /dev/null && [ "${sanitizers:-no}" != yes ]; then
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
	vg="$vg --suppressions=${top_srcdir:-.}/tests/cli/libtracecmd.vgsupp"
fi
# Under ASan: libtracecmd's own leaks (see the file) are not ours, and
# the table of those suppressed would be stderr's first line.
LSAN_OPTIONS="suppressions=${top_srcdir:-.}/tests/fuzz/tracedat.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
# A trace.dat magic followed by garbage.
{ printf '\027\010\104tracing6\0'; head -c 3000 /dev/urandom; } > "$tmp/bad.dat"
$vg "$bin" decode "$tmp/bad.dat" > /dev/null 2> "$tmp/err"
rc=$?
checks=$((checks + 1))
if [ $rc -ne 1 ]; then
	echo "FAIL: garbage trace.dat: rc $rc"; cat "$tmp/err"; fails=$((fails + 1))
fi

# trace.dat: the fuzz seeds (3 events from trace-cmd record, shrunk;
# version 6, 7, and 7 compressed with zstd) decode alike.  Crafted ones
# are refused by decode's checks before libtracecmd reads them: the
# exact message, exit 1, nothing printed, valgrind clean.
dat=${top_srcdir:-.}/tests/fuzz/corpus/tracedat
for v in v6 v7 v7-zstd; do
	expect 0 "" $vg "$bin" decode "$dat/$v.dat"
	sed 's/^[0-9.]* /TIME /' "$tmp/out" > "$tmp/got"
	seq 1 3 | sed 's/^/TIME - recorded[54]: user.info via tracer /' > "$tmp/want"
	checks=$((checks + 1))
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: decode $v.dat:"; cat "$tmp/out"; fails=$((fails + 1)); }
done
# header_page's size (u64 at byte 30) beyond the file.
{ head -c 30 "$dat/v6.dat"; printf '\377\377\377\177\0\0\0\0'; tail -c +39 "$dat/v6.dat"; } > "$tmp/crafted.dat"
# The page's commit (a long after its u64 time stamp) beyond the page.
{ head -c 4104 "$dat/v6.dat"; printf '\377\377\0\0'; tail -c +4109 "$dat/v6.dat"; } > "$tmp/commit.dat"
# And the fuzzer's finds: before these checks, v7_strdup_overflow made
# libtracecmd read past a buffer and v7_zstd_size_4g allocate 4 GiB;
# the others got past earlier versions of the checks (v6_timestamp_size
# and v6_clock_brackets crashed libtracecmd even without ASan;
# v6_printk_no_colon made libtraceevent's printk parser copy past its
# string; v6_print_fmt_mod_zero, "7 % 0" in a print fmt, made it raise
# SIGFPE).
reg=${top_srcdir:-.}/tests/fuzz/regress/tracedat
while IFS='|' read -r file msg; do
	expect 1 "ehsyslog decode: $file: not a valid trace.dat: $msg" $vg "$bin" decode "$file"
	checks=$((checks + 1))
	if [ -s "$tmp/out" ]; then
		echo "FAIL: decode $file printed events"; fails=$((fails + 1))
	fi
done <<-LIST
$tmp/crafted.dat|header_page size past the end of its data
$tmp/commit.dat|CPU 0: page commit 65535 past the page
$reg/v6_trace_clock_size|trace clock size past the end of the file
$reg/header_page_commit_size|CPU 0: event past the page's commit
$reg/v7_strdup_overflow|section at 1142 past the end of the file (truncated?)
$reg/v7_zstd_size_4g|header info: decompresses to more than the file can hold (4211081667 bytes)
$reg/v6_timestamp_size|header_page's time stamp not 8 bytes
$reg/v6_clock_brackets|trace clock without a name
$reg/v6_printk_no_colon|printk formats: a line without "ADDR : FORMAT"
$reg/v6_print_fmt_mod_zero|a print fmt divides by zero
LIST
expect 1 "ehsyslog decode: standard input: not a valid trace.dat: header_page size past the end of its data" \
	"$bin" decode - < "$tmp/crafted.dat"

data=${top_srcdir:-.}/tests/data/perf.data
if [ -r "$data" ]; then
	# The reference capture holds no syslog event: --fields prints what
	# plain text decode prints, the decoder's field line of each event.
	expect 0 "" "$bin" decode "$data"
	mv "$tmp/out" "$tmp/plain"
	expect 0 "" "$bin" decode --fields "$data"
	checks=$((checks + 1))
	if [ "$(wc -l < "$tmp/out")" -ne 254 ] || ! cmp -s "$tmp/plain" "$tmp/out"; then
		echo "FAIL: decode --fields differs from decode on $data"; fails=$((fails + 1))
	fi
	size=$(wc -c < "$data")
	# Cuts in the header, the attributes, the data (before any sample,
	# mid-record among samples, at its end), the feature sections: the
	# exact message, exit 1, no event printed, and valgrind clean.
	skipped="records skipped (1 cut by the end of the file"
	while IFS='|' read -r cut msg; do
		head -c "$cut" "$data" > "$tmp/cut.data"
		expect 1 "" sh -c "$vg '$bin' decode --json '$tmp/cut.data' > '$tmp/cut.out' 2> '$tmp/cut.err'"
		want="ehsyslog decode: $tmp/cut.data: $msg"
		checks=$((checks + 1))
		if [ "$(cat "$tmp/cut.err")" != "$want" ] || [ -s "$tmp/cut.out" ]; then
			echo "FAIL: cut at $cut: stderr '$(cat "$tmp/cut.err")' (want '$want'), $(wc -l < "$tmp/cut.out") lines out"
			fails=$((fails + 1))
		fi
	done <<-EOF
	0|neither a perf.data nor a trace.dat file
	8|perf.data header truncated
	103|perf.data header truncated
	104|the file ends before its data section (truncated?)
	2216|the file ends before its data section (truncated?)
	3887|the file ends before its data section (truncated?)
	3888|1 record skipped (1 cut by the end of the file)
	50000|1 record skipped (1 cut by the end of the file)
	100000|219 $skipped, 218 without event names)
	142519|540 $skipped, 539 without event names)
	150000|540 $skipped, 539 without event names)
	EOF
	# decode - reads it from standard input, a pipe, as from the file.
	"$bin" decode --json "$data" > "$tmp/file.json"
	expect 0 "" sh -c "cat '$data' | $vg '$bin' decode --json -"
	checks=$((checks + 1))
	if ! cmp -s "$tmp/out" "$tmp/file.json" || [ "$(wc -l < "$tmp/out")" != 254 ]; then
		echo "FAIL: decode --json - printed $(wc -l < "$tmp/out") lines, not those of decode --json FILE"
		fails=$((fails + 1))
	fi
	head -c 3888 "$data" > "$tmp/cut.data"
	expect 1 "ehsyslog decode: standard input: 1 record skipped (1 cut by the end of the file)" \
		"$bin" decode - < "$tmp/cut.data"
	# Cut in its last feature section: every event is still there.
	head -c $((size - 1)) "$data" > "$tmp/cut.data"
	expect 1 "ehsyslog decode: $tmp/cut.data: 1 record skipped (1 cut by the end of the file)" \
		$vg "$bin" decode --json "$tmp/cut.data"
	checks=$((checks + 1))
	[ "$(wc -l < "$tmp/out")" = 254 ] || { echo "FAIL: cut in the features: $(wc -l < "$tmp/out") events, want 254"; fails=$((fails + 1)); }
else
	echo "FAIL: $data is missing from the tree"; fails=$((fails + 1))
fi

echo "$checks checks, $fails failed"
[ $fails -eq 0 ]
