# EHS_EMIT's call site and the library: the calls a site makes and the
# tracepoint its events go to, through ld's --wrap.
check_PROGRAMS += tests/bridge/test_native_site
TESTS += tests/bridge/test_native_site
tests_bridge_test_native_site_SOURCES = tests/bridge/test_native_site.c
tests_bridge_test_native_site_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_native_site_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_native_site_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_native_site_LDFLAGS = -no-install -Wl,--wrap=ehs_site_write \
	-Wl,--wrap=ehs_site_event -Wl,--wrap=ue_tracepoint_write \
	-Wl,--wrap=ue_tracepoint_write_sized
