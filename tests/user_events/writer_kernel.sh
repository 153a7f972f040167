#!/bin/sh
# The writer against a real user_events kernel: tests/user_events/writer_ktest.c,
# natively, in the QEMU guest or skipped, as scripts/kernel-test decides.
runner="$top_srcdir/scripts/kernel-test"
if [ ! -x "$runner" ]; then
	echo "SKIP: $runner missing"
	exit 77
fi
exec "$runner" "$top_builddir/tests/user_events/writer_ktest"
