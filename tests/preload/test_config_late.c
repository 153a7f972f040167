/* SPDX-License-Identifier: MIT */
/*
 * The configuration file as the first logging calls find it: one that
 * cannot be opened for want of a descriptor is read by a later call
 * (its disable or provider then holds), and one that root does not own,
 * or that group or others may write, is ignored in every process, a
 * chrooted root daemon's included.  The wrappers and the bridge over the
 * writer's double, which traces everything here: each event written is
 * counted.  Check forks each test, so each starts unread.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "bridge/config/config_load.h"
#include "bridge/schema.h"
#include "../doubles/user_events_double.h"

/* This program's section (it is built twice, under two names). */
#ifdef EHS_NO_ASM_STUBS
#define SECTION "[program test_config_late_c]"
#else
#define SECTION "[program test_config_late]"
#endif

static unsigned events;

static int count_event(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	(void)iov;
	(void)iovcnt;
	__atomic_add_fetch(&events, 1, __ATOMIC_RELAXED);
	return 0;
}

/* The tracepoint of syslog(LOG_INFO) under openlog's LOG_USER. */
static const char *info_name(void)
{
	return ehs_tracepoint(LOG_INFO, LOG_USER >> 3)->name;
}

/* A file holding text, owned by uid:gid with mode. */
static void write_file(const char *path, const char *text, uid_t uid, gid_t gid, mode_t mode)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chown(path, uid, gid), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static char conf[] = "/tmp/ehs-config-late-XXXXXX";

/* EHSYSLOG_CONFIG names a new file with text, root's unless told. */
static void config_file(const char *text, uid_t uid, mode_t mode)
{
	int fd = mkstemp(conf);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_file(conf, text, uid, 0, mode);
	setenv("EHSYSLOG_CONFIG", conf, 1);
}

static void setup(void)
{
	unsetenv("EHSYSLOG_DISABLE");
	unsetenv("EHSYSLOG_PROVIDER");
	unsetenv("EHSYSLOG_PASSTHROUGH");
	ue_double_trace(count_event, NULL);
	openlog(NULL, 0, LOG_USER);
}

static void teardown(void)
{
	unlink(conf);
}

static struct rlimit saved_limit;

/* Every descriptor number taken: the library's open fails with EMFILE. */
static void no_descriptor_free(void)
{
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &saved_limit), 0);
	int fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	struct rlimit low = { (rlim_t)fd, saved_limit.rlim_max };
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	close(fd);
	ck_assert_int_lt(open("/dev/null", O_RDONLY), 0);
	ck_assert_int_eq(errno, EMFILE);
}

static void descriptors_free_again(void)
{
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &saved_limit), 0);
	/* Past the pause the library keeps between two tries. */
	struct timespec pause = { 0, (EHS_CONFIG_RETRY_MS + 50) * 1000000L };
	nanosleep(&pause, NULL);
}

START_TEST(disable_read_after_emfile)
{
	config_file(SECTION "\ndisable = yes\n", 0, 0644);
	no_descriptor_free();
	for (int i = 0; i < 5; i++)
		syslog(LOG_INFO, "before the file could be read %d", i);
	/* Not read yet: no event, which a disabled program must not make. */
	ck_assert_uint_eq(events, 0);
	descriptors_free_again();
	syslog(LOG_INFO, "after");
	syslog(LOG_ERR, "after");
	ck_assert_uint_eq(events, 0);
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_PASS);
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++)
		ck_assert_uint_eq(ehs_table[i].state, 0);
}
END_TEST

/* Read once a descriptor is free: after the pause (_i 0), or at once
 * after openlog (_i 1), which ends it. */
START_TEST(provider_read_after_emfile)
{
	config_file(SECTION "\nprovider = Late\n", 0, 0644);
	no_descriptor_free();
	syslog(LOG_INFO, "before the file could be read");
	ck_assert_uint_eq(events, 0);
	if (_i == 0) {
		descriptors_free_again();
	} else {
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &saved_limit), 0);
		openlog(NULL, 0, LOG_USER);
	}
	syslog(LOG_INFO, "after");
	ck_assert_uint_eq(events, 1);
	ck_assert_str_eq(info_name(), "Late_L4K2");
}
END_TEST

/* Settled while the file cannot be read (as before a seccomp filter
 * forbids opening it): the defaults for good, and no later call reads
 * the file. */
START_TEST(settled_takes_the_defaults)
{
	config_file(SECTION "\nprovider = Late\n", 0, 0644);
	no_descriptor_free();
	syslog(LOG_INFO, "before the file could be read");
	ck_assert_uint_eq(events, 0);
	ehs_config_settle();
	syslog(LOG_INFO, "settled");
	ck_assert_uint_eq(events, 1);
	ck_assert_str_eq(info_name(), "Syslog_L4K2");
	ck_assert_int_eq(ehs_config_state_word, EHS_CONFIG_ON);
	/* The file, readable now, is not read: it would name Late. */
	descriptors_free_again();
	syslog(LOG_INFO, "after");
	ck_assert_uint_eq(events, 2);
	ck_assert_str_eq(info_name(), "Syslog_L4K2");
}
END_TEST

