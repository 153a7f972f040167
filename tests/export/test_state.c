/* SPDX-License-Identifier: MIT */
/*
 * How export tells status its counters (cli/export/state.h): the exact
 * text published and read back, the file replaced whole and removed at
 * close, running and stale (a process gone, a pid reused) told apart,
 * and files that break the format reported, never used.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/export/state.h"

static char dir[] = "/tmp/test_state.XXXXXX";

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/test_state.XXXXXX");
}

static void write_file(const char *name, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* What export_state_each reported, one line per file, sorted by path. */
struct seen {
	char lines[8][1400];
	int n;
};

static void note(void *ctx, const char *path, enum export_state_kind kind,
		 const struct export_state *s, const char *why)
{
	struct seen *seen = ctx;
	const char *name = strrchr(path, '/') + 1;

	ck_assert_int_lt(seen->n, 8);
	if (kind == EXPORT_STATE_BAD)
		snprintf(seen->lines[seen->n++], sizeof seen->lines[0], "%s bad: %s", name, why);
	else
		snprintf(seen->lines[seen->n++], sizeof seen->lines[0],
			 "%s %s pid=%ld sent=%llu dropped=%llu unsent=%llu lost=%llu %s [%s] [%s]",
			 name, kind == EXPORT_STATE_RUNNING ? "running" : "stale", s->pid, s->sent,
			 s->dropped, s->unsent, s->lost, s->collector, s->endpoint, s->error);
}

static int by_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int each(struct seen *seen)
{
	int n;

	memset(seen, 0, sizeof *seen);
	n = export_state_each(dir, note, seen);
	qsort(seen->lines, (size_t)seen->n, sizeof seen->lines[0], by_line);
	return n;
}

START_TEST(format_exact)
{
	struct export_state s = { .pid = 42, .start = 7, .sent = 1, .dropped = 2, .unsent = 3,
				  .lost = 4 };
	char buf[EXPORT_STATE_MAX];
	size_t len;
	struct export_state back;

	strcpy(s.collector, "failing");
	strcpy(s.endpoint, "http://h:1/v1/logs");
	strcpy(s.error, "two\nlines\tand a tab");
	s.answer = 401;
	s.answer_time = 1764328926;
	s.queue_full = 5;
	s.refused = 6;
	s.rejected = 8;
	s.given_up = 9;
	s.drop_time = 1764328927;
	strcpy(s.message, "bad\rtoken");
	strcpy(s.drop, "6 records: the collector answered 401");
	len = export_state_format(&s, buf);
	ck_assert_uint_eq(len, strlen(buf));
	ck_assert_str_eq(buf, "ehsyslog-export-state 1\npid 42\nstart 7\nsent 1\ndropped 2\n"
			      "unsent 3\nlost 4\ncollector failing\nendpoint http://h:1/v1/logs\n"
			      "error two lines and a tab\nanswer 401\nanswer_time 1764328926\n"
			      "queue_full 5\nrefused 6\nrejected 8\ngiven_up 9\n"
			      "drop_time 1764328927\nmessage bad token\n"
			      "drop 6 records: the collector answered 401\n");
	ck_assert_ptr_null(export_state_parse(buf, len, &back));
	ck_assert_int_eq(back.pid, 42);
	ck_assert_uint_eq(back.start, 7);
	ck_assert_uint_eq(back.sent, 1);
	ck_assert_uint_eq(back.dropped, 2);
	ck_assert_uint_eq(back.unsent, 3);
	ck_assert_uint_eq(back.lost, 4);
	ck_assert_str_eq(back.collector, "failing");
	ck_assert_str_eq(back.endpoint, "http://h:1/v1/logs");
	ck_assert_str_eq(back.error, "two lines and a tab");
	ck_assert_uint_eq(back.answer, 401);
	ck_assert_uint_eq(back.answer_time, 1764328926);
	ck_assert_uint_eq(back.queue_full, 5);
	ck_assert_uint_eq(back.refused, 6);
	ck_assert_uint_eq(back.rejected, 8);
	ck_assert_uint_eq(back.given_up, 9);
	ck_assert_uint_eq(back.drop_time, 1764328927);
	ck_assert_str_eq(back.message, "bad token");
	ck_assert_str_eq(back.drop, "6 records: the collector answered 401");
}
END_TEST

