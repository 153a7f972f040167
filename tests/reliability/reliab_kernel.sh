#!/bin/sh
# The reliability tests against a real user_events kernel, in one run of
# reliab_ktest (natively as root, in the QEMU guest, or skipped).  Load:
# EHSYSLOG_FULL_LOAD=1 for 16 x 100,000 messages (see load.c).
runner="$top_srcdir/scripts/kernel-test"
if [ ! -x "$runner" ]; then
	echo "SKIP: $runner missing"
	exit 77
fi
exec "$runner" --timeout "${EHSYSLOG_RELIAB_TIMEOUT:-3000}" \
	"$top_builddir/tests/reliability/reliab_ktest"
