/* SPDX-License-Identifier: MIT */
/*
 * Whole events from eh_event_iov, flattened and compared with bytes
 * derived by hand: eventheader (flags 0x07, version, id LE, tag LE,
 * opcode, level), then extension blocks (u16 size, u16 kind; kind 0x8000 =
 * another block follows), the metadata block last, then the payload.
 */
#include <string.h>

#include "eventheader/eventheader.h"
#include "suite_main.h"

static struct eh_prefix prefix;
static struct iovec iov[EH_EVENT_IOV];
static uint8_t flat[200000];

/* Concatenates the iovecs; checks they add up to what was returned. */
static size_t flatten(long total)
{
	size_t n = 0;

	ck_assert_int_gt(total, 0);
	for (int i = 0; i < EH_EVENT_IOV; i++) {
		ck_assert_uint_le(n + iov[i].iov_len, sizeof(flat));
		if (iov[i].iov_len)
			memcpy(flat + n, iov[i].iov_base, iov[i].iov_len);
		n += iov[i].iov_len;
	}
	ck_assert_uint_eq(n, (size_t)total);
	return n;
}

static void meta_one_u8(struct eh_meta *m, uint8_t *buf, size_t cap)
{
	ck_assert_int_eq(eh_meta_init(m, buf, cap, "E"), 0);
	ck_assert_int_eq(eh_meta_field(m, "v", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_finish(m), 0);
}

START_TEST(header_fields)
{
	static const uint8_t want[] = {
		0x07,		/* flags: pointer64|little_endian|extension, whatever was passed */
		0x03,		/* version */
		0x34, 0x12,	/* id 0x1234 */
		0xef, 0xbe,	/* tag 0xbeef */
		0xf0,		/* opcode receive 240 */
		0x05,		/* level verbose */
		0x02, 0x00,	/* metadata block: size 2 */
		0x01, 0x00,	/* kind metadata, last block */
		'E', 0x00,	/* metadata: event name, no fields */
	};
	struct eventheader h = { .flags = 0xff, .version = 3, .id = 0x1234,
				 .tag = 0xbeef, .opcode = EH_OPCODE_RECEIVE,
				 .level = EH_LEVEL_VERBOSE };
	uint8_t mbuf[16];
	struct eh_meta m;
	long n;

	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), "E"), 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	n = eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov);
	ck_assert_int_eq(n, sizeof(want));
	ck_assert_uint_eq(flatten(n), sizeof(want));
	ck_assert_mem_eq(flat, want, sizeof(want));
	/* Nothing is copied: the iovecs point at the caller's storage. */
	ck_assert_ptr_eq(iov[0].iov_base, prefix.bytes);
	ck_assert_uint_eq(iov[0].iov_len, 12);
	ck_assert_uint_eq(prefix.len, 12);
	ck_assert_ptr_eq(iov[1].iov_base, mbuf);
	ck_assert_uint_eq(iov[2].iov_len, 0);
}
END_TEST

static const uint8_t act[16] = {
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
static const uint8_t rel[16] = {
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
};

START_TEST(activity_16)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, /* header, level 4 */
		0x10, 0x00,	/* activity block: 16 bytes */
		0x02, 0x80,	/* kind activity_id 2 | chain 0x8000 */
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
		0x05, 0x00, 0x01, 0x00,	/* metadata block: 5 bytes, kind 1 */
		'E', 0x00, 'v', 0x00, 0x02,
		0x2a,		/* payload: v = 42 */
	};
	struct eventheader h = { .level = 4 };
	uint8_t mbuf[16], pay = 0x2a;
	struct eh_meta m;
	long n;

	meta_one_u8(&m, mbuf, sizeof(mbuf));
	n = eh_event_iov(&prefix, &h, act, NULL, &m, &pay, 1, iov);
	ck_assert_int_eq(n, sizeof(want));
	flatten(n);
	ck_assert_mem_eq(flat, want, sizeof(want));
	ck_assert_uint_eq(prefix.len, 8 + 4 + 16 + 4);
}
END_TEST

START_TEST(activity_32)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x04, /* opcode activity_start, level 4 */
		0x20, 0x00,	/* activity block: 32 bytes */
		0x02, 0x80,	/* kind 2 | chain */
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,	/* activity id */
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
		0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,	/* related id */
		0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
		0x05, 0x00, 0x01, 0x00,
		'E', 0x00, 'v', 0x00, 0x02,
		0x2a,
	};
	struct eventheader h = { .opcode = EH_OPCODE_ACTIVITY_START, .level = 4 };
	uint8_t mbuf[16], pay = 0x2a;
	struct eh_meta m;
	long n;

	meta_one_u8(&m, mbuf, sizeof(mbuf));
	n = eh_event_iov(&prefix, &h, act, rel, &m, &pay, 1, iov);
	ck_assert_int_eq(n, sizeof(want));
	flatten(n);
	ck_assert_mem_eq(flat, want, sizeof(want));
	ck_assert_uint_eq(prefix.len, EH_PREFIX_MAX);
}
END_TEST

