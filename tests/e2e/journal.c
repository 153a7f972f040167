/* SPDX-License-Identifier: MIT */
/*
 * A program built against Debian's libsystemd that calls every journal
 * entry point: through sd-journal.h's macros (the _with_location
 * functions, CODE_FILE/CODE_LINE/CODE_FUNC added) and by their plain
 * names (the name in parentheses stops the macro).  Before each call it
 * writes the event it expects to E2E_EXPECT (nothing when unset),
 * computed from the call's own arguments, one line per event for
 * tests/e2e/journal_check.py:
 *   ident TAB severity TAB facility TAB errno TAB file TAB line TAB tid
 *   TAB message-hex [TAB name=value-hex]...
 * ("-" for no file; the names are the extra fields, in order).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

static FILE *expect_fp;
static char *expect_buf;
static size_t expect_len;

static void hex(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(expect_fp, "%02x", ((const unsigned char *)p)[i]);
}

/* Starts an expectation; end it with expect_end after any extras. */
static void expect(const char *ident, int severity, int facility, int err,
		   const char *file, unsigned line, const void *msg, size_t msg_len)
{
	expect_fp = open_memstream(&expect_buf, &expect_len);
	if (!expect_fp)
		abort();
	fprintf(expect_fp, "%s\t%d\t%d\t%d\t%s\t%u\t%ld\t", ident, severity, facility, err,
		file ? file : "-", line, (long)gettid());
	hex(msg, msg_len);
}

static void expect_extra(const char *name, const void *value, size_t len)
{
	fprintf(expect_fp, "\t%s=", name);
	hex(value, len);
}

static void expect_end(void)
{
	int saved = errno;
	fputc('\n', expect_fp);
	if (fclose(expect_fp) != 0)
		abort();
	const char *path = getenv("E2E_EXPECT");
	if (path) {
		int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, expect_buf, expect_len) != (ssize_t)expect_len ||
		    close(fd) != 0)
			abort();
	}
	free(expect_buf);
	errno = saved;
}

#define S(s) s, strlen(s)
/* The location the macros add, for a call on the same line. */
#define LOC __FILE__, __LINE__
#define IOV(s) { (void *)(s), sizeof(s) - 1 }

static const char *me;

static int printv_plain(int priority, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = (sd_journal_printv)(priority, fmt, ap);
	va_end(ap);
	return r;
}

static int printv_located(const char *want, int priority, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	expect(me, priority, 1, errno, LOC, S(want)); expect_extra("CODE_FUNC", S(__func__)); expect_end(); int r = sd_journal_printv(priority, fmt, ap);
	va_end(ap);
	return r;
}

int main(void)
{
	int fails = 0;
	me = program_invocation_short_name;

	/* print and printv, plain and located; %m with errno at the call. */
	errno = ENOENT;
	expect(me, LOG_NOTICE, 1, ENOENT, NULL, 0, S("plain print 1 No such file or directory"));
	expect_end();
	fails += (sd_journal_print)(LOG_NOTICE, "plain print %d %m  \n", 1) != 0;
	expect(me, LOG_WARNING, 1, ENOENT, LOC, S("located print")); expect_extra("CODE_FUNC", S(__func__)); expect_end(); fails += sd_journal_print(LOG_WARNING, "located %s", "print") != 0;
	expect(me, LOG_DEBUG, 1, ENOENT, NULL, 0, S("plain printv 2"));
	expect_end();
	fails += printv_plain(LOG_DEBUG, "plain printv %d", 2) != 0;
	fails += printv_located("located printv x", LOG_ERR, "located printv %c", 'x') != 0;

	/* send, plain: identifier and facility given, extras in order. */
	errno = EPERM;
	expect("jident", LOG_ERR, 16, EPERM, NULL, 0, S("plain send 7"));
	expect_extra("FOO", S("bar"));
	expect_extra("NUMBERS", S("1099511627776 2.50"));
	expect_end();
	fails += (sd_journal_send)("MESSAGE=plain send %d", 7, "PRIORITY=%d", LOG_ERR,
				   "FOO=%s", "bar", "SYSLOG_FACILITY=16",
				   "NUMBERS=%lld %.2f", 1LL << 40, 2.5,
				   "SYSLOG_IDENTIFIER=jident", NULL) != 0;
	/* send, located: ERRNO= fills the errno field. */
	expect(me, LOG_CRIT, 1, 13, LOC, S("located send")); expect_extra("CODE_FUNC", S(__func__)); expect_extra("CUSTOM_KEY", S("x y")); expect_end(); fails += sd_journal_send("MESSAGE=located send", "PRIORITY=2", "CUSTOM_KEY=x y", "ERRNO=%d", 13, NULL) != 0;

	/* sendv: binary values (newline, NUL: the length form on the
	 * wire), a message with an inner newline, a key journald drops. */
	static const char bin[] = "BLOB=a\nb\0c";
	static const char msg[] = "MESSAGE=two\nlines";
	const struct iovec iov[] = { { (void *)msg, sizeof msg - 1 }, IOV("PRIORITY=5"),
				     IOV("lower=dropped"), { (void *)bin, sizeof bin - 1 } };
	errno = EINTR;
	expect(me, LOG_NOTICE, 1, EINTR, NULL, 0, S("two\nlines"));
	expect_extra("BLOB", "a\nb\0c", 5);
	expect_end();
	fails += (sd_journal_sendv)(iov, 4) != 0;
	expect(me, LOG_NOTICE, 1, EINTR, LOC, S("two\nlines")); expect_extra("BLOB", "a\nb\0c", 5); expect_extra("CODE_FUNC", S(__func__)); expect_end(); fails += sd_journal_sendv(iov, 4) != 0;

	/* perror, plain and located. */
	errno = EACCES;
	expect(me, LOG_ERR, 1, EACCES, NULL, 0, S("plain perror: Permission denied"));
	expect_end();
	fails += (sd_journal_perror)("plain perror") != 0;
	expect(me, LOG_ERR, 1, EACCES, LOC, S("Permission denied")); expect_extra("CODE_FUNC", S(__func__)); expect_end(); fails += sd_journal_perror("") != 0;

	/* openlog's facility applies, its ident does not (libsystemd sends
	 * the program's name). */
	openlog("notused", 0, LOG_LOCAL2);
	expect(me, LOG_INFO, 18, EACCES, NULL, 0, S("after openlog"));
	expect_end();
	fails += (sd_journal_print)(LOG_INFO, "after openlog") != 0;
	closelog();
	return fails ? 1 : 0;
}
