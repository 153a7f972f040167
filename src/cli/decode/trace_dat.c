/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <trace-cmd.h>

#include "cli/output/tep_event.h"
#include "cli/decode/trace_dat.h"
#include "cli/decode/trace_dat_check.h"

struct walk {
	trace_dat_cb cb;
	read_lost_cb lost;
	void *ctx;
	int rc;
	/* Record bytes libtraceevent reads to find a record's event and
	 * pid, where the file's formats put common_type and common_pid. */
	int need;
	struct uprobe_scratch scratch;	/* uprobe events' decoded bytes */
	bool nomem;
};

static int each_record(struct tracecmd_input *in, struct tep_record *record, int cpu, void *arg)
{
	struct walk *w = arg;
	struct read_event ev;

	/* The page's missed events, on its first record whatever its event
	 * (-1: the kernel had no room in the page for the count). */
	if (record->missed_events != 0 && w->lost != NULL) {
		struct read_lost lost = {
			.count = record->missed_events > 0 ? (unsigned long long)record->missed_events : 0,
			.cpu = cpu,
		};

		w->rc = w->lost(&lost, w->ctx);
		if (w->rc != 0)
			return 1;
	}
	if (record->size < w->need)
		return 0;
	switch (tep_read_event(tracecmd_get_tep(in), NULL, record, &w->scratch, &ev)) {
	case 1:
		break;
	case -1:
		w->nomem = true;
		w->rc = -1;
		return 1;
	default:
		return 0;
	}
	/* The trace clock ("local" unless recorded with -C) has no known
	 * relation to the wall clock: times stay on it. */
	w->rc = w->cb(&ev, w->ctx);
	return w->rc != 0;
}

/* The end of the common field name, as libtraceevent finds it: in the
 * first event; -1 if it lies outside any record a page can hold. */
static int common_end(struct tep_handle *tep, const char *name, int page_size)
{
	struct tep_event *first = tep_get_first_event(tep);
	struct tep_format_field *f = first ? tep_find_common_field(first, name) : NULL;

	if (f == NULL)
		return 0;	/* libtraceevent reads nothing then */
	if (f->offset < 0 || f->size < 0 || f->offset > page_size || f->size > page_size - f->offset)
		return -1;
	return f->offset + f->size;
}

/*
 * libtraceevent folds the constant operations of a print fmt while it
 * parses the formats, and divides without testing the divisor (1.7.1,
 * and upstream through 1.8.4): "1 % 0", or "n / m" with two names
 * (which read as 0), raise SIGFPE.  Which operands fold depends on its
 * whole expression grammar, so rather than mirror it, the parse runs
 * with SIGFPE caught, and a file that raises it is refused.  The
 * handle it was building is abandoned: decode exits next.
 */
static sigjmp_buf parse_fault;

static void on_parse_fault(int sig)
{
	(void)sig;
	siglongjmp(parse_fault, 1);
}

/* tracecmd_open_head(path), *divided set if the parse divided by zero. */
static struct tracecmd_input *open_head(const char *path, int *divided)
{
	struct sigaction fault = { .sa_handler = on_parse_fault }, old;
	struct tracecmd_input *volatile in = NULL;

	*divided = 0;
	sigemptyset(&fault.sa_mask);
	if (sigaction(SIGFPE, &fault, &old) < 0)
		return NULL;
	if (sigsetjmp(parse_fault, 1) == 0)
		in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	else
		*divided = 1;
	sigaction(SIGFPE, &old, NULL);
	return in;
}

/* trace_dat_check over the file, its reason prefixed as decode prints it. */
static int check(const void *map, size_t len, unsigned page_long, uint32_t *page_size,
		 char *err, size_t errlen)
{
	char why[256];

	if (trace_dat_check(map, len, page_long, page_size, why, sizeof why) == 0)
		return 0;
	snprintf(err, errlen, "not a valid trace.dat: %s", why);
	return -1;
}

/*
 * libtracecmd trusts the file (crafted files made it read
 * out of bounds and allocate gigabytes), so it only sees what
 * trace_dat_check has walked: the headers before it opens the file, the
 * ring-buffer pages, laid out as the header_page it parsed says, before
 * it reads them.  Of what libtraceevent parsed, the ring buffer's
 * pre-2.6.31 layout is refused, and records too short for the common
 * fields are skipped.
 */
int trace_dat_read(int fd, char *host, size_t hostlen,
		   trace_dat_cb cb, read_lost_cb lost, void *ctx, char *err, size_t errlen)
{
	struct walk w = { .cb = cb, .lost = lost, .ctx = ctx };
	struct tracecmd_input *in = NULL;
	struct tep_handle *tep;
	char path[32];
	struct stat st;
	void *map;
	uint32_t page_size;
	int type_end, pid_end, divided, rc = -1;

	if (hostlen > 0)
		host[0] = '\0';
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (st.st_size == 0) {
		snprintf(err, errlen, "not a valid trace.dat: no trace.dat magic");
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (check(map, (size_t)st.st_size, 0, &page_size, err, errlen) < 0)
		goto out;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/* The file just checked, not whatever its name now points to. */
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	in = open_head(path, &divided);
	if (divided) {
		snprintf(err, errlen, "not a valid trace.dat: a print fmt divides by zero");
		goto out;
	}
	if (in == NULL) {
		snprintf(err, errlen, "not a trace.dat file libtracecmd can read");
		goto out;
	}
	tep = tracecmd_get_tep(in);
	type_end = common_end(tep, "common_type", (int)page_size);
	pid_end = common_end(tep, "common_pid", (int)page_size);
	if (tep_is_old_format(tep)) {
		snprintf(err, errlen, "not a valid trace.dat: ring buffer of a pre-2.6.31 kernel");
		goto out;
	}
	/* libtracecmd fails on any other time stamp when it loads a page. */
	if (tep_get_header_timestamp_size(tep) != 8) {
		snprintf(err, errlen, "not a valid trace.dat: header_page's time stamp not 8 bytes");
		goto out;
	}
	if (type_end < 0 || pid_end < 0) {
		snprintf(err, errlen, "not a valid trace.dat: common fields outside the page");
		goto out;
	}
	w.need = type_end > pid_end ? type_end : pid_end;
	/* kbuffer reads the commit as 8 bytes if header_page says so, else 4. */
	if (check(map, (size_t)st.st_size, tep_get_header_page_size(tep) == 8 ? 8 : 4,
		  &page_size, err, errlen) < 0)
		goto out;
	if (tracecmd_init_data(in) < 0) {
		snprintf(err, errlen, "not a trace.dat file libtracecmd can read");
		/* libtracecmd 3.1's tracecmd_close then walks CPU state the
		 * failed init left unset, and crashes: the handle is left
		 * open (decode exits next). */
		in = NULL;
		goto out;
	}
	rc = 0;
	/* Iterates all CPUs, merging them by time. */
	if (tracecmd_iterate_events(in, NULL, 0, each_record, &w) < 0 && w.rc == 0) {
		snprintf(err, errlen, "cannot read the events");
		rc = -1;
	} else {
		rc = w.rc;
		if (w.nomem)
			snprintf(err, errlen, "out of memory");
	}
out:
	uprobe_scratch_free(&w.scratch);
	if (in != NULL)
		tracecmd_close(in);
	munmap(map, (size_t)st.st_size);
	return rc;
}