/* The event the syslog bridge writes (the schema of docs/design.md):
 * warning from "myprog", facility user, errno ENOSPC. */
START_TEST(syslog_event)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, /* level 3 warning */
		0x2c, 0x00, 0x01, 0x00,	/* metadata block, 44 bytes:
					 * 7 name + 9 message + 10 severity +
					 * 10 facility + 8 errno */
		'm', 'y', 'p', 'r', 'o', 'g', 0x00,
		'm', 'e', 's', 's', 'a', 'g', 'e', 0x00, 0x0a,	/* counted UTF-8 */
		's', 'e', 'v', 'e', 'r', 'i', 't', 'y', 0x00, 0x02, /* u8 */
		'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0x00, 0x02, /* u8 */
		'e', 'r', 'r', 'n', 'o', 0x00, 0x84, 0x04,	/* int32, errno format */
		0x09, 0x00, 'd', 'i', 's', 'k', ' ', 'f', 'u', 'l', 'l', /* message */
		0x04,			/* severity LOG_WARNING */
		0x01,			/* facility LOG_USER >> 3 */
		0x1c, 0x00, 0x00, 0x00,	/* errno 28 */
	};
	struct eventheader h = { .level = EH_LEVEL_WARNING };
	uint8_t mbuf[64], pbuf[64];
	struct eh_meta m;
	struct eh_buf p;
	long n;

	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), "myprog"), 0);
	eh_meta_field(&m, "message", EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0);
	eh_meta_field(&m, "severity", EH_ENC_VALUE8, 0, 0, 0);
	eh_meta_field(&m, "facility", EH_ENC_VALUE8, 0, 0, 0);
	eh_meta_field(&m, "errno", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);

	eh_buf_init(&p, pbuf, sizeof(pbuf));
	eh_payload_str8(&p, "disk full", 9);
	eh_payload_u8(&p, 4);
	eh_payload_u8(&p, 1);
	eh_payload_u32(&p, 28);
	ck_assert_int_eq(p.err, 0);

	n = eh_event_iov(&prefix, &h, NULL, NULL, &m, p.data, p.len, iov);
	ck_assert_int_eq(n, 73);
	ck_assert_uint_eq(sizeof(want), 73);
	flatten(n);
	ck_assert_mem_eq(flat, want, sizeof(want));
}
END_TEST

START_TEST(bad_arguments)
{
	struct eventheader h = { .level = 4 };
	uint8_t mbuf[16], pay = 0;
	struct eh_meta m;

	meta_one_u8(&m, mbuf, sizeof(mbuf));
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, rel, &m, NULL, 0, iov), EH_E_INVAL);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 1, iov), EH_E_INVAL);
	ck_assert_int_eq(eh_event_iov(NULL, &h, NULL, NULL, &m, &pay, 1, iov), EH_E_INVAL);
	ck_assert_int_eq(eh_event_iov(&prefix, NULL, NULL, NULL, &m, &pay, 1, iov), EH_E_INVAL);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, NULL, &pay, 1, iov), EH_E_INVAL);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, &pay, 1, NULL), EH_E_INVAL);
	/* Level 0 is no level: no tracepoint name could carry it. */
	h.level = 0;
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, &pay, 1, iov),
			 EH_E_LEVEL_RANGE);
}
END_TEST

START_TEST(meta_not_ready)
{
	struct eventheader h = { .level = 4 };
	uint8_t mbuf[16];
	struct eh_meta m;

	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), "E"), 0);
	ck_assert_int_eq(eh_meta_field(&m, "v", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov), EH_E_STATE);

	/* A metadata that failed keeps failing with its own error. */
	ck_assert_int_eq(eh_meta_init(&m, mbuf, 3, "Event"), EH_E_NOSPACE);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_NOSPACE);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov), EH_E_NOSPACE);
}
END_TEST

/* The metadata block's size is a u16: 65535 bytes is the most. */
START_TEST(meta_size_limit)
{
	static uint8_t mbuf[65536 + 16];
	static char name[65536];
	struct eventheader h = { .level = 1 };
	struct eh_meta m;
	long n;

	memset(name, 'a', 65534);
	name[65534] = '\0';	/* 65534 chars + NUL = 65535 bytes */
	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), name), 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	n = eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov);
	ck_assert_int_eq(n, 8 + 4 + 65535);
	ck_assert_uint_eq(prefix.bytes[8], 0xff);
	ck_assert_uint_eq(prefix.bytes[9], 0xff);

	memset(name, 'a', 65535);
	name[65535] = '\0';	/* 65536 bytes with the NUL */
	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), name), 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov), EH_E_INVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eventheader event assembly");
	TCase *t = tcase_create("events");

	tcase_add_test(t, header_fields);
	tcase_add_test(t, activity_16);
	tcase_add_test(t, activity_32);
	tcase_add_test(t, syslog_event);
	tcase_add_test(t, bad_arguments);
	tcase_add_test(t, meta_not_ready);
	tcase_add_test(t, meta_size_limit);
	suite_add_tcase(s, t);
	return s;
}
