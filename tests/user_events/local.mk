# tests/user_events: host unit tests of the writer (the host kernel has no
# user_events; writer_ktest, in kernel.mk, runs against a real one).
UE_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
UE_TEST_LDADD = src/user_events/libuserevents.la $(CHECK_LIBS)

check_PROGRAMS += tests/user_events/test_ue_abi tests/user_events/test_ue_discover \
	tests/user_events/test_ue_noop tests/user_events/test_ue_retry
TESTS += tests/user_events/test_ue_abi tests/user_events/test_ue_discover \
	tests/user_events/test_ue_noop tests/user_events/test_ue_retry

tests_user_events_test_ue_abi_SOURCES = tests/user_events/test_ue_abi.c
tests_user_events_test_ue_abi_CFLAGS = $(UE_TEST_CFLAGS)
tests_user_events_test_ue_abi_LDADD = $(UE_TEST_LDADD)
tests_user_events_test_ue_abi_LDFLAGS = -no-install

tests_user_events_test_ue_discover_SOURCES = tests/user_events/test_ue_discover.c
tests_user_events_test_ue_discover_CFLAGS = $(UE_TEST_CFLAGS)
tests_user_events_test_ue_discover_LDADD = $(UE_TEST_LDADD)
tests_user_events_test_ue_discover_LDFLAGS = -no-install

tests_user_events_test_ue_noop_SOURCES = tests/user_events/test_ue_noop.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_user_events_test_ue_noop_CFLAGS = $(UE_TEST_CFLAGS)
tests_user_events_test_ue_noop_LDADD = $(UE_TEST_LDADD)
tests_user_events_test_ue_noop_LDFLAGS = -no-install

tests_user_events_test_ue_retry_SOURCES = tests/user_events/test_ue_retry.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_user_events_test_ue_retry_CFLAGS = $(UE_TEST_CFLAGS)
tests_user_events_test_ue_retry_LDADD = $(UE_TEST_LDADD)
tests_user_events_test_ue_retry_LDFLAGS = -no-install

# Exit of a process that never logged: counted through the program's own
# pthread_mutex_lock and pthread_atfork (not a Check test: it forks and
# compares what each child prints after main returns).
check_PROGRAMS += tests/user_events/test_ue_exit
TESTS += tests/user_events/test_ue_exit
tests_user_events_test_ue_exit_SOURCES = tests/user_events/test_ue_exit.c
tests_user_events_test_ue_exit_CFLAGS = $(AM_CFLAGS)
tests_user_events_test_ue_exit_LDADD = src/user_events/libuserevents.la
tests_user_events_test_ue_exit_LDFLAGS = -no-install
