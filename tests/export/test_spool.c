/* SPDX-License-Identifier: MIT */
/*
 * The queue's copy on disk (cli/export/queue/spool.h): the exact bytes of a
 * segment and of "ack" (its two slots in turn, the larger that passes
 * taken, one of an earlier export's read), the segments' names, what a new run gets back (what was not
 * acknowledged, in order, once, each record with its resource), a record
 * cut short at the end and a damaged one skipped and said once, as are
 * those whose resource was lost with it, a damaged "ack" sending everything
 * again, the byte bound dropping the newest record, segments removed once
 * acknowledged, and the directory's lock; a directory another user
 * owns or others can write, or a link, refused; an "ack" that is a link,
 * a FIFO or another's file set aside, one past the queue's end taken as
 * damage; another's segment skipped; whatever is at the next segment's
 * name set aside; a segment truncated while it is read back.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "cli/export/queue/queue.h"
#include "cli/export/queue/spool.h"
#include "cli/export/queue/spool_frame.h"

static char dir[] = "/tmp/test_spool.XXXXXX";
static char qdir[64];	/* the queue's directory, in dir */

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(qdir, sizeof qdir, "%s/q", dir);
}

static void remove_dir(void)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/test_spool.XXXXXX");
}

/* The file NAME of the queue's directory, whole, into buf; its size. */
static size_t read_q(const char *name, uint8_t *buf, size_t max)
{
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", qdir, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s missing", path);
	n = fread(buf, 1, max, f);
	ck_assert_int_eq(fclose(f), 0);
	return n;
}

static void write_q(const char *name, const uint8_t *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", qdir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* The names in the queue's directory, sorted, space-separated. */
static const char *names(void)
{
	static char out[8192];
	struct dirent **list;
	int n = scandir(qdir, &list, NULL, alphasort);
	size_t used = 0;

	ck_assert_int_ge(n, 0);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.') {
			int w = snprintf(out + used, sizeof out - used, "%s%s", used ? " " : "",
					 list[i]->d_name);
			ck_assert(w >= 0 && (size_t)w < sizeof out - used);
			used += (size_t)w;
		}
		free(list[i]);
	}
	free(list);
	return out;
}

/* What spool_open gave back: "resource/record@end" each, space-separated. */
struct got {
	char text[4096];
	int n;
};

static void collect(void *ctx, const uint8_t *resource, size_t resource_len,
		    const uint8_t *record, size_t record_len, uint64_t end)
{
	struct got *g = ctx;
	size_t len = strlen(g->text);

	snprintf(g->text + len, sizeof g->text - len, "%s%.*s/%.*s@%llu", len ? " " : "",
		 (int)resource_len, (const char *)resource, (int)record_len, (const char *)record,
		 (unsigned long long)end);
	g->n++;
}

/* stderr goes to a file from here to said(), which returns what came. */
static int saved_stderr = -1;
static char said_path[64];