START_TEST(endpoint_without_password)
{
	static const char *const cases[][2] = {
		{ "https://u:secret@c.example:4318/v1/logs", "https://c.example:4318/v1/logs" },
		{ "http://token@c/v1/logs", "http://c/v1/logs" },
		{ "http://c:4318/v1/logs?a=b@c", "http://c:4318/v1/logs?a=b@c" },
		{ "http://c/p@q/v1/logs", "http://c/p@q/v1/logs" },
	};
	struct export_state s;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		export_state_endpoint(&s, cases[i][0]);
		ck_assert_str_eq(s.endpoint, cases[i][1]);
	}
}
END_TEST

START_TEST(parse_refuses)
{
	static const char good[] = "ehsyslog-export-state 1\npid 42\nstart 7\nsent 1\ndropped 2\n"
				   "unsent 3\nlost 4\ncollector ok\nendpoint e\nerror \n"
				   "answer 0\nanswer_time 0\nqueue_full 0\nrefused 0\nrejected 0\n"
				   "given_up 0\ndrop_time 0\nmessage \ndrop \n";
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "ehsyslog-export-state 2\n", "not an export state file (no \"ehsyslog-export-state 1\" line)" },
		{ "ehsyslog-export-state 1\npid 42\nstart 7", "its last line is cut short" },
		{ "ehsyslog-export-state 1\npid\n", "a line is not \"key value\"" },
		{ "ehsyslog-export-state 1\npid -1\n", "bad value for pid" },
		{ "ehsyslog-export-state 1\npid 0\n", "bad value for pid" },
		{ "ehsyslog-export-state 1\nsent 18446744073709551616\n", "bad value for sent" },
		{ "ehsyslog-export-state 1\nlost 1x\n", "bad value for lost" },
		{ "ehsyslog-export-state 1\ncollector 01234567890123456\n", "bad value for collector" },
		{ "ehsyslog-export-state 1\npid 42\n", "no start line" },
		{ "ehsyslog-export-state 1\nanswer_time -1\n", "bad value for answer_time" },
		{ "ehsyslog-export-state 1\ngiven_up x\n", "bad value for given_up" },
	};
	struct export_state s;
	char big[EXPORT_STATE_MAX + 2];

	/* Unknown keys are a newer export's: skipped. */
	char newer[sizeof good + 16], older[sizeof good];
	snprintf(newer, sizeof newer, "%sfuture 1\n", good);
	/* An older export's file, without the keys from answer on: read,
	 * they 0 or empty. */
	snprintf(older, sizeof older, "%.*s", (int)(strstr(good, "answer 0") - good), good);
	ck_assert_ptr_null(export_state_parse(older, strlen(older), &s));
	ck_assert_uint_eq(s.lost, 4);
	ck_assert_uint_eq(s.answer_time, 0);
	ck_assert_str_eq(s.message, "");
	ck_assert_ptr_null(export_state_parse(newer, strlen(newer), &s));
	ck_assert_uint_eq(s.lost, 4);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_str_eq(export_state_parse(bad[i].text, strlen(bad[i].text), &s), bad[i].why);
	ck_assert_str_eq(export_state_parse("ehsyslog-export-state 1\n\0", 25, &s), "holds a NUL byte");
	memset(big, 'x', sizeof big);
	ck_assert_str_eq(export_state_parse(big, sizeof big, &s), "larger than a state file");
}
END_TEST

START_TEST(publish_read_close)
{
	struct export_state_file f;
	struct export_state s = { 0 };
	struct seen seen;
	char path[256];
	char want[1400];

	make_dir();
	ck_assert_int_eq(each(&seen), 0);
	ck_assert_int_eq(export_state_open(&f, dir, &s), 0);
	ck_assert_int_eq(s.pid, (long)getpid());
	strcpy(s.collector, "idle");
	strcpy(s.endpoint, "http://h:1/v1/logs");
	ck_assert_int_eq(export_state_publish(&f, &s), 0);
	s.sent = 5;
	s.lost = 1;
	strcpy(s.collector, "ok");
	ck_assert_int_eq(export_state_publish(&f, &s), 0);
	/* The last one whole, and no temporary file left behind. */
	ck_assert_int_eq(each(&seen), 1);
	snprintf(want, sizeof want,
		 "export-%ld.state running pid=%ld sent=5 dropped=0 unsent=0 lost=1 ok "
		 "[http://h:1/v1/logs] []", s.pid, s.pid);
	ck_assert_str_eq(seen.lines[0], want);
	snprintf(path, sizeof path, "%s/export-%ld.state.tmp", dir, s.pid);
	ck_assert_int_ne(access(path, F_OK), 0);
	export_state_close(&f);
	ck_assert_int_eq(each(&seen), 0);
	remove_dir();
}
END_TEST

