# tests/build: the build itself: the library alone, configured with none
# of the optional parts' libraries (minimal.sh), and the same in a chroot
# with only the build tools (scripts/minimal-build-check, run by hand).
TESTS += tests/build/minimal.sh
dist_noinst_SCRIPTS += tests/build/minimal.sh scripts/minimal-build-check