static void listen_stderr(void)
{
	int fd;

	snprintf(said_path, sizeof said_path, "%s/stderr", dir);
	fd = open(said_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	saved_stderr = dup(2);
	ck_assert_int_ge(saved_stderr, 0);
	ck_assert_int_eq(dup2(fd, 2), 2);
	close(fd);
}

static const char *said(void)
{
	static char out[2048];
	FILE *f;
	size_t n;

	fflush(stderr);
	ck_assert_int_eq(dup2(saved_stderr, 2), 2);
	close(saved_stderr);
	f = fopen(said_path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	fclose(f);
	return out;
}

/* Opens the spool of qdir into s, what it gives back into g. */
static void open_q(struct spool *s, uint64_t max_bytes, struct got *g)
{
	memset(g, 0, sizeof *g);
	ck_assert_int_eq(spool_open(s, qdir, max_bytes, collect, g), 0);
}

/* Opens the spool of qdir into s, checking that it gives back text. */
static void open_expect(struct spool *s, struct got *g, const char *text)
{
	open_q(s, 1 << 20, g);
	ck_assert_str_eq(g->text, text);
}

/* Opens the spool of qdir into s, checking that it says damage in its
 * first segment, bytes from byte from, and gives back text. */
static void open_damaged(struct spool *s, struct got *g, size_t bytes, size_t from,
			 const char *text)
{
	char want[512];

	listen_stderr();
	open_expect(s, g, text);
	snprintf(want, sizeof want, "ehsyslog export: %s/0000000000000000.seg: damaged "
		 "records skipped: %zu bytes from byte %zu\n", qdir, bytes, from);
	ck_assert_str_eq(said(), want);
}

static uint64_t append(struct spool *s, const char *resource, const char *record)
{
	uint64_t end = 0;

	ck_assert(spool_append(s, (const uint8_t *)resource, strlen(resource),
			       (const uint8_t *)record, strlen(record), &end));
	ck_assert(spool_commit(s));
	return end;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* A slot of "ack" holding position, as spool.h says. */
static void ack_slot(uint8_t out[20], uint64_t position)
{
	memcpy(out, "EHSQACK1", 8);
	put32(out + 8, (uint32_t)position);
	put32(out + 12, (uint32_t)(position >> 32));
	put32(out + 16, (uint32_t)crc32(0L, out, 16));
}

/* Appends and commits each record of a list of n, resource then record
 * each. */
static void append_each(struct spool *s, const char *const (*records)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		append(s, records[i][0], records[i][1]);
}

/* A frame as spool.h says, at out: magic, the lengths, the CRC of the
 * lengths and the bytes (the resource's, then the record's), the
 * bytes. */
static void frame_at(uint8_t *out, const char *magic, uint32_t resource_len,
		     uint32_t record_len, const char *bytes)
{
	uLong crc;

	memcpy(out, magic, 4);
	put32(out + 4, resource_len);
	put32(out + 8, record_len);
	crc = crc32(0L, out + 4, 8);
	crc = crc32(crc, (const Bytef *)bytes, resource_len + record_len);
	put32(out + 12, (uint32_t)crc);
	memcpy(out + 16, bytes, resource_len + record_len);
}

START_TEST(framing_exact)
{
	uint8_t want[64], buf[128];
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	ck_assert_int_eq(g.n, 0);
	ck_assert_str_eq(names(), "0000000000000000.seg");
	ck_assert_uint_eq(append(&s, "res", "rec1"), 16 + 16 + 3 + 4);
	/* The segment: magic, base; the frame: magic, lengths, CRC, bytes. */
	memcpy(want, "EHSQSEG1\0\0\0\0\0\0\0\0", 16);
	frame_at(want + 16, "EHSF", 3, 4, "resrec1");
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 39);
	ck_assert_mem_eq(buf, want, 39);
	/* The same resource again: a frame of the resource before, none
	 * in it, its CRC that of the lengths and the record. */
	ck_assert_uint_eq(append(&s, "res", "rec2"), 39 + 16 + 4);
	frame_at(want, "EHSR", 0, 4, "rec2");
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 59);
	ck_assert_mem_eq(buf + 39, want, 20);
	spool_ack(&s, 39);
	ack_slot(want, 39);
	ck_assert_mem_eq(want + 8, "\x27\0\0\0\0\0\0\0", 8);
	ck_assert_uint_eq(read_q("ack", buf, sizeof buf), 20);
	ck_assert_mem_eq(buf, want, 20);
	ck_assert_str_eq(names(), "0000000000000000.seg ack");
	spool_close(&s);
	remove_dir();
}
END_TEST

START_TEST(segment_names)
{
	static const char *const refused[] = {
		"00000000000013E8.seg", "13e8.seg", "00000000000013e8.seg.tmp",
		"000000000000013e8.seg", "0000000000000x3e.seg", "00000000000013e8.sex", "ack",
	};
	char name[SPOOL_NAME_SIZE];
	uint64_t base;

	spool_segment_name(name, 0x13e8);
	ck_assert_str_eq(name, "00000000000013e8.seg");
	ck_assert(spool_segment_base(name, &base));
	ck_assert_uint_eq(base, 0x13e8);
	spool_segment_name(name, UINT64_MAX);
	ck_assert_str_eq(name, "ffffffffffffffff.seg");
	ck_assert(spool_segment_base(name, &base));
	ck_assert_uint_eq(base, UINT64_MAX);
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		ck_assert_msg(!spool_segment_base(refused[i], &base), "%s taken", refused[i]);
}
END_TEST

START_TEST(replay_unacknowledged_once)
{
	struct spool s;
	struct got g;
	uint64_t e1, e2;

	make_dir();
	open_q(&s, 1 << 20, &g);
	e1 = append(&s, "r", "one");
	e2 = append(&s, "r", "two");
	append(&s, "q", "three");
	spool_ack(&s, e1);
	spool_close(&s);
	ck_assert_uint_eq(e2, 55);	/* "r" again: not in the second frame */

	/* A new run gets the two not acknowledged, and writes after them. */
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), "");
	ck_assert_str_eq(g.text, "r/two@55 q/three@77");
	ck_assert_str_eq(names(), "0000000000000000.seg 000000000000004d.seg ack");
	/* A new segment's first frame has its resource. */
	ck_assert_uint_eq(append(&s, "r", "four"), 77 + 16 + 16 + 5);
	/* Acknowledged up to the first run's end: its segment goes. */
	spool_ack(&s, 77);
	ck_assert_str_eq(names(), "000000000000004d.seg ack");
	spool_close(&s);

	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(g.text, "r/four@114");
	ck_assert_str_eq(names(), "000000000000004d.seg 0000000000000072.seg ack");
	spool_ack(&s, 114);
	spool_close(&s);

	/* Everything acknowledged: nothing back, the empty segments gone. */
	open_q(&s, 1 << 20, &g);
	ck_assert_int_eq(g.n, 0);
	ck_assert_str_eq(names(), "0000000000000082.seg ack");
	spool_close(&s);
	remove_dir();
}
END_TEST

/* A new queue of the first n of the records "r/one@36 r/two@55
 * r/three@77", none acknowledged, in 0000000000000000.seg. */
static void queue_records(int n)
{
	static const char *const record[] = { "one", "two", "three" };
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	for (int i = 0; i < n; i++)
		append(&s, "r", record[i]);
	spool_close(&s);
}

/* queue_records(2): the next run's segment is 0000000000000037.seg. */
static void queue_two(void)
{
	queue_records(2);
}

