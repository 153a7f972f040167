# tests/kernel: the real-kernel environment itself.  A test that
# needs a kernel with user_events runs its program through
# "$top_srcdir/scripts/kernel-test" PROGRAM ARGS, which runs it natively,
# in the QEMU guest (scripts/guest-run), or exits 77 saying why.
# guest_smoke.sh proves that environment itself.
dist_noinst_SCRIPTS += tests/kernel/guest_smoke.sh
TESTS += tests/kernel/guest_smoke.sh

# stock_guest.sh proves the guest on Debian's own bookworm and trixie
# kernels (scripts/guest-stock-kernel): uprobe events, no user_events, a
# uprobe on stock_probe's stock_hit() recording each call; then the uprobe
# transport's tests (tests/cli/uprobe_quickstart.sh, uprobe_tail.sh,
# uprobe_decode.sh) in each.
check_PROGRAMS += tests/kernel/stock_probe
tests_kernel_stock_probe_SOURCES = tests/kernel/stock_probe.c
dist_noinst_SCRIPTS += tests/kernel/stock_guest.sh
TESTS += tests/kernel/stock_guest.sh

# debian_package.sh: scripts/debian-kernel-package --config-only (Debian's
# configuration plus user_events, nothing else changed), on the host.
dist_noinst_SCRIPTS += tests/kernel/debian_package.sh
TESTS += tests/kernel/debian_package.sh
