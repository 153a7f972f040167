# tests/kernel: tests that need a kernel with user_events.  Such a test
# runs its program through "$top_srcdir/scripts/kernel-test" PROGRAM ARGS,
# which runs it natively, in the QEMU guest (scripts/guest-run), or exits
# 77 saying why.  guest-smoke.sh proves that environment itself.
dist_noinst_SCRIPTS += tests/kernel/guest-smoke.sh
TESTS += tests/kernel/guest-smoke.sh