START_TEST(truncated_tail_skipped_and_said)
{
	char want[256], path[128];
	struct spool s;
	struct got g;

	queue_records(3);
	/* The last frame (bytes 55 to 76, no resource in it) lost its
	 * last 5 bytes. */
	snprintf(path, sizeof path, "%s/0000000000000000.seg", qdir);
	ck_assert_int_eq(truncate(path, 76 - 5), 0);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	snprintf(want, sizeof want, "ehsyslog export: %s/0000000000000000.seg: a record cut "
		 "short skipped: 16 bytes from byte 55\n", qdir);
	ck_assert_str_eq(said(), want);
	ck_assert_str_eq(g.text, "r/one@36 r/two@55");
	/* This run's records follow the damaged file's end. */
	ck_assert_str_eq(names(), "0000000000000000.seg 0000000000000047.seg");
	ck_assert_uint_eq(append(&s, "r", "four"), 71 + 16 + 16 + 5);
	spool_close(&s);
	remove_dir();
}
END_TEST

START_TEST(damaged_record_skipped_and_said)
{
	uint8_t buf[256];
	struct spool s;
	struct got g;
	size_t n;

	make_dir();
	open_q(&s, 1 << 20, &g);
	append(&s, "r", "one");
	append(&s, "r", "two");
	append(&s, "r", "three");
	append(&s, "q", "four");
	spool_close(&s);
	/* A byte of the second record's body, and the third's length: the
	 * fourth, of a resource of its own, is found after them by its
	 * mark. */
	n = read_q("0000000000000000.seg", buf, sizeof buf);
	ck_assert_uint_eq(n, 97);
	buf[36 + 16 + 2] ^= 0x20;
	buf[55 + 4] = 0x7f;
	write_q("0000000000000000.seg", buf, n);
	open_damaged(&s, &g, 40, 36, "r/one@36 q/four@97");
	spool_close(&s);

	/* Said once: a new run that acknowledged nothing says it again, as
	 * it is still there; one that acknowledged past it does not. */
	open_damaged(&s, &g, 40, 36, "r/one@36 q/four@97");
	spool_ack(&s, 97);
	spool_close(&s);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), "");
	ck_assert_int_eq(g.n, 0);
	spool_close(&s);
	remove_dir();
}
END_TEST

/* Each record gets its own resource back, whether its frame has it or
 * refers to the one before, even when that one was acknowledged. */
START_TEST(resources_mixed_replayed)
{
	static const char *const records[][2] = {
		{ "r", "one" }, { "r", "two" }, { "q", "three" }, { "q", "four" }, { "r", "five" },
	};
	static const char *const kinds[] = { "EHSF", "EHSR", "EHSF", "EHSR", "EHSF" };
	static const size_t starts[] = { 16, 36, 55, 77, 97 };
	uint8_t buf[256];
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	append_each(&s, records, 5);
	spool_close(&s);
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 118);
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		ck_assert_mem_eq(buf + starts[i], kinds[i], 4);
	open_expect(&s, &g, "r/one@36 r/two@55 q/three@77 q/four@97 r/five@118");
	spool_ack(&s, 36);
	spool_close(&s);
	open_expect(&s, &g, "r/two@55 q/three@77 q/four@97 r/five@118");
	spool_close(&s);
	remove_dir();
}
END_TEST

/* A segment of an earlier export, every frame in full even where the
 * resource repeats, replays as it did. */
START_TEST(old_segment_replayed)
{
	uint8_t seg[64];
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	spool_close(&s);
	memcpy(seg, "EHSQSEG1\0\0\0\0\0\0\0\0", 16);
	frame_at(seg + 16, "EHSF", 1, 3, "rone");
	frame_at(seg + 36, "EHSF", 1, 3, "rtwo");
	write_q("0000000000000000.seg", seg, 56);
	listen_stderr();
	open_expect(&s, &g, "r/one@36 r/two@56");
	ck_assert_str_eq(said(), "");
	spool_close(&s);
	remove_dir();
}
END_TEST

/* A frame of the resource before, after damage or first in its
 * segment, is skipped as damage: that resource may have been in the
 * damage, and the one before it is another record's. */
START_TEST(resource_before_lost_skipped)
{
	static const char *const records[][2] = {
		{ "r", "one" }, { "r", "two" }, { "r", "three" }, { "q", "four" }, { "q", "five" },
	};
	uint8_t buf[256], seg[256];
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	append_each(&s, records, 5);
	spool_close(&s);
	/* The first frame's resource damaged: two and three, whole,
	 * have none; four has its own again. */
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 117);
	buf[16 + 16] ^= 1;
	write_q("0000000000000000.seg", buf, 117);
	open_damaged(&s, &g, 60, 16, "q/four@97 q/five@117");
	spool_close(&s);

	/* A segment that starts with one (made by hand: the writer never
	 * does) skips it likewise. */
	memcpy(seg, buf, 16);
	memcpy(seg + 16, buf + 36, 117 - 36);
	write_q("0000000000000000.seg", seg, 117 - 20);
	open_damaged(&s, &g, 40, 16, "q/four@77 q/five@97");
	spool_close(&s);
	remove_dir();
}
END_TEST

