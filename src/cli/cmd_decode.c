/* SPDX-License-Identifier: MIT */
/* ehsyslog decode: print the EventHeader events of a perf.data or
 * trace.dat file. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/util.h"
#include "cli/output.h"
#include "cli/perf_data.h"
#include "cli/trace_dat.h"

static const char usage[] =
	"usage: ehsyslog decode [OPTIONS] FILE\n"
	"Print the EventHeader events recorded in FILE, a perf.data from `perf record`\n"
	"or a trace.dat from `trace-cmd record` (told apart by their first bytes),\n"
	"sorted by time.  Other events in the file are skipped.\n"
	"\n"
	"  -j, --json             one JSON object per line, as perf-decode prints them\n"
	FILTER_USAGE
	"  -h, --help             show this help\n"
	"\n"
	"Text lines: syslog events as `TIME HOST PROGRAM[PID]: FACILITY.SEVERITY MESSAGE`,\n"
	"other events as `TIME Provider:Event field=value ...`.  FACILITY is the\n"
	"name, or the number where there is none (30.info).  TIME is local wall\n"
	"time (RFC 3339, microseconds) where the file maps its clock to it (perf.data\n"
	"with clock data), else seconds on the trace clock.  A message split over\n"
	"several events is printed once, whole.\n"
	"\n"
	"Records that cannot be decoded are skipped and counted; the events around\n"
	"them are still printed.  If any was skipped, the last line on stderr is\n"
	"  ehsyslog decode: FILE: N records skipped (N1 REASON1, N2 REASON2, ...)\n"
	"(\"1 record\" for one), with these REASONs, in this order: cut by the end\n"
	"of the file (a truncated file: counted once), malformed, not decompressible\n"
	"(perf record -z data), without event names (tracepoint samples of a file\n"
	"cut before its event descriptions), of an unknown event id, without raw\n"
	"data, of an unknown record type, not valid EventHeader.\n"
	"Exit status: 0 every record decoded, 1 records skipped or a file that cannot\n"
	"be read at all (message on stderr), 2 usage error.\n";

static int emit(const struct read_event *ev, void *ctx)
{
	return out_event(ctx, ev) < 0;
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
	rc = perf_data_read(map, (size_t)st.st_size, &info, emit, o, err, errlen);
	memcpy(skipped, info.skipped, sizeof info.skipped);
	if (rc == 0 && out_flush(o) < 0)
		rc = 1;
	if (rc > 0)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	o->host = "-";	/* info goes out of scope */
	munmap(map, (size_t)st.st_size);
	return rc == 0 ? 0 : -1;
}

static int decode_dat(const char *path, struct out *o, char *err, size_t errlen)
{
	char host[256];
	int rc;

	o->host = "-";
	rc = trace_dat_read(path, host, sizeof host, emit, o, err, errlen);
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
		{ "help", no_argument, NULL, 'h' },
		FILTER_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct filter filter = { .min_severity = -1, .any_provider = true };
	unsigned long skipped[SKIPS] = { 0 };
	unsigned char magic[TRACE_DAT_MAGIC_LEN];
	char err[512] = "";
	struct out o;
	bool json = false;
	const char *path;
	ssize_t n;
	int opt, fd, rc;

	setlocale(LC_CTYPE, "");
	optind = 1;
	while ((opt = getopt_long(argc, argv, "jh" FILTER_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			rc = filter_option(&filter, opt, optarg, "decode");
			if (rc == 1)
				break;
			if (rc == 0)
				fputs(usage, stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "ehsyslog decode: expected one FILE\n");
		fputs(usage, stderr);
		return CLI_EXIT_USAGE;
	}
	path = argv[optind];
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ehsyslog decode: %s: %s\n", path, strerror(errno));
		return errno == EACCES ? CLI_EXIT_PERMISSION : CLI_EXIT_RUNTIME;
	}
	n = pread(fd, magic, sizeof magic, 0);
	if (out_init(&o, stdout, "decode", &filter, json, NULL) < 0) {
		fprintf(stderr, "ehsyslog decode: out of memory\n");
		close(fd);
		return CLI_EXIT_RUNTIME;
	}
	if (n >= 8 && memcmp(magic, PERF_DATA_MAGIC, 8) == 0)
		rc = decode_perf(fd, &o, skipped, err, sizeof err);
	else if (n == TRACE_DAT_MAGIC_LEN && memcmp(magic, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN) == 0)
		rc = decode_dat(path, &o, err, sizeof err);
	else if (n < 0)
		rc = -1, snprintf(err, sizeof err, "%s", strerror(errno));
	else
		rc = -1, snprintf(err, sizeof err, "neither a perf.data nor a trace.dat file");
	close(fd);
	if (rc < 0)
		fprintf(stderr, "ehsyslog decode: %s: %s\n", path, err);
	skipped[SKIP_NOT_EVENTHEADER] = o.bad;
	if (report_skips(path, skipped) == 0 && rc == 0) {
		out_free(&o);
		return CLI_EXIT_OK;
	}
	out_free(&o);
	return CLI_EXIT_RUNTIME;
}
