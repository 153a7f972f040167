/* SPDX-License-Identifier: MIT */
/*
 * trace.dat layout (trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6
 * and .v7): magic, version string, endianness, long size, page size;
 * then v6: header_page and header_event, ftrace and event formats,
 * kallsyms, printk formats, saved command lines, CPU count, options,
 * "flyrecord", one (offset, size) of ring-buffer pages per CPU and, if
 * there was a TRACECLOCK option, the u64-sized text of the trace clock.
 * v7: the compression's name and version, the offset of the first
 * options section, then sections (id, flags, description, size) that
 * tile the rest of the file; options name the metadata sections and,
 * in BUFFER options, where each CPU's pages lie.  A section flagged
 * compressed holds one block (u32 compressed size, u32 size, data);
 * compressed CPU data is a u32 count of such blocks ("chunks").
 *
 * Checked here, as libtracecmd 3.1 reads them: every size and offset
 * against the bytes that hold it, every string for its terminator,
 * counts against what the bytes can hold, every compressed block by
 * decompressing it to exactly its stated size, and every event of
 * every page as libtraceevent's kbuffer walks them (each event inside
 * the page's commit, each step forward).  Files with what this pass
 * cannot vouch for are refused: latency traces, options libtracecmd
 * parses further (hooks, process maps, host-guest time shifts and
 * guests, BTF, modules, last boot info), compression other than zstd.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "cli/decode/perf_unzip.h"
#include "cli/decode/span.h"
#include "cli/decode/trace_dat.h"
#include "cli/decode/trace_dat_check.h"

enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4, OPT_UNAME = 5, OPT_HOOK = 6, OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8, OPT_VERSION = 9, OPT_PROCMAPS = 10, OPT_TRACEID = 11,
	OPT_TIME_SHIFT = 12, OPT_GUEST = 13, OPT_TSC2NSEC = 14, OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16, OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19, OPT_PRINTK = 20, OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22, OPT_BTF_FILE = 23, OPT_LAST_BOOT_INFO = 24,
	OPT_MODULES_FILE = 25,
	SEC_COMPRESSED = 1,	/* the one section flag */
	SEC_HEADER = 16,	/* u16 id, u16 flags, u32 description, u64 size */
	MAX_SECTIONS = 4096,
	MAX_STRING = 4096,	/* version, compression names, system names */
	/* Ring-buffer event types (type_len); 1..28: 4 * type_len data bytes. */
	RB_PADDING = 29, RB_TIME_EXTEND = 30, RB_TIME_STAMP = 31,
};

#define COMMIT_MASK ((UINT64_C(1) << 27) - 1)
#define MISSING_EVENTS (UINT64_C(1) << 31)
#define MISSING_STORED (UINT64_C(1) << 30)

struct section {
	uint64_t at;	/* offset of its header */
	uint16_t id, flags;
	struct span data;	/* in the file: compressed or not */
	bool used;	/* named by an option already */
};