START_TEST(damaged_segment_header_and_ack)
{
	uint8_t buf[256];
	char want[512];
	struct spool s;
	struct got g;
	size_t n;

	make_dir();
	open_q(&s, 1 << 20, &g);
	append(&s, "r", "one");
	spool_ack(&s, append(&s, "r", "two"));
	spool_close(&s);
	/* The ack damaged: everything is sent again. */
	n = read_q("ack", buf, sizeof buf);
	buf[9] ^= 1;
	write_q("ack", buf, n);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	snprintf(want, sizeof want, "ehsyslog export: %s/ack: damaged: every record in %s is "
		 "sent again\n", qdir, qdir);
	ck_assert_str_eq(said(), want);
	ck_assert_str_eq(g.text, "r/one@36 r/two@55");
	spool_close(&s);

	/* A segment whose header is not its name's: skipped, kept. */
	write_q("00000000000000ff.seg", (const uint8_t *)"EHSQSEG1\0\0\0\0\0\0\0\0", 16);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	snprintf(want, sizeof want, "ehsyslog export: %s/ack: damaged: every record in %s is "
		 "sent again\nehsyslog export: %s/00000000000000ff.seg: not a queue segment "
		 "(its header): skipped\n", qdir, qdir, qdir);
	ck_assert_str_eq(said(), want);
	ck_assert_str_eq(g.text, "r/one@36 r/two@55");
	ck_assert_str_eq(names(), "0000000000000000.seg 00000000000000ff.seg "
				  "000000000000010f.seg ack");
	spool_close(&s);
	remove_dir();
}
END_TEST

/* "ack" is written in place, in its two slots in turn; the larger
 * position of those that pass is taken, so that a damaged one leaves
 * the one before; an "ack" of one slot (an earlier export's) is read. */
/* Whether "ack" holds its two slots, positions first and second. */
static void expect_ack(uint64_t first, uint64_t second)
{
	uint8_t buf[128], want[20];

	ck_assert_uint_eq(read_q("ack", buf, sizeof buf), 32 + 20);
	ack_slot(want, first);
	ck_assert_mem_eq(buf, want, 20);
	ack_slot(want, second);
	ck_assert_mem_eq(buf + 32, want, 20);
}

START_TEST(ack_in_two_slots)
{
	uint8_t buf[128], want[20];
	struct spool s;
	struct got g;
	uint64_t e1, e2, e3;

	make_dir();
	open_q(&s, 1 << 20, &g);
	e1 = append(&s, "r", "one");
	e2 = append(&s, "r", "two");
	e3 = append(&s, "r", "three");
	append(&s, "r", "four");	/* kept: the segment stays */
	spool_ack(&s, e1);
	ck_assert_uint_eq(read_q("ack", buf, sizeof buf), 20);
	ack_slot(want, e1);
	ck_assert_mem_eq(buf, want, 20);
	spool_ack(&s, e2);
	expect_ack(e1, e2);
	spool_close(&s);
	open_expect(&s, &g, "r/three@76 r/four@96");
	spool_close(&s);

	/* The larger first: taken, and the next goes over the other. */
	memset(buf, 0, sizeof buf);
	ack_slot(buf, e2);
	ack_slot(buf + 32, e1);
	write_q("ack", buf, 32 + 20);
	open_expect(&s, &g, "r/three@76 r/four@96");
	spool_ack(&s, e3);
	expect_ack(e2, e3);
	spool_close(&s);

	/* The larger damaged (a write torn): the other, silently, as a
	 * crash before that write would have. */
	memset(buf, 0, sizeof buf);
	ack_slot(buf, e1);
	ack_slot(buf + 32, e2);
	buf[32 + 9] ^= 1;
	write_q("ack", buf, 32 + 20);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), "");
	ck_assert_str_eq(g.text, "r/two@55 r/three@76 r/four@96");
	/* The damaged one is written next: the good one stays. */
	spool_ack(&s, e2);
	expect_ack(e1, e2);
	spool_close(&s);

	/* One slot, as an earlier export wrote it: read; the next ack
	 * goes into the second. */
	ack_slot(buf, e2);
	write_q("ack", buf, 20);
	open_expect(&s, &g, "r/three@76 r/four@96");
	spool_ack(&s, e3);
	expect_ack(e2, e3);
	spool_close(&s);
	open_expect(&s, &g, "r/four@96");
	spool_close(&s);
	remove_dir();
}
END_TEST

START_TEST(name_past_positions_skipped)
{
	char want[256];
	struct spool s;
	struct got g;

	make_dir();
	open_q(&s, 1 << 20, &g);
	spool_close(&s);
	/* Positions after it would not fit in 64 bits: not taken as the
	 * log's end, so this run's segment starts after the last run's. */
	write_q("ffffffffffffff00.seg", (const uint8_t *)"x", 1);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	snprintf(want, sizeof want, "ehsyslog export: %s/ffffffffffffff00.seg: not a queue "
		 "segment (its name): skipped\n", qdir);
	ck_assert_str_eq(said(), want);
	ck_assert_str_eq(names(), "0000000000000010.seg ffffffffffffff00.seg");
	ck_assert_uint_eq(append(&s, "r", "one"), 16 + 36);
	spool_close(&s);
	remove_dir();
}
END_TEST

