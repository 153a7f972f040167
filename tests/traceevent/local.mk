# tests/traceevent: plugin_ehsyslog.so loaded through libtraceevent, as
# trace-cmd loads it, from the build tree (see Makefile.am).
check_PROGRAMS += tests/traceevent/test_plugin
tests_traceevent_test_plugin_SOURCES = tests/traceevent/test_plugin.c
tests_traceevent_test_plugin_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
tests_traceevent_test_plugin_LDADD = src/eventheader/libeventheader.la \
	$(LIBTRACEEVENT_LIBS) $(CHECK_LIBS)
tests_traceevent_test_plugin_LDFLAGS = -no-install
TESTS += tests/traceevent/test_plugin
