# scripts: see Makefile.am
dist_noinst_SCRIPTS += scripts/setup scripts/test scripts/test-summary
