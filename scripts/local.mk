# scripts: see Makefile.am
dist_noinst_SCRIPTS += scripts/setup scripts/test scripts/test-summary scripts/check-cited
# The real-kernel test guest: scripts/kernel-test picks native, guest or skip.
dist_noinst_SCRIPTS += scripts/guest-kernel scripts/guest-run scripts/kernel-test \
	scripts/tracefs-ns
EXTRA_DIST += scripts/guest/init scripts/guest/kernel.config scripts/guest/quote.sh
dist_noinst_SCRIPTS += scripts/demo