START_TEST(bound_drops_the_newest)
{
	struct spool sp;
	struct queue q;
	struct got g;
	uint8_t buf[256];

	make_dir();
	/* Room for the header and three frames: one of 20 bytes, two of
	 * 18 (the resource before's). */
	open_q(&sp, 16 + 20 + 2 * 18, &g);
	ck_assert_int_eq(queue_init(&q, 100, 1 << 20), 0);
	q.spool = &sp;
	for (int i = 0; i < 4; i++) {
		char rec[3] = { 'a', (char)('0' + i), '\0' };

		ck_assert(queue_push(&q, (const uint8_t *)"rr", 2, (const uint8_t *)rec, 2, 0) == (i < 3));
		ck_assert(queue_commit(&q));
	}
	ck_assert_uint_eq(q.len, 3);
	ck_assert_uint_eq(q.dropped, 1);
	ck_assert_mem_eq(queue_at(&q, 2)->record, "a2", 2);
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 72);
	/* One sent: its bytes are given back with its segment's, not
	 * before: still full. */
	queue_pop(&q, 1);
	ck_assert(!queue_push(&q, (const uint8_t *)"rr", 2, (const uint8_t *)"a4", 2, 0));
	ck_assert_uint_eq(q.dropped, 2);
	queue_free(&q);
	spool_close(&sp);

	/* The memory queue's own bound, on a new run, drops the newest
	 * too. */
	open_q(&sp, 16 + 20 + 2 * 18, &g);
	ck_assert_str_eq(g.text, "rr/a1@54 rr/a2@72");
	spool_close(&sp);
	ck_assert_int_eq(queue_init(&q, 1, 1 << 20), 0);
	ck_assert_int_eq(spool_open(&sp, qdir, 1 << 20, queue_restore, &q), 0);
	ck_assert_uint_eq(q.len, 1);
	ck_assert_uint_eq(q.dropped, 1);
	ck_assert_mem_eq(queue_at(&q, 0)->record, "a1", 2);
	ck_assert_uint_eq(queue_at(&q, 0)->end, 54);
	queue_free(&q);
	spool_close(&sp);
	remove_dir();
}
END_TEST

START_TEST(acknowledged_segments_removed)
{
	static char big[1001];
	struct spool sp;
	struct queue q;
	struct got g;

	make_dir();
	memset(big, 'x', 1000);
	/* Segments of 4096 bytes (an eighth of 32768): a frame of 1016
	 * bytes; the fifth makes the first 5096 long, the sixth starts the
	 * next. */
	open_q(&sp, 32768, &g);
	ck_assert_int_eq(queue_init(&q, 100, 1 << 20), 0);
	q.spool = &sp;
	for (int i = 0; i < 6; i++) {
		ck_assert(queue_push(&q, (const uint8_t *)"", 0, (const uint8_t *)big, 1000, 0));
		ck_assert(queue_commit(&q));	/* a batch each: the sixth starts a segment */
	}
	ck_assert_str_eq(names(), "0000000000000000.seg 00000000000013e8.seg");
	ck_assert_uint_eq(sp.bytes, 5096 + 16 + 1016);
	queue_pop(&q, 4);
	ck_assert_str_eq(names(), "0000000000000000.seg 00000000000013e8.seg ack");
	queue_pop(&q, 1);
	ck_assert_str_eq(names(), "00000000000013e8.seg ack");
	ck_assert_uint_eq(sp.bytes, 16 + 1016);
	ck_assert_uint_eq(sp.acked, 5096);
	queue_free(&q);
	spool_close(&sp);
	/* The one left is back, alone. */
	open_q(&sp, 32768, &g);
	ck_assert_int_eq(g.n, 1);
	ck_assert_str_eq(names(), "00000000000013e8.seg 00000000000017f0.seg ack");
	spool_close(&sp);
	remove_dir();
}
END_TEST

/* A read pass's records are written in one batch, and queued (to be
 * sent) only then; a batch that cannot be written is dropped whole,
 * counted and said once, and leaves nothing in the segment. */
