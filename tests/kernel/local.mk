# tests/kernel: the real-kernel environment itself.  A test that
# needs a kernel with user_events runs its program through
# "$top_srcdir/scripts/kernel-test" PROGRAM ARGS, which runs it natively,
# in the QEMU guest (scripts/guest-run), or exits 77 saying why.
# guest_smoke.sh proves that environment itself.
dist_noinst_SCRIPTS += tests/kernel/guest_smoke.sh
TESTS += tests/kernel/guest_smoke.sh

