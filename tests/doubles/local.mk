# tests/doubles: stand-ins for a layer's public API, linked by tests in
# place of the layer itself (link-time substitution: same names, same
# signatures), so the layers above run their own code unchanged.
# The writer's: events are captured, never sent to a kernel.
check_LTLIBRARIES += tests/doubles/libuser_events_double.la
tests_doubles_libuser_events_double_la_SOURCES = \
	tests/doubles/user_events_double.h tests/doubles/user_events_double.c
# The writer's entry points as ld's --wrap names them, for tests that
# watch events on their way (test_native_site, bench-call-kernel).
EXTRA_DIST += tests/doubles/writer_wrap.h
