# tests/traceevent: plugin_ehsyslog.so loaded through libtraceevent, as
# trace-cmd loads it, from the build tree (see Makefile.am).
check_PROGRAMS += tests/traceevent/plugin_test
tests_traceevent_plugin_test_SOURCES = tests/traceevent/plugin_test.c
tests_traceevent_plugin_test_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
tests_traceevent_plugin_test_LDADD = src/eventheader/libeventheader.la \
	$(LIBTRACEEVENT_LIBS) $(CHECK_LIBS)
tests_traceevent_plugin_test_LDFLAGS = -no-install
TESTS += tests/traceevent/plugin_test
