#!/bin/sh
# How much stack each logging call takes from a signal handler
# (tests/bench/stack-depth.c, the calls in stack-calls.c): without the
# library (libbsd's, GLib's and libsystemd's calls their own), with it
# preloaded (nothing traced on this host), and linked over the writer's
# double with every tracepoint traced, in pass-through and in replace
# mode.  Bytes beyond the kernel's signal frame, in steps of 128;
# "first" is the process's first call of its kind, made in the handler,
# "warm" one after another.  Run by `make bench`; needs root (exits 77
# without).  Every column's program is bound at load (LD_BIND_NOW here,
# -z now for the traced one): bound lazily, a first call takes the
# dynamic linker's 3 KiB, which hides what the library's own first work
# takes.
#
# With --budget BYTES (tests/preload/stack_budget.sh), it fails when a
# call with the library takes more than BYTES beyond the same call
# without it (beyond nothing for the native API, which has no
# counterpart), and names each such call.
set -u
budget=
if [ "${1:-}" = --budget ]; then
	budget=${2:?--budget needs a number of bytes}
fi
b=${top_builddir:-.}/tests/bench
lib=${top_builddir:-.}/.libs/libehsyslog.so
[ "$(id -u)" = 0 ] || { echo "SKIP: stack-depth.sh needs root for its namespaces"; exit 77; }
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export EHSYSLOG_CONFIG=/nonexistent
LD_BIND_NOW=1 "$b/stack-depth" >"$tmp/libc" || exit 1
LD_BIND_NOW=1 LD_PRELOAD=$lib "$b/stack-depth" >"$tmp/lib" || exit 1
"$b/stack-depth-traced" >"$tmp/traced" || exit 1
EHSYSLOG_PASSTHROUGH=0 "$b/stack-depth-traced" >"$tmp/replace" || exit 1
echo "Stack a logging call takes in a signal handler, bytes beyond the signal frame"
echo "($(sed -n 's/^signal frame\t-\t//p' "$tmp/libc") bytes here):"
printf '%-26s %13s %17s %17s %17s\n' call libc "+library, idle" "+library, traced" \
	"traced, replace"
printf '%-26s %6s %6s %8s %8s %8s %8s %8s %8s\n' "" first warm first warm first warm first warm
paste "$tmp/libc" "$tmp/lib" "$tmp/traced" "$tmp/replace" | awk -F '\t' -v budget="$budget" '
	# Over the budget: the library column less libc (or alone), past it.
	function over(lib, libc, what) {
		if (budget == "" || lib == "-")
			return
		if (lib !~ /^[0-9]+$/ || lib - (libc ~ /^[0-9]+$/ ? libc : 0) > budget)
			bad = bad sprintf("%s %s: %s with the library, %s without\n", $1, what, lib, libc)
	}
	$1 == "signal frame" { next }
	$2 == "first" { libc = $3; idle = $6; traced = $9; replace = $12; next }
	{
		printf "%-26s %6s %6s %8s %8s %8s %8s %8s %8s\n", $1, libc, $3, idle, $6, traced, $9,
			replace, $12
		over(idle, libc, "first, idle"); over($6, $3, "warm, idle")
		over(traced, libc, "first, traced"); over($9, $3, "warm, traced")
		over(replace, libc, "first, replace"); over($12, $3, "warm, replace")
	}
	END {
		if (bad != "") {
			printf "FAIL: over the budget of %d bytes beyond libc:\n%s", budget, bad
			exit 1
		}
		if (budget != "")
			printf "every call within %d bytes of libc'"'"'s\n", budget
	}'
