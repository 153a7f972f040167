# tests/kernel: tests that need a kernel with user_events, run through
# scripts/kernel-test (natively, in the QEMU guest, or skipped).
dist_noinst_SCRIPTS += tests/kernel/guest-smoke.sh
TESTS += tests/kernel/guest-smoke.sh
