/* SPDX-License-Identifier: MIT */
/*
 * What test_native.c and test_native_cxx.cc (C and C++) both check: the
 * captured events, the fixture that traces everything into them, and the
 * bytes ehs_event has always written for every field type.  Included
 * once by each test program, after <check.h> and capture.h.
 */
#ifndef EHS_TESTS_NATIVE_EXPECT_H
#define EHS_TESTS_NATIVE_EXPECT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct capture cap;

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

static void expect_event(unsigned i, const void *want, size_t len)
{
	ck_assert_uint_gt(cap.count, i);
	ck_assert_uint_eq(cap.len[i], len);
	ck_assert_mem_eq(cap.data[i], want, len);
}

/* Every type but UINT8, as ehs_event has always written them. */
static const uint8_t every_type[] =
	"\x07\x00\x00\x00\x00\x00\x00\x03"	/* flags, version, id, tag, opcode, level 3 */
	"\x1b\x00\x01\x00"			/* metadata block: 27 bytes */
	"req_x\0"
	"s\0\x0a"				/* counted string */
	"i\0\x85\x02"				/* value64, signed */
	"u\0\x05"				/* value64 */
	"e\0\x84\x04"				/* value32, errno */
	"b\0\x82\x07"				/* value8, boolean */
	"n\0\x0a"
	"\x02\x00" "hi"
	"\xfe\xff\xff\xff\xff\xff\xff\xff"
	"\x03\x00\x00\x00\x00\x00\x00\x00"
	"\x02\x00\x00\x00"
	"\x01"
	"\x00\x00";

/* VALUE8 without a format byte: the default, unsigned. */
static const uint8_t u8_event[] =
	"\x07\x00\x00\x00\x00\x00\x00\x04"
	"\x0f\x00\x01\x00"
	"web\0"
	"code\0\x02"
	"low\0\x02"
	"\xc8" "\x2c";

#endif
