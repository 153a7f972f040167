# shellcheck shell=sh
# Sourced by the guest tests that run perf.  perf_path: prints the real
# perf binary, or returns 1 if none works.  Debian's /usr/bin/perf may be
# a wrapper that wants a perf for the running kernel's version, which the
# test guest's is not.
perf_path() {
	for p in /usr/bin/perf_* /usr/lib/linux-tools-*/perf /usr/lib/linux-tools/*/perf /usr/bin/perf; do
		if [ -x "$p" ] && "$p" version >/dev/null 2>&1; then
			echo "$p"
			return 0
		fi
	done
	return 1
}