START_TEST(batch_written_then_queued)
{
	char seg[128];
	int keep, ro;
	uint8_t buf[512];
	struct spool sp;
	struct queue q;
	struct got g;
	char want[256];
	size_t size;

	make_dir();
	open_q(&sp, 1 << 20, &g);
	ck_assert_int_eq(queue_init(&q, 100, 1 << 20), 0);
	q.spool = &sp;
	ck_assert(queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"a", 1, 0));
	ck_assert(queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"b", 1, 0));
	ck_assert(queue_push(&q, (const uint8_t *)"s", 1, (const uint8_t *)"c", 1, 0));
	ck_assert_uint_eq(q.len, 0);
	ck_assert_uint_eq(q.staged, 3);
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), 16);
	ck_assert(queue_commit(&q));
	ck_assert_uint_eq(q.len, 3);
	ck_assert_uint_eq(q.staged, 0);
	ck_assert_uint_eq(queue_at(&q, 2)->end, 16 + 18 + 17 + 18);	/* b without "r" */
	size = read_q("0000000000000000.seg", buf, sizeof buf);
	ck_assert_uint_eq(size, 16 + 18 + 17 + 18);

	/* The segment's descriptor made read-only: the next batch fails. */
	snprintf(seg, sizeof seg, "%s/0000000000000000.seg", qdir);
	keep = dup(sp.fd);
	ro = open(seg, O_RDONLY);
	ck_assert_int_ge(keep, 0);
	ck_assert_int_ge(ro, 0);
	ck_assert_int_eq(dup2(ro, sp.fd), sp.fd);
	ck_assert(queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"d", 1, 0));
	ck_assert(queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"e", 1, 0));
	listen_stderr();
	ck_assert(!queue_commit(&q));
	ck_assert(!queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"f", 1, 0) ||
		  !queue_commit(&q));
	snprintf(want, sizeof want, "ehsyslog export: cannot write %s/0000000000000000.seg: "
		 "Bad file descriptor: records are dropped until it can\n", qdir);
	ck_assert_str_eq(said(), want);
	ck_assert_uint_eq(q.len, 3);
	ck_assert_uint_eq(q.staged, 0);
	ck_assert_uint_eq(q.dropped, 3);
	ck_assert_uint_eq(q.bytes, 3 * 2);
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), size);

	/* Writable again: the next batch goes on where the last good one
	 * ended, and its "r" is in full: the batch dropped had it last,
	 * not the segment ("s"). */
	ck_assert_int_eq(dup2(keep, sp.fd), sp.fd);
	close(keep);
	close(ro);
	ck_assert(queue_push(&q, (const uint8_t *)"r", 1, (const uint8_t *)"g", 1, 0));
	ck_assert(queue_commit(&q));
	ck_assert_uint_eq(queue_at(&q, 3)->end, size + 18);
	ck_assert_uint_eq(read_q("0000000000000000.seg", buf, sizeof buf), size + 18);
	ck_assert_mem_eq(buf + size, "EHSF", 4);
	queue_free(&q);
	spool_close(&sp);
	open_q(&sp, 1 << 20, &g);
	ck_assert_str_eq(g.text, "r/a@34 r/b@51 s/c@69 r/g@87");
	spool_close(&sp);
	remove_dir();
}
END_TEST

START_TEST(directory_locked)
{
	struct spool a, b;
	struct got g;
	char want[256];

	make_dir();
	open_q(&a, 1 << 20, &g);
	listen_stderr();
	ck_assert_int_eq(spool_open(&b, qdir, 1 << 20, collect, &g), -1);
	snprintf(want, sizeof want, "ehsyslog export: the queue's directory %s is in use by "
		 "another export\n", qdir);
	ck_assert_str_eq(said(), want);
	spool_close(&a);
	open_q(&b, 1 << 20, &g);
	spool_close(&b);
	/* Not writable: said, before anything. */
	if (geteuid() != 0) {
		ck_assert_int_eq(chmod(qdir, 0500), 0);
		listen_stderr();
		ck_assert_int_eq(spool_open(&b, qdir, 1 << 20, collect, &g), -1);
		ck_assert_ptr_nonnull(strstr(said(), ": Permission denied\n"));
		ck_assert_int_eq(chmod(qdir, 0700), 0);
	}
	remove_dir();
}
END_TEST


/* The text of format and its arguments, until the next call. */
__attribute__((format(printf, 1, 2))) static const char *text(const char *format, ...)
{
	static char out[1024];
	va_list ap;

	va_start(ap, format);
	ck_assert_int_lt(vsnprintf(out, sizeof out, format, ap), (int)sizeof out);
	va_end(ap);
	return out;
}

/* Opens qdir, checking that it says want and gives back both of
 * queue_two's records. */
static void open_two(struct spool *s, const char *want)
{
	struct got g;

	listen_stderr();
	open_q(s, 1 << 20, &g);
	ck_assert_str_eq(said(), want);
	ck_assert_str_eq(g.text, "r/one@36 r/two@55");
}

/* spool_open of path fails, saying want. */
static void refused(const char *path, const char *want)
{
	struct spool s;
	struct got g = { 0 };

	listen_stderr();
	ck_assert_int_eq(spool_open(&s, path, 1 << 20, collect, &g), -1);
	ck_assert_str_eq(said(), want);
	ck_assert_int_eq(g.n, 0);
}

static void path_in(char *out, size_t len, const char *parent, const char *name)
{
	ck_assert_int_lt(snprintf(out, len, "%s/%s", parent, name), (int)len);
}

/* As ssh treats its files: a directory that another user owns, that its
 * group or others can write, or that is a link (to one root's own, say)
 * is refused before anything in it is read or written; one made is
 * 0700 whatever the umask. */