struct check {
	const uint8_t *file;
	size_t len;
	bool big;
	unsigned page_long;	/* the commit field's size; 0: pages unchecked */
	uint32_t page_size;
	bool zstd;
	size_t unzip_left;	/* decompression budget */
	uint32_t cpus;	/* v6: from the header; v7: from CPUCOUNT */
	bool has_cpucount;
	bool top_buffer;	/* a flyrecord of the top instance was found */
	bool trace_clock;	/* v6: a TRACECLOCK option, so the clock's text
				 * follows the CPU data list */
	struct section *secs;	/* v7 */
	size_t nsecs;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An n-byte number (n = 2, 4 or 8) in the file's byte order. */
static uint64_t num(const struct check *c, const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[c->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static bool take_num(const struct check *c, struct span *s, unsigned n, uint64_t *v)
{
	const uint8_t *p;

	if (!take(s, n, &p))
		return false;
	*v = num(c, p, n);
	return true;
}

/* A NUL-terminated string of at most max bytes with its NUL. */
static bool take_str(struct span *s, size_t max, const char **str)
{
	size_t n = s->left < max ? s->left : max;
	const uint8_t *nul = memchr(s->p, '\0', n), *p;

	if (nul == NULL || !take(s, (size_t)(nul - s->p) + 1, &p))
		return false;
	if (str != NULL)
		*str = (const char *)p;
	return true;
}

/* A u32 or u64 (width bytes) length, then that many bytes. */
static bool take_sized(const struct check *c, struct span *s, unsigned width, struct span *out)
{
	uint64_t n;
	const uint8_t *p;

	if (!take_num(c, s, width, &n) || n > s->left || !take(s, (size_t)n, &p))
		return false;
	if (out != NULL)
		*out = (struct span){ p, (size_t)n };
	return true;
}

/* The span of the file from off for size bytes, if the file holds it. */
static bool file_span(const struct check *c, uint64_t off, uint64_t size, struct span *out)
{
	if (off > c->len || size > c->len - off)
		return false;
	*out = (struct span){ c->file + off, (size_t)size };
	return true;
}

/*
 * One compressed block at the start of s (u32 compressed size, u32 size,
 * the zstd data), decompressed into *out (malloc'ed, exactly its stated
 * size, owned by the caller); s moves past it.
 */
static int unzip_block(struct check *c, struct span *s, uint8_t **out, size_t *outlen,
		       const char *what)
{
	uint64_t zsize, size;
	const uint8_t *z;
	size_t got;

	*out = NULL;
	if (!c->zstd)
		return fail(c, "%s compressed in a file that names no compression", what);
	if (!take_num(c, s, 4, &zsize) || !take_num(c, s, 4, &size) || !take(s, (size_t)zsize, &z))
		return fail(c, "%s: compressed block past its end", what);
	if (size > c->unzip_left)
		return fail(c, "%s: decompresses to more than the file can hold (%llu bytes)",
			    what, (unsigned long long)size);
	*out = malloc(size ? (size_t)size : 1);
	if (*out == NULL)
		return fail(c, "out of memory");
	got = ZSTD_decompress(*out, (size_t)size, z, (size_t)zsize);
	if (ZSTD_isError(got) || got != size) {
		free(*out);
		*out = NULL;
		return fail(c, "%s: compressed block does not decompress to its stated size", what);
	}
	c->unzip_left -= (size_t)size;
	*outlen = (size_t)size;
	return 0;
}

/* header_page and header_event, each a name, a u64 size and the text. */
static int check_header_info(struct check *c, struct span *s)
{
	const uint8_t *p;
	struct span page;

	if (!take(s, 12, &p) || memcmp(p, "header_page", 12) != 0)
		return fail(c, "no header_page");
	/* Without it libtraceevent takes the ring buffer's pre-2.6.31
	 * layout, which this check does not walk. */
	if (!take_sized(c, s, 8, &page) || page.left == 0)
		return fail(c, "header_page size past the end of its data");
	if (!take(s, 13, &p) || memcmp(p, "header_event", 13) != 0)
		return fail(c, "no header_event");
	if (!take_sized(c, s, 8, NULL))
		return fail(c, "header_event size past the end of its data");
	return 0;
}

/* A u32 count of u64-sized format files. */
static int check_formats(struct check *c, struct span *s, const char *what)
{
	uint64_t n;

	if (!take_num(c, s, 4, &n))
		return fail(c, "%s count past the end of its data", what);
	for (uint64_t i = 0; i < n; i++) {
		if (!take_sized(c, s, 8, NULL))
			return fail(c, "%s %llu past the end of its data", what, (unsigned long long)i);
	}
	return 0;
}

/* A u32 count of systems, each a name and its formats. */
static int check_event_systems(struct check *c, struct span *s)
{
	uint64_t n;

	if (!take_num(c, s, 4, &n))
		return fail(c, "event system count past the end of its data");
	for (uint64_t i = 0; i < n; i++) {
		if (!take_str(s, MAX_STRING, NULL))
			return fail(c, "event system %llu: name unterminated", (unsigned long long)i);
		if (check_formats(c, s, "event format") < 0)
			return -1;
	}
	return 0;
}

/*
 * One ring-buffer page: u64 time stamp, commit size and flags (of the
 * size of header_page's commit field), then events up to the commit.  Walks them
 * exactly as kbuffer does, so that each event it will hand out lies
 * inside the commit and each step moves forward.
 */
static int check_page(struct check *c, const uint8_t *page, uint32_t cpu)
{
	size_t start = 8 + c->page_long, room = c->page_size - start;
	uint64_t flags = num(c, page + 8, c->page_long), commit = flags & COMMIT_MASK;
	const uint8_t *d = page + start;
	size_t at = 0;

	if (commit > room)
		return fail(c, "CPU %u: page commit %llu past the page", cpu, (unsigned long long)commit);
	/* The number of lost events, stored after the commit. */
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) && room - commit < c->page_long)
		return fail(c, "CPU %u: lost-event count past the page", cpu);
	while (at < commit) {
		uint32_t head, type_len;
		uint64_t next;

		if (commit - at < 4)
			return fail(c, "CPU %u: event header past the page's commit", cpu);
		head = (uint32_t)num(c, d + at, 4);
		type_len = c->big ? head >> 27 : head & 31;
		/* A second word: padding's or data's length, or the high
		 * bits of a time extension.  Padding (the rest of the page,
		 * or a discarded event) may end past the commit, where the
		 * walk stops; its length is read all the same. */
		if (type_len == RB_PADDING ? room - at < 8 :
		    (type_len > RB_PADDING || type_len == 0) && commit - at < 8)
			return fail(c, "CPU %u: event header past the page's commit", cpu);
		if (type_len == RB_PADDING) {
			uint32_t n = (uint32_t)num(c, d + at + 4, 4);

			if (n > INT32_MAX)	/* (kbuffer: an int) */
				return fail(c, "CPU %u: padding of negative length", cpu);
			next = at + 4 + n;
			if (next >= commit)
				break;
		} else if (type_len == RB_TIME_EXTEND || type_len == RB_TIME_STAMP) {
			next = at + 8;
		} else if (type_len == 0) {
			uint32_t n = (uint32_t)num(c, d + at + 4, 4);

			/* kbuffer: length n - 4 rounded up to 4, as an int. */
			if (n < 4 || n > INT32_MAX - 3)
				return fail(c, "CPU %u: event of impossible length %u", cpu, n);
			next = at + 8 + ((n - 4 + 3) & ~UINT32_C(3));
		} else {
			next = at + 4 + 4 * (uint64_t)type_len;
		}
		if (next > commit)
			return fail(c, "CPU %u: event past the page's commit", cpu);
		at = (size_t)next;
	}
	return 0;
}

static int check_pages(struct check *c, struct span s, uint32_t cpu)
{
	const uint8_t *page;

	if (s.left % c->page_size != 0)
		return fail(c, "CPU %u: data not a whole number of pages", cpu);
	if (c->page_long == 0)
		return 0;
	while (take(&s, c->page_size, &page)) {
		if (check_page(c, page, cpu) < 0)
			return -1;
	}
	return 0;
}

/* Compressed CPU data: a u32 count of blocks of whole pages. */
static int check_chunks(struct check *c, struct span s, uint32_t cpu)
{
	uint64_t n;
	int rc = 0;

	if (!take_num(c, &s, 4, &n) || n > s.left / 8)
		return fail(c, "CPU %u: chunk count past its data", cpu);
	for (uint64_t i = 0; i < n && rc == 0; i++) {
		uint8_t *buf;
		size_t len;

		if (unzip_block(c, &s, &buf, &len, "CPU data") < 0)
			return -1;
		rc = check_pages(c, (struct span){ buf, len }, cpu);
		free(buf);
	}
	return rc;
}

/* One CPU's uncompressed data, [off, off + size) of the file. */
static int check_cpu_data(struct check *c, uint32_t cpu, uint64_t off, uint64_t size)
{
	struct span s;

	if (size == 0)
		return 0;
	if (!file_span(c, off, size, &s))
		return fail(c, "CPU %u: data past the end of the file (truncated?)", cpu);
	/* trace-cmd aligns it for libtracecmd to map, which else complains
	 * on stderr. */
	if (off % c->page_size != 0)
		return fail(c, "CPU %u: data not aligned to a page", cpu);
	return check_pages(c, s, cpu);
}

/*
 * A trace clock's text, as trace_clock lists them: "local [global] ...".
 * libtracecmd takes the first space-separated word that starts with
 * '[' and reads the clock inside the brackets; a word of brackets only
 * gives it no clock name, which it passes to sscanf as NULL.
 */
static int check_trace_clock(struct check *c, const uint8_t *p, size_t n)
{
	const uint8_t *end = memchr(p, '\0', n);

	if (end == NULL)
		end = p + n;
	while (p < end) {
		size_t len = strcspn((const char *)p, " ");

		if (p + len > end)
			len = (size_t)(end - p);
		if (len > 0 && *p == '[') {
			for (size_t i = 0; i < len; i++) {
				if (p[i] != '[' && p[i] != ']')
					return 0;
			}
			return fail(c, "trace clock without a name");
		}
		p += len + 1;
	}
	return 0;
}

/* A string option: libtracecmd strdup()s or parses it as one. */
static int check_string_option(struct check *c, struct span o, unsigned id)
{
	if (o.left == 0 || o.p[o.left - 1] != '\0')
		return fail(c, "option %u: unterminated string", id);
	return 0;
}

static struct section *find_section(struct check *c, uint64_t at, uint16_t id)
{
	for (size_t i = 0; i < c->nsecs; i++) {
		if (c->secs[i].at == at)
			return c->secs[i].id == id ? &c->secs[i] : NULL;
	}
	return NULL;
}

/* A section's content: its data, or what its one block decompresses to
 * (*buf, to be freed). */
static int section_content(struct check *c, const struct section *sec, struct span *out,
			   uint8_t **buf, const char *what)
{
	struct span s = sec->data;
	size_t len;

	*buf = NULL;
	if (!(sec->flags & SEC_COMPRESSED)) {
		*out = s;
		return 0;
	}
	if (unzip_block(c, &s, buf, &len, what) < 0)
		return -1;
	*out = (struct span){ *buf, len };
	return 0;
}

/*
 * The printk formats: "ADDR : FORMAT" lines, which libtraceevent 1.7's
 * tep_parse_printk_formats splits with strtok_r and then copies from one
 * byte past the ':' (the space): a line with no ':', or one ending at
 * it, makes it read past the string.  The text ends at its first NUL
 * (libtracecmd terminates the copy it hands over).
 */
static int check_printk(struct check *c, struct span s)
{
	const char *p = (const char *)s.p;
	size_t n = strnlen(p, s.left);

	for (size_t at = 0; at < n;) {
		const char *line = p + at;
		const char *nl = memchr(line, '\n', n - at);
		size_t len = nl ? (size_t)(nl - line) : n - at;
		size_t i = 0;

		at += len + (nl != NULL);
		if (len == 0)
			continue;	/* strtok_r skips empty lines */
		while (i < len && line[i] == ':')
			i++;
		if (i == len)
			continue;	/* no token: the parse stops there */
		while (i < len && line[i] != ':')
			i++;
		if (i + 1 >= len)
			return fail(c, "printk formats: a line without \"ADDR : FORMAT\"");
	}
	return 0;
}

/* The metadata section an option names, by its offset. */
static int check_meta_section(struct check *c, struct span o, unsigned id)
{
	static const char *const names[] = {
		[OPT_HEADER_INFO] = "header info", [OPT_FTRACE_EVENTS] = "ftrace formats",
		[OPT_EVENT_FORMATS] = "event formats", [OPT_KALLSYMS] = "kallsyms",
		[OPT_PRINTK] = "printk formats", [OPT_CMDLINES] = "command lines",
	};
	struct section *sec;
	struct span s;
	uint8_t *buf;
	uint64_t at;
	int rc;

	if (o.left != 8)
		return fail(c, "option %u: size %zu, not 8", id, o.left);
	at = num(c, o.p, 8);
	sec = find_section(c, at, (uint16_t)id);
	if (sec == NULL)
		return fail(c, "%s: no such section at %llu", names[id], (unsigned long long)at);
	if (sec->used)
		return fail(c, "%s: section named twice", names[id]);
	sec->used = true;
	if (section_content(c, sec, &s, &buf, names[id]) < 0)
		return -1;
	switch (id) {
	case OPT_HEADER_INFO:
		rc = check_header_info(c, &s);
		break;
	case OPT_FTRACE_EVENTS:
		rc = check_formats(c, &s, "ftrace format");
		break;
	case OPT_EVENT_FORMATS:
		rc = check_event_systems(c, &s);
		break;
	case OPT_KALLSYMS:
		rc = take_sized(c, &s, 4, NULL) ? 0 : fail(c, "%s size past its section", names[id]);
		break;
	case OPT_PRINTK: {
		struct span text;
		rc = take_sized(c, &s, 4, &text) ? check_printk(c, text)
						 : fail(c, "%s size past its section", names[id]);
		break;
	}
	default:	/* OPT_CMDLINES */
		rc = take_sized(c, &s, 8, NULL) ? 0 : fail(c, "%s size past its section", names[id]);
		break;
	}
	free(buf);
	return rc;
}

/*
 * A BUFFER option: u64 offset, instance name ("" for the top one); in
 * v7 then clock, u32 page size, u32 CPU count and per CPU u32 id, u64
 * offset, u64 size.  v6 keeps the top instance's CPU data after the
 * options instead, and other instances are never read by decode.
 */
static int check_buffer_option(struct check *c, struct span o, bool v7)
{
	uint64_t at, page_size, cpus;
	const char *name;
	struct section *sec;
	bool seen[TRACE_DAT_MAX_CPUS] = { false };
	int rc;

	if (!take_num(c, &o, 8, &at) || !take_str(&o, o.left, &name))
		return fail(c, "buffer option: malformed");
	if (!v7) {
		if (at > c->len)
			return fail(c, "buffer option: offset past the end of the file");
		return 0;
	}
	if (!take_str(&o, o.left, NULL) || !take_num(c, &o, 4, &page_size) ||
	    !take_num(c, &o, 4, &cpus))
		return fail(c, "buffer option: malformed");
	if (page_size != c->page_size)
		return fail(c, "buffer option: page size %llu, not the file's %u",
			    (unsigned long long)page_size, c->page_size);
	if (cpus > TRACE_DAT_MAX_CPUS || cpus > o.left / 20)
		return fail(c, "buffer option: CPU count past its data");
	sec = find_section(c, at, OPT_BUFFER);
	if (sec == NULL || sec->used)
		return fail(c, "buffer option: no flyrecord section at %llu", (unsigned long long)at);
	sec->used = true;
	if (*name == '\0')
		c->top_buffer = true;
	for (uint64_t i = 0; i < cpus; i++) {
		uint64_t cpu, off, size;
		size_t sec_off = (size_t)(sec->data.p - c->file);

		take_num(c, &o, 4, &cpu);
		take_num(c, &o, 8, &off);
		take_num(c, &o, 8, &size);
		if (cpu >= TRACE_DAT_MAX_CPUS || seen[cpu])
			return fail(c, "buffer option: bad or repeated CPU %llu", (unsigned long long)cpu);
		seen[cpu] = true;
		if (size == 0)
			continue;
		/* Each CPU's data lies inside the section.  Compressed, its
		 * size leaves out the chunk count: libtracecmd reads the
		 * chunks the count gives, so they are checked up to the
		 * section's end. */
		if (off < sec_off || off - sec_off > sec->data.left ||
		    size > sec->data.left - (off - sec_off))
			return fail(c, "CPU %llu: data outside its section", (unsigned long long)cpu);
		if (sec->flags & SEC_COMPRESSED)
			rc = check_chunks(c, (struct span){ c->file + off,
				sec->data.left - (size_t)(off - sec_off) }, (uint32_t)cpu);
		else
			rc = check_cpu_data(c, (uint32_t)cpu, off, size);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/*
 * Options: u16 id, u32 size, data; v6 ends them with a bare id 0, v7
 * with DONE (id 0, size 8: the offset of the next options section, 0
 * for none), returned in *next.
 */
static int check_options(struct check *c, struct span *s, bool v7, uint64_t *next)
{
	*next = 0;
	for (;;) {
		uint64_t id, size;
		struct span o;
		int rc = 0;

		if (!take_num(c, s, 2, &id))
			return fail(c, "options past the end of their data");
		if (!v7 && id == OPT_DONE)
			return 0;
		if (!take_num(c, s, 4, &size) || size > s->left || !take(s, (size_t)size, &o.p))
			return fail(c, "option %llu past the end of its data", (unsigned long long)id);
		o.left = (size_t)size;
		switch (id) {
		case OPT_DONE:
			if (size != 8)
				return fail(c, "options end of size %llu, not 8", (unsigned long long)size);
			*next = num(c, o.p, 8);
			return 0;
		case OPT_TRACECLOCK:
			c->trace_clock = true;
			rc = check_string_option(c, o, (unsigned)id);
			if (rc == 0)
				rc = check_trace_clock(c, o.p, o.left);
			break;
		case OPT_DATE:
		case OPT_CPUSTAT:
		case OPT_UNAME:
		case OPT_OFFSET:
		case OPT_VERSION:
			rc = check_string_option(c, o, (unsigned)id);
			break;
		case OPT_CPUCOUNT:
			if (size != 4)
				return fail(c, "CPU count option of size %llu, not 4", (unsigned long long)size);
			if (num(c, o.p, 4) > TRACE_DAT_MAX_CPUS)
				return fail(c, "CPU count %llu", (unsigned long long)num(c, o.p, 4));
			/* v6 lists the header's count of CPU data: another
			 * count would change how many libtracecmd reads. */
			if (!v7 && num(c, o.p, 4) != c->cpus)
				return fail(c, "CPU count option differs from the header's");
			c->cpus = (uint32_t)num(c, o.p, 4);
			c->has_cpucount = true;
			break;
		case OPT_BUFFER:
			rc = check_buffer_option(c, o, v7);
			break;
		case OPT_HEADER_INFO:
		case OPT_FTRACE_EVENTS:
		case OPT_EVENT_FORMATS:
		case OPT_KALLSYMS:
		case OPT_PRINTK:
		case OPT_CMDLINES:
			if (!v7)
				return fail(c, "option %llu in a version 6 file", (unsigned long long)id);
			rc = check_meta_section(c, o, (unsigned)id);
			break;
		case OPT_BUFFER_TEXT:
			return fail(c, "a latency trace: no events to decode");
		case OPT_HOOK:
		case OPT_PROCMAPS:
		case OPT_TIME_SHIFT:
		case OPT_GUEST:
		case OPT_BTF_FILE:
		case OPT_LAST_BOOT_INFO:
		case OPT_MODULES_FILE:
			/* Parsed by libtracecmd in ways not checked here (the
			 * process maps allocate a count the text gives, say),
			 * and of no use to decode. */
			return fail(c, "option %llu is not supported", (unsigned long long)id);
		default:
			/* TRACEID and TSC2NSEC are size-checked by libtracecmd,
			 * STRINGS is read as a section; others it skips. */
			break;
		}
		if (rc < 0)
			return rc;
	}
}

static int check_v6(struct check *c, struct span s)
{
	uint64_t cpus, next;
	const uint8_t *p;

	if (check_header_info(c, &s) < 0 || check_formats(c, &s, "ftrace format") < 0 ||
	    check_event_systems(c, &s) < 0)
		return -1;
	if (!take_sized(c, &s, 4, NULL))
		return fail(c, "kallsyms size past the end of the file");
	struct span printk;
	if (!take_sized(c, &s, 4, &printk))
		return fail(c, "printk formats size past the end of the file");
	if (check_printk(c, printk) < 0)
		return -1;
	if (!take_sized(c, &s, 8, NULL))
		return fail(c, "command lines size past the end of the file");
	if (!take_num(c, &s, 4, &cpus) || cpus > TRACE_DAT_MAX_CPUS)
		return fail(c, "bad CPU count");
	c->cpus = (uint32_t)cpus;
	if (!take(&s, 10, &p))
		return fail(c, "no flyrecord");
	if (memcmp(p, "options  ", 10) == 0) {
		if (check_options(c, &s, false, &next) < 0)
			return -1;
		if (!take(&s, 10, &p))
			return fail(c, "no flyrecord");
	}
	if (memcmp(p, "latency  ", 10) == 0)
		return fail(c, "a latency trace: no events to decode");
	if (memcmp(p, "flyrecord", 10) != 0)
		return fail(c, "no flyrecord");
	if (cpus > s.left / 16)
		return fail(c, "CPU data list past the end of the file");
	for (uint32_t cpu = 0; cpu < c->cpus; cpu++) {
		uint64_t off, size;

		take_num(c, &s, 8, &off);
		take_num(c, &s, 8, &size);
		if (check_cpu_data(c, cpu, off, size) < 0)
			return -1;
	}
	if (c->trace_clock) {
		struct span clock;

		if (!take_sized(c, &s, 8, &clock))
			return fail(c, "trace clock size past the end of the file");
		return check_trace_clock(c, clock.p, clock.left);
	}
	return 0;
}

/* The sections from s to the end of the file, in c->secs.  libtracecmd
 * walks this chain to find the strings section, so it must tile the
 * file. */
static int list_sections(struct check *c, struct span s)
{
	while (s.left > 0) {
		struct section *sec;
		uint64_t id, flags, desc, size;

		if (c->nsecs == MAX_SECTIONS)
			return fail(c, "more than %d sections", MAX_SECTIONS);
		sec = &c->secs[c->nsecs];
		sec->at = (uint64_t)(s.p - c->file);
		if (!take_num(c, &s, 2, &id) || !take_num(c, &s, 2, &flags) ||
		    !take_num(c, &s, 4, &desc) || !take_num(c, &s, 8, &size) ||
		    size > s.left || !take(&s, (size_t)size, &sec->data.p))
			return fail(c, "section at %llu past the end of the file (truncated?)",
				    (unsigned long long)sec->at);
		if (flags & ~(uint64_t)SEC_COMPRESSED)
			return fail(c, "section at %llu: unknown flags", (unsigned long long)sec->at);
		sec->id = (uint16_t)id;
		sec->flags = (uint16_t)flags;
		sec->data.left = (size_t)size;
		sec->used = false;
		c->nsecs++;
	}
	return 0;
}

/* A strings section: NUL-terminated names. */
static int check_strings(struct check *c, const struct section *sec)
{
	struct span s;
	uint8_t *buf;
	int rc = 0;

	if (section_content(c, sec, &s, &buf, "strings") < 0)
		return -1;
	if (s.left == 0 || s.p[s.left - 1] != '\0')
		rc = fail(c, "strings section unterminated");
	free(buf);
	return rc;
}

static int check_v7(struct check *c, struct span s)
{
	uint64_t at, prev = 0;
	int rc = 0;

	if (!take_num(c, &s, 8, &at))
		return fail(c, "header truncated");
	c->secs = calloc(MAX_SECTIONS, sizeof *c->secs);
	if (c->secs == NULL)
		return fail(c, "out of memory");
	if (list_sections(c, s) < 0)
		return -1;
	for (size_t i = 0; i < c->nsecs && rc == 0; i++) {
		if (c->secs[i].id == OPT_STRINGS)
			rc = check_strings(c, &c->secs[i]);
	}
	/* The chain of options sections, each after the one before (a loop
	 * would be libtracecmd's). */
	while (rc == 0 && at != 0) {
		struct section *sec = find_section(c, at, OPT_DONE);
		struct span o;
		uint8_t *buf;

		if (sec == NULL || at <= prev)
			return fail(c, "no options section at %llu", (unsigned long long)at);
		prev = at;
		if (section_content(c, sec, &o, &buf, "options") < 0)
			return -1;
		rc = check_options(c, &o, true, &at);
		free(buf);
	}
	if (rc == 0 && !c->top_buffer)
		return fail(c, "no flyrecord data");
	return rc;
}

int trace_dat_check(const uint8_t *p, size_t len, unsigned page_long, uint32_t *page_size_out,
		    char *err, size_t errlen)
{
	struct check c = { .file = p, .len = len, .err = err, .errlen = errlen,
			   .unzip_left = perf_unzip_limit(len), .page_long = page_long };
	struct span s = { p, len };
	const char *version, *zname, *zversion;
	const uint8_t *h;
	uint64_t page_size;
	int rc;

	if (!take(&s, TRACE_DAT_MAGIC_LEN, &h) || memcmp(h, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN) != 0)
		return fail(&c, "no trace.dat magic");
	if (!take_str(&s, MAX_STRING, &version))
		return fail(&c, "header truncated");
	if (strcmp(version, "6") != 0 && strcmp(version, "7") != 0)
		return fail(&c, "file version '%.20s' (6 and 7 are read)", version);
	if (!take(&s, 2, &h))
		return fail(&c, "header truncated");
	if (h[0] > 1 || (h[1] != 4 && h[1] != 8))
		return fail(&c, "bad endianness or long size");
	c.big = h[0] == 1;
	if (!take_num(&c, &s, 4, &page_size))
		return fail(&c, "header truncated");
	/* Powers of two, 4 KiB (x86) to 1 MiB (ring-buffer sub-buffers). */
	if (page_size < 4096 || page_size > (1u << 20) || (page_size & (page_size - 1)) != 0)
		return fail(&c, "page size %llu", (unsigned long long)page_size);
	c.page_size = (uint32_t)page_size;
	*page_size_out = c.page_size;
	if (strcmp(version, "6") == 0)
		return check_v6(&c, s);
	if (!take_str(&s, MAX_STRING, &zname) || !take_str(&s, MAX_STRING, &zversion))
		return fail(&c, "header truncated");
	if (strcmp(zname, "zstd") == 0)
		c.zstd = true;
	else if (strcmp(zname, "none") != 0)
		return fail(&c, "compressed with '%.20s' (zstd and none are read)", zname);
	rc = check_v7(&c, s);
	free(c.secs);
	return rc;
}