/* Under the unit's UMask=0077, a user's status can still read the
 * counters: the directory export makes is 0755, the file 0644. */
START_TEST(readable_whatever_the_umask)
{
	struct export_state_file f;
	struct export_state s = { 0 };
	char run[64];
	struct stat st;
	mode_t old = umask(077);

	make_dir();
	snprintf(run, sizeof run, "%s/run", dir);
	ck_assert_int_eq(export_state_open(&f, run, &s), 0);
	ck_assert_int_eq(export_state_publish(&f, &s), 0);
	umask(old);
	ck_assert_int_eq(stat(run, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0755);
	ck_assert_int_eq(stat(f.path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	export_state_close(&f);
	remove_dir();
}
END_TEST

START_TEST(stale_and_bad)
{
	struct export_state_file f;
	struct export_state me = { 0 }, s;
	struct seen seen;
	char buf[EXPORT_STATE_MAX + 1], name[64], want[4][1400];
	pid_t child;
	size_t len;
	int status;

	make_dir();
	ck_assert_int_eq(export_state_open(&f, dir, &me), 0);
	/* A process gone: a child that exited and was reaped. */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	s = me;
	s.pid = child;
	strcpy(s.collector, "failing");
	strcpy(s.error, "Timeout was reached");
	len = export_state_format(&s, buf);
	snprintf(name, sizeof name, "export-%ld.state", (long)child);
	write_file(name, buf, len);
	snprintf(want[0], sizeof want[0],
		 "export-%ld.state stale pid=%ld sent=0 dropped=0 unsent=0 lost=0 failing [] "
		 "[Timeout was reached]", (long)child, (long)child);
	/* This process's pid with another start time, and no lock held:
	 * its pid reused. */
	s = me;
	s.start = me.start + 1;
	strcpy(s.collector, "ok");
	len = export_state_format(&s, buf);
	snprintf(name, sizeof name, "export-%ld.state", me.pid);
	write_file(name, buf, len);
	snprintf(want[1], sizeof want[1],
		 "export-%ld.state stale pid=%ld sent=0 dropped=0 unsent=0 lost=0 ok [] []", me.pid,
		 me.pid);
	/* The pid inside is not the name's; too big; not a state file;
	 * names that are not export-<pid>.state are not looked at. */
	len = export_state_format(&me, buf);
	write_file("export-1.state", buf, len);
	strcpy(want[2], "export-1.state bad: its pid is not the one in its name");
	memset(buf, '\n', sizeof buf);
	write_file("export-2.state", buf, sizeof buf);
	strcpy(want[3], "export-2.state bad: larger than a state file");
	write_file("export-3.state.tmp", "x", 1);
	write_file("export-.state", "x", 1);
	write_file("export-04x.state", "x", 1);
	ck_assert_int_eq(each(&seen), 4);
	qsort(want, 4, sizeof want[0], by_line);
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(seen.lines[i], want[i]);
	/* The same published, so locked: running, whatever its pid says
	 * (an export in another PID namespace). */
	ck_assert_int_eq(export_state_publish(&f, &s), 0);
	ck_assert_int_eq(each(&seen), 4);
	for (int i = 0; i < 4; i++)
		if (strncmp(want[i], name, strlen(name)) == 0)
			snprintf(want[i], sizeof want[i], "%s running pid=%ld sent=0 dropped=0 "
				 "unsent=0 lost=0 ok [] []", name, me.pid);
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(seen.lines[i], want[i]);
	export_state_close(&f);
	remove_dir();
	ck_assert_int_eq(export_state_each("/nonexistent-ehsyslog", note, &seen), -ENOENT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, format_exact);
	tcase_add_test(tc, endpoint_without_password);
	tcase_add_test(tc, parse_refuses);
	tcase_add_test(tc, publish_read_close);
	tcase_add_test(tc, readable_whatever_the_umask);
	tcase_add_test(tc, stale_and_bad);
	suite_add_tcase(s, tc);
	return check_run(s);
}