START_TEST(queue_dir_refused)
{
	char link[128], target[128];
	struct spool s;
	struct stat st;
	struct got g = { 0 };
	char made[128];
	mode_t mask;

	queue_two();
	path_in(made, sizeof made, dir, "made");
	mask = umask(0277);	/* export's own rights too */
	ck_assert_int_eq(spool_open(&s, made, 1 << 20, collect, &g), 0);
	umask(mask);
	spool_close(&s);
	ck_assert_int_eq(stat(made, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	ck_assert_int_eq(chmod(qdir, 0770), 0);
	refused(qdir, text("ehsyslog export: the queue's directory %s can be written by its "
			   "group or others (mode 0770): refused\n", qdir));
	ck_assert_int_eq(chmod(qdir, 0702), 0);
	refused(qdir, text("ehsyslog export: the queue's directory %s can be written by its "
			   "group or others (mode 0702): refused\n", qdir));
	ck_assert_int_eq(chmod(qdir, 01777), 0);
	refused(qdir, text("ehsyslog export: the queue's directory %s can be written by its "
			   "group or others (mode 1777): refused\n", qdir));
	ck_assert_int_eq(chmod(qdir, 0700), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(qdir, 65534, 65534), 0);
		refused(qdir, text("ehsyslog export: the queue's directory %s is owned by uid 65534, "
				   "not by uid %u that export runs as: refused\n", qdir,
				   (unsigned)geteuid()));
		ck_assert_int_eq(chown(qdir, 0, 0), 0);
	}
	/* A link to a directory of export's user's own: refused, and
	 * nothing is made in the target. */
	path_in(target, sizeof target, dir, "mine");
	path_in(link, sizeof link, dir, "link");
	ck_assert_int_eq(mkdir(target, 0700), 0);
	ck_assert_int_eq(symlink(target, link), 0);
	refused(link, text("ehsyslog export: the queue's directory %s is a symbolic link: "
			   "refused\n", link));
	ck_assert_int_eq(rmdir(target), 0);	/* still empty */
	/* Untouched: the records are all there. */
	open_two(&s, "");
	spool_close(&s);
	remove_dir();
}
END_TEST

#define ACK_ASIDE "ehsyslog export: %s/ack: not a regular file of export's user: set aside " \
	"as ack.aside: every record in %s is sent again\n"

/* An "ack" that is a link (to a file export's user could not write
 * otherwise), a FIFO (which would hang a blocking open) or another
 * user's file is set aside, said, and nothing is taken as sent; the
 * link's target is never written. */
START_TEST(ack_not_own_set_aside)
{
	uint8_t slot[20], buf[64];
	char outside[128], path[128];
	struct spool s;
	FILE *f;

	queue_two();
	path_in(outside, sizeof outside, dir, "outside");
	path_in(path, sizeof path, qdir, "ack");
	f = fopen(outside, "w");
	ck_assert_ptr_nonnull(f);
	fputs("keep", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(symlink(outside, path), 0);
	open_two(&s, text(ACK_ASIDE, qdir, qdir));
	spool_ack(&s, 36);
	spool_close(&s);
	f = fopen(outside, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, sizeof buf, f), 4);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(memcmp(buf, "keep", 4), 0);
	ck_assert_str_eq(names(), "0000000000000000.seg 0000000000000037.seg ack ack.aside");
	remove_dir();

	queue_two();
	path_in(path, sizeof path, qdir, "ack");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	open_two(&s, text(ACK_ASIDE, qdir, qdir));
	spool_close(&s);
	remove_dir();

	if (geteuid() == 0) {
		queue_two();
		ack_slot(slot, 55);	/* all sent, says the other user */
		write_q("ack", slot, sizeof slot);
		path_in(path, sizeof path, qdir, "ack");
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		open_two(&s, text(ACK_ASIDE, qdir, qdir));
		spool_close(&s);
		remove_dir();
	}
}
END_TEST

/* An acknowledgement past the queue's end hides every record: damage,
 * said, and everything sent again. */
START_TEST(ack_past_the_end_resent)
{
	uint8_t slot[20];
	struct spool s;

	queue_two();
	ack_slot(slot, 10000);
	write_q("ack", slot, sizeof slot);
	open_two(&s, text("ehsyslog export: %s/ack: damaged: past the queue's end (10000, the "
			  "queue ends at 55): every record in %s is sent again\n", qdir, qdir));
	spool_close(&s);
	/* At the end exactly: all sent, nothing said. */
	ack_slot(slot, 55);
	write_q("ack", slot, sizeof slot);
	listen_stderr();
	open_expect(&s, &(struct got){ 0 }, "");
	ck_assert_str_eq(said(), "");
	spool_close(&s);
	remove_dir();
}
END_TEST

/* Another user's segment is not sent (its records are not export's to
 * vouch for): said and skipped, and set aside, in the way of this run's
 * first segment. */
START_TEST(segment_not_own_skipped)
{
	char path[128];
	struct spool s;
	struct got g;

	if (geteuid() != 0)
		return;	/* no file of another user can be made */
	queue_two();
	path_in(path, sizeof path, qdir, "0000000000000000.seg");
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), text("ehsyslog export: %s/0000000000000000.seg: not a regular "
				      "file of export's user: skipped\nehsyslog export: "
				      "%s/0000000000000000.seg: in the way of a new segment: set "
				      "aside as 0000000000000000.seg.aside\n", qdir, qdir));
	ck_assert_int_eq(g.n, 0);
	spool_close(&s);
	ck_assert_str_eq(names(), "0000000000000000.seg 0000000000000000.seg.aside");
	remove_dir();
}
END_TEST

/* What is at the next segment's name (an empty file a crash left just
 * after creating it, a directory, a FIFO, a link) is said and set
 * aside: the run goes on, and every record is sent, by this run and
 * the next. */