/* Files saying "provider = Other", and the provider the first event
 * then has: only root's file, writable by root alone, is read. */
static const struct {
	uid_t uid;
	mode_t mode;
	const char *name;
} owners[] = {
	{ 0, 0644, "Other_L4K2" },
	{ 65534, 0644, "Syslog_L4K2" },	/* a user's */
	{ 0, 0664, "Syslog_L4K2" },	/* group may write */
	{ 0, 0646, "Syslog_L4K2" },	/* others may write */
};

START_TEST(file_read_only_when_root_alone_may_write)
{
	config_file("provider = Other\n", owners[_i].uid, owners[_i].mode);
	syslog(LOG_INFO, "first");
	ck_assert_uint_eq(events, 1);
	ck_assert_str_eq(info_name(), owners[_i].name);
}
END_TEST

/* Removes what chrooted_provider made below root: the file at
 * root + config_path, each directory on its way, deepest first, then
 * root. */
static void remove_tree(const char *root, const char *config_path)
{
	char path[PATH_MAX];
	const char *end = config_path + strlen(config_path);

	snprintf(path, sizeof path, "%s%s", root, config_path);
	ck_assert_int_eq(unlink(path), 0);
	while ((end = memrchr(config_path, '/', (size_t)(end - config_path))) != config_path &&
	       end != NULL) {
		snprintf(path, sizeof path, "%s%.*s", root, (int)(end - config_path), config_path);
		ck_assert_int_eq(rmdir(path), 0);
	}
	ck_assert_int_eq(rmdir(root), 0);
}

/* A root daemon chrooted into a tree of owner's, whose copy of the
 * library's file says "provider = Chrooted": what its first event is
 * named. */
static const char *chrooted_provider(uid_t owner)
{
	char root[] = "/tmp/ehs-chroot-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char path[PATH_MAX];
	const char *config_path = TEST_CONFIG_PATH;
	/* Every directory on the way, then the file: all owner's. */
	for (const char *slash = strchr(config_path + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		snprintf(path, sizeof path, "%s%.*s", root, (int)(slash - config_path), config_path);
		ck_assert_int_eq(mkdir(path, 0755), 0);
		ck_assert_int_eq(chown(path, owner, owner), 0);
	}
	ck_assert_int_eq(chown(root, owner, owner), 0);
	snprintf(path, sizeof path, "%s%s", root, config_path);
	write_file(path, "provider = Chrooted\n", owner, owner, 0644);
	unsetenv("EHSYSLOG_CONFIG");
	/* In a child of its own, which ends without returning through the
	 * test: a process left in the chroot has no /proc, which
	 * LeakSanitizer's check at exit needs. */
	int answer[2];
	ck_assert_int_eq(pipe(answer), 0);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		close(answer[0]);
		if (chroot(root) != 0 || chdir("/") != 0)
			_exit(2);
		syslog(LOG_INFO, "first in the chroot");
		dprintf(answer[1], "%u %s", events, info_name());
		_exit(0);
	}
	close(answer[1]);
	static char said[256];
	ssize_t n = read(answer[0], said, sizeof said - 1);
	close(answer[0]);
	int status;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_int_eq(status, 0);
	ck_assert_int_gt(n, 2);
	said[n] = '\0';
	ck_assert_msg(strncmp(said, "1 ", 2) == 0, "events in the chroot: %s", said);
	remove_tree(root, config_path);
	return said + 2;
}

START_TEST(chroot_of_root_is_read)
{
	ck_assert_str_eq(chrooted_provider(0), "Chrooted_L4K2");
}
END_TEST

START_TEST(chroot_of_a_user_is_ignored)
{
	ck_assert_str_eq(chrooted_provider(65534), "Syslog_L4K2");
}
END_TEST

int main(void)
{
	if (geteuid() != 0) {
		puts("SKIP: needs root (files of other owners, chroot)");
		return 77;
	}
	const char *fork_mode = getenv("CK_FORK");
	if (fork_mode && strcmp(fork_mode, "no") == 0) {
		puts("SKIP: each test needs a process of its own (CK_FORK=no): the file is read once a process");
		return 77;
	}
	Suite *s = suite_create("configuration file read late, or refused");
	TCase *tc = tcase_create("file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, disable_read_after_emfile);
	tcase_add_loop_test(tc, provider_read_after_emfile, 0, 2);
	tcase_add_test(tc, settled_takes_the_defaults);
	tcase_add_loop_test(tc, file_read_only_when_root_alone_may_write, 0,
			    sizeof owners / sizeof owners[0]);
	tcase_add_test(tc, chroot_of_root_is_read);
	tcase_add_test(tc, chroot_of_a_user_is_ignored);
	suite_add_tcase(s, tc);
	return check_run(s);
}
