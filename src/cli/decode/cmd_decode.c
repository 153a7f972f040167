/* SPDX-License-Identifier: MIT */
/* ehsyslog decode: print the EventHeader events of a perf.data or
 * trace.dat file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "cli/output/output.h"
#include "cli/decode/perf_data.h"
#include "cli/decode/trace_dat.h"

static const char usage[] =
	"Usage: ehsyslog decode [OPTIONS] FILE\n"
	"Print the EventHeader events recorded in FILE, a perf.data from `perf record`\n"
	"or a trace.dat from `trace-cmd record` (told apart by their first bytes),\n"
	"sorted by time.  Other events in the file are skipped.  FILE - reads\n"
	"standard input (copied to an unnamed temporary file in $TMPDIR, else /tmp,\n"
	"first), named \"standard input\" in messages.\n"
	"\n"
	"  -j, --json             one JSON object per line, as perf-decode prints them\n"
	"  -F, --fields           every event as `TIME Provider:Event field=value ...`,\n"
	"                         syslog events and each part of a split message too:\n"
	"                         after TIME, the line the trace-cmd/perf plugin prints\n"
	FILTER_USAGE
	"  -h, --help             show this help\n"
	"\n"
	"Text lines: syslog events as `TIME HOST PROGRAM[PID]: FACILITY.SEVERITY MESSAGE`,\n"
	"other events as `TIME Provider:Event field=value ...`.  FACILITY is the\n"
	"name, or the number where there is none (30.info).  TIME is local wall\n"
	"time (RFC 3339, microseconds) where the file maps its clock to it (perf.data\n"
	"with clock data), else seconds on the trace clock.  A message split over\n"
	"several events is printed once, whole.  The event's other fields (file and\n"
	"line, the journal's and GLib's fields) follow the message as ` [NAME=\"text\" NAME=123 NAME=hex]`.\n"
	"Records the kernel could not keep are marked where they were lost, whatever\n"
	"the filters, as tail marks them: `-- CPU C: N events lost --` (JSON:\n"
	"{\"lost\":N,\"cpu\":C}), from perf.data's LOST records (of any event: the\n"
	"buffer is shared) and LOST_SAMPLES records, and trace.dat's per-page missed\n"
	"events (`events lost, how many unknown`, JSON null, where the page had no\n"
	"room for the count).\n"
	"\n"
	"Records that cannot be decoded are skipped and counted; the events around\n"
	"them are still printed.  If any was skipped, the last line on stderr is\n"
	"  ehsyslog decode: FILE: N records skipped (N1 REASON1, N2 REASON2, ...)\n"
	"(\"1 record\" for one), with these REASONs, in this order: cut by the end\n"
	"of the file (a truncated file: counted once), malformed, not decompressible\n"
	"(perf record -z data), without event names (tracepoint samples of a file\n"
	"cut before its event descriptions), of an unknown event id, without raw\n"
	"data, of an unknown record type, not valid EventHeader.\n"
	"A trace.dat is checked whole before libtracecmd reads it: one that fails\n"
	"gives `ehsyslog decode: FILE: not a valid trace.dat: REASON`.\n"
	"Exit status: 0 every record decoded, 1 records skipped or a file that cannot\n"
	"be read at all (message on stderr), 2 usage error, 4 permission denied\n"
	"(FILE cannot be opened: perf writes perf.data readable by its user only).\n";

/*
 * The file src (standard input, or one another user could change)
 * copied into an unnamed temporary file, read from its start: both
 * readers map the file, which a pipe cannot be (and libtracecmd reads
 * it again through /proc/self/fd), and a mapped file that its owner
 * truncates kills the reader with SIGBUS.  Returns the file's
 * descriptor, or -1 with the reason in err.  Where the file system has
 * no O_TMPFILE, the file gets a name in tmp, which the caller removes
 * once decoded: some of those file systems (9p, NFS) cannot reopen an
 * unlinked file through /proc/self/fd.  tmp is "" otherwise.
 */
static int copy_to_temp(int src, char tmp[PATH_MAX], char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	off_t total = 0;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		/* A file system without O_TMPFILE: a named one, removed by the caller. */
		if ((size_t)snprintf(tmp, PATH_MAX, "%s/ehsyslog-decode.XXXXXX", dir) >= PATH_MAX) {
			snprintf(err, errlen, "temporary directory name too long: %s", dir);
			tmp[0] = '\0';
			return -1;
		}
		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd < 0)
			tmp[0] = '\0';
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a temporary file in %s: %s", dir, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = read(src, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		if (cli_write_all(fd, buf, (size_t)n) < 0) {
			snprintf(err, errlen, "cannot copy it to a temporary file in %s: %s", dir,
				 strerror(errno));
			goto fail;
		}
		total += n;
	}
	if (total == 0) {
		snprintf(err, errlen, "empty (expected a perf.data or trace.dat file)");
		goto fail;
	}
	return fd;
fail:
	close(fd);
	if (tmp[0])
		unlink(tmp);
	tmp[0] = '\0';
	return -1;
}

/* Whether a user other than this one could truncate or rewrite the
 * file while it is mapped: not ours, or writable by group or others.
 * (fstat failing: the readers report it.) */
static bool others_may_change(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0);
}

static int emit(const struct read_event *ev, void *ctx)
{
	return out_event(ctx, ev) < 0;
}

static int mark_lost(const struct read_lost *lost, void *ctx)
{
	return out_lost(ctx, lost) < 0;
}

