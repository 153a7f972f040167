#!/bin/sh
# The reliability tests against a real user_events kernel, in one run of
# reliab_ktest (natively as root, in the QEMU guest, or skipped).  Load:
# 16 x 100,000 messages by default; EHSYSLOG_LOAD_COUNT=N for fewer.  The
# dup2 fights of retry.c: 1,000 rounds each; EHSYSLOG_STUCK_ROUNDS=N for more.
runner="$top_srcdir/scripts/kernel-test"
if [ ! -x "$runner" ]; then
	echo "SKIP: $runner missing"
	exit 77
fi
exec "$runner" --timeout "${EHSYSLOG_RELIAB_TIMEOUT:-3000}" \
	"$top_builddir/tests/reliability/reliab_ktest"
