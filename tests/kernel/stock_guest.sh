#!/bin/sh
# Proves the guest on Debian's own kernels (scripts/guest-stock-kernel):
# for bookworm's and trixie's linux-image-amd64, one boot each through
# scripts/kernel-test with EHSYSLOG_GUEST_STOCK_KERNEL, in which uname -r
# is the release the package's name carries, tracefs has uprobe_events and no
# user_events_data, and a uprobe event on a function of a program of the
# build tree (tests/kernel/stock_probe, over 9p) records each call with its
# argument.  Then, in a second boot, the uprobe transport as users meet
# it there: tests/cli/uprobe_quickstart.sh (a new user's tail, run,
# perf record and decode --json), tests/cli/uprobe_tail.sh (tail through
# uprobes with python3 preloaded, text and JSON, filters, SIGKILL and
# cleanup), tests/cli/uprobe_decode.sh (perf record, trace-cmd,
# decode) and tests/cli/uprobe_nop5.sh (these kernels do not optimise
# uprobes: the site's one-byte nop is probed), each in a boot of its
# own, run in
# the guest as they run on this machine's kernel.  Skips (77) a suite
# whose kernel cannot be downloaded, or all when no guest can run here.
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
kt=$srcdir/scripts/kernel-test
prog=$(cd "$builddir/tests/kernel" 2>/dev/null && pwd -P)/stock_probe
[ -x "$prog" ] || {
	echo "ERROR: no $prog (make check builds it)"
	exit 99
}

failures=0 ran=0 skips='' off=''
for suite in bookworm trixie; do
	export EHSYSLOG_GUEST_STOCK_KERNEL=$suite
	mode=$("$kt" --mode) || exit 99
	case $mode in
	skip:*)
		# The same reason once (EHSYSLOG_KERNEL_TESTS=skip).
		case "$skips; " in *"; ${mode#skip: }; "*) ;; *) skips="$skips; ${mode#skip: }" ;; esac
		continue
		;;
	esac
	# Prepared out of the comparison below; no network is a skip.
	rc=0
	dir=$("$srcdir/scripts/guest-stock-kernel" "$suite") || rc=$?
	case $rc in
	0) ;;
	3)
		skips="$skips; Debian's $suite kernel cannot be downloaded here"
		continue
		;;
	*)
		echo "FAIL: $suite: scripts/guest-stock-kernel failed (exit $rc)"
		failures=$((failures + 1))
		continue
		;;
	esac
	# The probe's place: stock_hit's offset in the file.
	if [ -z "$off" ]; then
		off=$(objdump -d -F --disassemble=stock_hit "$prog" 2>/dev/null |
			sed -n 's/.*<stock_hit> (File Offset: \(0x[0-9a-f]*\)).*/\1/p')
		[ -n "$off" ] || {
			echo "ERROR: cannot find stock_hit's file offset in $prog with objdump"
			exit 99
		}
	fi
	# What uname -r must say: the package's name tells it.
	package=$(cat "$dir/package")
	release=${package%% *}
	release=${release#linux-image-}
	ran=$((ran + 1))

	# shellcheck disable=SC2016 # the guest expands these
	out=$("$kt" --timeout 300 sh -c '
		t=/sys/kernel/tracing
		echo "release: $(uname -r)"
		for f in uprobe_events user_events_data user_events_status; do
			[ -e $t/$f ] && echo "$f: present"
		done
		echo "p:ehsyslog_stocktest/hit $1:$2 n=%di:s32" >>$t/uprobe_events || exit 1
		echo 1 >$t/events/ehsyslog_stocktest/hit/enable || exit 1
		"$1" 3
		echo "program: exit $?"
		echo 0 >$t/events/ehsyslog_stocktest/hit/enable
		grep -o " hit: ([0-9a-fx]*) n=[0-9]*" $t/trace | sed "s/(0x[0-9a-f]*)/(ADDR)/"
		echo "-:ehsyslog_stocktest/hit" >>$t/uprobe_events
		echo "removed: $(grep -c ehsyslog_stocktest $t/uprobe_events)"' sh "$prog" "$off" 2>&1)
	rc=$?
	expected="release: $release
uprobe_events: present
program: exit 0
 hit: (ADDR) n=1
 hit: (ADDR) n=2
 hit: (ADDR) n=3
removed: 0"
	if [ "$rc" = 0 ] && [ "$out" = "$expected" ]; then
		echo "PASS: $suite ($package): release, uprobe_events without user_events, a uprobe's 3 hits"
	else
		failures=$((failures + 1))
		echo "FAIL: $suite ($package): exit status $rc (expected 0)"
		echo "--- expected output"
		printf '%s\n' "$expected"
		echo "--- actual output"
		printf '%s\n' "$out"
		continue
	fi

	# The transport's own tests, each required to run (a skip inside the
	# guest is a failure: this kernel is what they are for).
	for t in tests/cli/uprobe_quickstart.sh tests/cli/uprobe_tail.sh tests/cli/uprobe_decode.sh \
		tests/cli/uprobe_nop5.sh; do
		rc=0
		# shellcheck disable=SC2016 # the guest expands these
		out=$("$kt" --timeout 1200 sh -c 'cd "$top_builddir" && sh "$top_srcdir/$1"' sh "$t" 2>&1) ||
			rc=$?
		if [ "$rc" = 0 ]; then
			echo "PASS: $suite: $t ($(printf '%s\n' "$out" | tail -n 1))"
		else
			failures=$((failures + 1))
			echo "FAIL: $suite: $t exited $rc:"
			printf '%s\n' "$out" | tail -n 30
		fi
	done
done

[ "$failures" = 0 ] || exit 1
if [ "$ran" = 0 ]; then
	echo "SKIP: ${skips#; }"
	exit 77
fi
[ -z "$skips" ] || echo "skipped:${skips#;}"
exit 0