/* Records skipped, by reason: the perf.data reader's, then ours. */
enum { SKIP_NOT_EVENTHEADER = PERF_SKIPS, SKIPS };

/* Prints "FILE: N records skipped (N1 REASON1, ...)" if any was; returns
 * their number. */
static unsigned long report_skips(const char *path, const unsigned long *skipped)
{
	unsigned long total = 0;
	const char *sep = "";

	for (int i = 0; i < SKIPS; i++)
		total += skipped[i];
	if (total == 0)
		return 0;
	fprintf(stderr, "ehsyslog decode: %s: %lu record%s skipped (", path, total,
		total == 1 ? "" : "s");
	for (int i = 0; i < SKIPS; i++) {
		if (skipped[i] == 0)
			continue;
		fprintf(stderr, "%s%lu %s", sep, skipped[i],
			i == SKIP_NOT_EVENTHEADER ? "not valid EventHeader" : perf_skip_reason[i]);
		sep = ", ";
	}
	fputs(")\n", stderr);
	return total;
}

static int decode_perf(int fd, struct out *o, unsigned long *skipped, char *err, size_t errlen)
{
	struct perf_data_info info;
	struct stat st;
	void *map;
	int rc;

	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	o->host = info.host;	/* perf_data_read fills it before any event */
	rc = perf_data_read(map, (size_t)st.st_size, &info, emit, mark_lost, o, err, errlen);
	memcpy(skipped, info.skipped, sizeof info.skipped);
	if (rc == 0 && out_flush(o) < 0)
		rc = 1;
	if (rc > 0)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	o->host = "-";	/* info goes out of scope */
	munmap(map, (size_t)st.st_size);
	return rc == 0 ? 0 : -1;
}

static int decode_dat(int fd, struct out *o, char *err, size_t errlen)
{
	char host[256];
	int rc;

	o->host = "-";
	rc = trace_dat_read(fd, host, sizeof host, emit, mark_lost, o, err, errlen);
	if (rc == 0 && out_flush(o) < 0)
		rc = 1;
	if (rc > 0)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	return rc == 0 ? 0 : -1;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fields", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		FILTER_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct filter filter = { .min_severity = -1, .any_provider = true };
	unsigned long skipped[SKIPS] = { 0 };
	unsigned char magic[TRACE_DAT_MAGIC_LEN];
	char err[512] = "", temp_copy[PATH_MAX] = "";
	struct out o;
	bool json = false, fields = false;
	const char *path, *name;
	ssize_t n;
	struct cli_options opts = CLI_OPTIONS("decode", ":jFh" FILTER_SHORT_OPTIONS,
					       longopts, usage);
	int opt, fd, rc;

	setlocale(LC_CTYPE, "");
	while ((opt = cli_option(&opts, argc, argv)) >= 0) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'F':
			fields = true;
			break;
		default:
			if (!filter_argument(&filter, opt, optarg, "decode"))
				return CLI_EXIT_USAGE;
		}
	}
	if (opt == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (json && fields)
		return cli_usage_error("decode", "--json and --fields exclude each other");
	if (argc - optind != 1)
		return cli_usage_error("decode", "expected one FILE");
	path = argv[optind];
	if (strcmp(path, "-") == 0) {
		name = "standard input";
		fd = copy_to_temp(STDIN_FILENO, temp_copy, err, sizeof err);
		if (fd < 0) {
			fprintf(stderr, "ehsyslog decode: %s: %s\n", name, err);
			return CLI_EXIT_RUNTIME;
		}
	} else {
		name = path;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "ehsyslog decode: %s: %s\n", path, strerror(errno));
			return errno == EACCES ? CLI_EXIT_PERMISSION : CLI_EXIT_RUNTIME;
		}
		if (others_may_change(fd)) {
			int copy = copy_to_temp(fd, temp_copy, err, sizeof err);

			close(fd);
			if (copy < 0) {
				fprintf(stderr, "ehsyslog decode: %s: %s\n", name, err);
				return CLI_EXIT_RUNTIME;
			}
			fd = copy;
		}
	}
	n = pread(fd, magic, sizeof magic, 0);
	if (out_init(&o, stdout, "decode", &filter, json, NULL) < 0) {
		fprintf(stderr, "ehsyslog decode: out of memory\n");
		close(fd);
		if (temp_copy[0])
			unlink(temp_copy);
		return CLI_EXIT_RUNTIME;
	}
	o.fields = fields;
	if (n >= 8 && memcmp(magic, PERF_DATA_MAGIC, 8) == 0)
		rc = decode_perf(fd, &o, skipped, err, sizeof err);
	else if (n == TRACE_DAT_MAGIC_LEN && memcmp(magic, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN) == 0)
		rc = decode_dat(fd, &o, err, sizeof err);
	else if (n < 0)
		rc = -1, snprintf(err, sizeof err, "%s", strerror(errno));
	else
		rc = -1, snprintf(err, sizeof err, "neither a perf.data nor a trace.dat file");
	close(fd);
	if (temp_copy[0])
		unlink(temp_copy);
	if (rc < 0)
		fprintf(stderr, "ehsyslog decode: %s: %s\n", name, err);
	skipped[SKIP_NOT_EVENTHEADER] = o.bad;
	if (report_skips(name, skipped) == 0 && rc == 0) {
		out_free(&o);
		return CLI_EXIT_OK;
	}
	out_free(&o);
	return CLI_EXIT_RUNTIME;
}