static void in_the_way(int kind)
{
	char path[128];
	struct spool s;
	struct got g;

	queue_two();
	path_in(path, sizeof path, qdir, "0000000000000037.seg");
	switch (kind) {
	case 0:
		write_q("0000000000000037.seg", (const uint8_t *)"", 0);
		break;
	case 1:
		ck_assert_int_eq(mkdir(path, 0700), 0);
		break;
	case 2:
		ck_assert_int_eq(mkfifo(path, 0600), 0);
		break;
	default:
		ck_assert_int_eq(symlink("0000000000000000.seg", path), 0);
		break;
	}
	open_two(&s, text("ehsyslog export: %s/0000000000000037.seg: %s: skipped\n"
			  "ehsyslog export: %s/0000000000000037.seg: in the way of a new segment: "
			  "set aside as 0000000000000037.seg.aside\n", qdir,
			  kind == 0 ? "not a queue segment (its size)"
				    : "not a regular file of export's user", qdir));
	ck_assert_uint_eq(append(&s, "r", "three"), 55 + 16 + 16 + 1 + 5);
	spool_close(&s);
	ck_assert_str_eq(names(), "0000000000000000.seg 0000000000000037.seg "
				  "0000000000000037.seg.aside");
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), "");
	ck_assert_str_eq(g.text, "r/one@36 r/two@55 r/three@93");
	spool_close(&s);
	remove_dir();
}

START_TEST(next_segment_in_the_way)
{
	in_the_way(_i);
}
END_TEST

/* An empty file at the next segment's name that cannot be set aside
 * (every name for it taken): said, and the segment starts at the next
 * base; the file stays, said at each run, until what is before it is
 * sent. */
START_TEST(next_segment_in_the_way_skipped)
{
	struct spool s;
	struct got g;

	queue_two();
	write_q("0000000000000037.seg", (const uint8_t *)"", 0);
	write_q("0000000000000037.seg.aside", (const uint8_t *)"", 0);
	for (int n = 2; n < 100; n++)
		write_q(text("0000000000000037.seg.aside.%d", n), (const uint8_t *)"", 0);
	open_two(&s, text("ehsyslog export: %s/0000000000000037.seg: not a queue segment (its "
			  "size): skipped\nehsyslog export: %s/0000000000000037.seg: in the way of "
			  "a new segment, cannot be set aside: File exists: skipped\n", qdir, qdir));
	ck_assert_uint_eq(append(&s, "r", "three"), 56 + 16 + 16 + 1 + 5);
	spool_close(&s);
	listen_stderr();
	open_q(&s, 1 << 20, &g);
	ck_assert_str_eq(said(), text("ehsyslog export: %s/0000000000000037.seg: not a queue "
				      "segment (its size): skipped\n", qdir));
	ck_assert_str_eq(g.text, "r/one@36 r/two@55 r/three@94");
	spool_ack(&s, 94);
	spool_close(&s);
	ck_assert_ptr_null(strstr(names(), "0000000000000037.seg "));
	remove_dir();
}
END_TEST

/* A segment truncated while it is read back: what was read is sent;
 * export is not killed (as it would be, with SIGBUS, reading a map of
 * it). */
static void truncating(void *ctx, const uint8_t *resource, size_t resource_len,
		       const uint8_t *record, size_t record_len, uint64_t end)
{
	struct got *g = ctx;
	char path[128];

	if (g->n == 0) {
		path_in(path, sizeof path, qdir, "0000000000000000.seg");
		ck_assert_int_eq(truncate(path, 0), 0);
	}
	collect(ctx, resource, resource_len, record, record_len, end);
}

START_TEST(segment_truncated_while_read)
{
	static char big[1001];
	struct spool s;
	struct got g = { 0 };

	make_dir();
	memset(big, 'x', 1000);
	open_q(&s, 1 << 20, &g);
	for (int i = 0; i < 10; i++)	/* past the first pages */
		append(&s, "r", big);
	spool_close(&s);
	memset(&g, 0, sizeof g);
	ck_assert_int_eq(spool_open(&s, qdir, 1 << 20, truncating, &g), 0);
	ck_assert_int_eq(g.n, 10);
	spool_close(&s);
	remove_dir();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export spool");
	TCase *tc = tcase_create("spool");

	tcase_add_test(tc, framing_exact);
	tcase_add_test(tc, segment_names);
	tcase_add_test(tc, replay_unacknowledged_once);
	tcase_add_test(tc, truncated_tail_skipped_and_said);
	tcase_add_test(tc, damaged_record_skipped_and_said);
	tcase_add_test(tc, resources_mixed_replayed);
	tcase_add_test(tc, old_segment_replayed);
	tcase_add_test(tc, resource_before_lost_skipped);
	tcase_add_test(tc, damaged_segment_header_and_ack);
	tcase_add_test(tc, ack_in_two_slots);
	tcase_add_test(tc, name_past_positions_skipped);
	tcase_add_test(tc, bound_drops_the_newest);
	tcase_add_test(tc, acknowledged_segments_removed);
	tcase_add_test(tc, batch_written_then_queued);
	tcase_add_test(tc, directory_locked);
	tcase_add_test(tc, queue_dir_refused);
	tcase_add_test(tc, ack_not_own_set_aside);
	tcase_add_test(tc, ack_past_the_end_resent);
	tcase_add_test(tc, segment_not_own_skipped);
	tcase_add_loop_test(tc, next_segment_in_the_way, 0, 4);
	tcase_add_test(tc, next_segment_in_the_way_skipped);
	tcase_add_test(tc, segment_truncated_while_read);
	suite_add_tcase(s, tc);
	return check_run(s);
}
