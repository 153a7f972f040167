# scripts: see Makefile.am
dist_noinst_SCRIPTS += scripts/setup scripts/test scripts/test-summary scripts/check-cited \
	scripts/test-arm64 scripts/arm64-libtracecmd tests/qemu-run tests/arm64/guest-suite
EXTRA_DIST += tests/lib/fork_probe.c tests/arm64/guest-tests
# The real-kernel test guest: scripts/kernel-test picks native, guest or skip.
dist_noinst_SCRIPTS += scripts/guest-kernel scripts/guest-stock-kernel scripts/guest-run scripts/kernel-test \
	scripts/tracefs-ns
EXTRA_DIST += scripts/guest/init scripts/guest/kernel.config scripts/guest/kernel-arm64.config \
	scripts/guest/quote.sh scripts/linux-source.sh
dist_noinst_SCRIPTS += scripts/demo
# A linux-image with user_events from Debian's linux-source (docs/kernels.md).
dist_noinst_SCRIPTS += scripts/debian-kernel-package
# The Debian packages: scripts/deb-check builds them from debian/ in a
# temporary copy (scripts/copy-tree), runs lintian and tests/deb/guest.sh.
dist_noinst_SCRIPTS += scripts/copy-tree scripts/deb-check tests/deb/guest.sh
EXTRA_DIST += debian/changelog debian/clean debian/control debian/copyright \
	debian/rules debian/source/format debian/not-installed \
	debian/libehsyslog0.install debian/libehsyslog0.symbols \
	debian/libehsyslog-dev.install debian/ehsyslog.install \
	debian/ehsyslog.postrm debian/preload-prerm.in debian/etc/ehsyslog.conf
