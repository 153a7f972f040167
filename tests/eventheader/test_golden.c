/* SPDX-License-Identifier: MIT */
/*
 * Events that Microsoft's own EventHeader encoder wrote: records of
 * tests/data/EventHeaderInterceptorLE64.dat (index from 0,
 * bytes after the tracepoint name) copied here literally.  The builder,
 * fed the same fields, must produce them byte for byte.
 */
#include <string.h>

#include "eventheader/eventheader.h"
#include "suite_main.h"

static uint8_t mbuf[256], pbuf[256], flat[512];
static struct eh_meta m;
static struct eh_buf p;
static struct eh_prefix prefix;

static void check_event(const struct eventheader *h, const uint8_t *act,
			const uint8_t *want, size_t len)
{
	struct iovec iov[EH_EVENT_IOV];
	size_t n = 0;
	long total;

	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(p.err, 0);
	total = eh_event_iov(&prefix, h, act, NULL, &m, p.data, p.len, iov);
	ck_assert_int_eq(total, (long)len);
	for (int i = 0; i < EH_EVENT_IOV; i++) {
		memcpy(flat + n, iov[i].iov_base, iov[i].iov_len);
		n += iov[i].iov_len;
	}
	ck_assert_mem_eq(flat, want, len);
}

static void start(const char *name)
{
	ck_assert_int_eq(eh_meta_init(&m, mbuf, sizeof(mbuf), name), 0);
	eh_buf_init(&p, pbuf, sizeof(pbuf));
}

/* Record 114, TestProviderC_L5K0 "Packed": nested structs, a variable
 * array of structs, zero-terminated strings with formats. */
START_TEST(packed)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x4d, 0x00, 0x01, 0x00,
		0x50, 0x61, 0x63, 0x6b, 0x65, 0x64, 0x00, 0x66, 0x69, 0x76, 0x65, 0x00,
		0x84, 0x02, 0x53, 0x74, 0x72, 0x75, 0x63, 0x74, 0x31, 0x00, 0x81, 0x01,
		0x4e, 0x43, 0x68, 0x61, 0x72, 0x38, 0x00, 0x07, 0x53, 0x74, 0x72, 0x75,
		0x63, 0x74, 0x41, 0x72, 0x72, 0x61, 0x79, 0x00, 0xc1, 0x01, 0x53, 0x74,
		0x72, 0x75, 0x63, 0x74, 0x32, 0x00, 0x81, 0x02, 0x4b, 0x00, 0x82, 0x0a,
		0x4e, 0x43, 0x68, 0x61, 0x72, 0x31, 0x36, 0x00, 0x88, 0x09, 0x66, 0x69,
		0x76, 0x65, 0x00, 0x84, 0x02, 0x05, 0x00, 0x00, 0x00, 0x68, 0x6a, 0x6b,
		0x6c, 0x00, 0x03, 0x00, 0x41, 0x68, 0x00, 0x6a, 0x00, 0x6b, 0x00, 0x6c,
		0x00, 0x00, 0x00, 0x42, 0xff, 0xfe, 0x68, 0x00, 0x6a, 0x00, 0x6b, 0x00,
		0x6c, 0x00, 0x00, 0x00, 0x43, 0xfe, 0xff, 0x00, 0x68, 0x00, 0x6a, 0x00,
		0x6b, 0x00, 0x6c, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
	};
	static const uint16_t plain[] = { 'h', 'j', 'k', 'l', 0 };
	static const uint16_t bom_le[] = { 0xfeff, 'h', 'j', 'k', 'l', 0 };
	static const uint16_t bom_be[] = { 0xfffe, 0x6800, 0x6a00, 0x6b00, 0x6c00, 0 };
	struct eventheader h = { .level = 5 };

	start("Packed");
	eh_meta_field(&m, "five", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0);
	eh_meta_struct_begin(&m, "Struct1", 0, 0, 0);
	eh_meta_field(&m, "NChar8", EH_ENC_ZSTRING_CHAR8, 0, 0, 0);
	eh_meta_struct_end(&m);
	eh_meta_struct_begin(&m, "StructArray", 0, EH_ENC_VARRAY, 0);
	eh_meta_struct_begin(&m, "Struct2", 0, 0, 0);
	eh_meta_field(&m, "K", EH_ENC_VALUE8, EH_FMT_STRING8, 0, 0);
	eh_meta_field(&m, "NChar16", EH_ENC_ZSTRING_CHAR16, EH_FMT_HEX_BYTES, 0, 0);
	eh_meta_struct_end(&m);
	eh_meta_struct_end(&m);
	eh_meta_field(&m, "five", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0);

	eh_payload_u32(&p, 5);
	eh_payload_zstr8(&p, "hjkl");
	eh_payload_count(&p, 3);
	eh_payload_u8(&p, 'A');
	eh_payload_zstr16(&p, plain);
	eh_payload_u8(&p, 'B');
	eh_payload_zstr16(&p, bom_le);
	eh_payload_u8(&p, 'C');
	eh_payload_zstr16(&p, bom_be);
	eh_payload_u32(&p, 5);
	check_event(&h, NULL, want, sizeof(want));
}
END_TEST

/* Record 63, "ai16": a constant and a variable array of int16. */
START_TEST(int16_arrays)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x10, 0x00, 0x01, 0x00,
		0x61, 0x69, 0x31, 0x36, 0x00, 0x61, 0x31, 0x00, 0xa3, 0x02, 0x01, 0x00,
		0x73, 0x00, 0xc3, 0x02, 0x30, 0x75, 0x01, 0x00, 0x30, 0x75,
	};
	struct eventheader h = { .level = 5 };

	start("ai16");
	eh_meta_field(&m, "a1", EH_ENC_VALUE16 | EH_ENC_CARRAY, EH_FMT_SIGNED_INT, 0, 1);
	eh_meta_field(&m, "s", EH_ENC_VALUE16 | EH_ENC_VARRAY, EH_FMT_SIGNED_INT, 0, 0);
	eh_payload_u16(&p, 30000);
	eh_payload_count(&p, 1);
	eh_payload_u16(&p, 30000);
	check_event(&h, NULL, want, sizeof(want));
}
END_TEST

/* Record 7, "Transfer10": an activity id and no fields. */
START_TEST(activity)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x10, 0x00, 0x02, 0x80,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x01, 0x02, 0x03, 0x04,
		0x05, 0x06, 0x07, 0x08, 0x0b, 0x00, 0x01, 0x00, 0x54, 0x72, 0x61, 0x6e,
		0x73, 0x66, 0x65, 0x72, 0x31, 0x30, 0x00,
	};
	static const uint8_t id[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct eventheader h = { .level = 5 };

	start("Transfer10");
	check_event(&h, id, want, sizeof(want));
}
END_TEST

/* Record 266, "unsigned_int": empty binary and counted strings, each
 * with a format. */
START_TEST(counted_with_format)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x2d, 0x00, 0x01, 0x00,
		0x75, 0x6e, 0x73, 0x69, 0x67, 0x6e, 0x65, 0x64, 0x5f, 0x69, 0x6e, 0x74,
		0x00, 0x62, 0x30, 0x6f, 0x6e, 0x65, 0x00, 0x8d, 0x01, 0x73, 0x30, 0x6f,
		0x6e, 0x65, 0x00, 0x8a, 0x01, 0x62, 0x30, 0x62, 0x69, 0x67, 0x00, 0x8d,
		0x01, 0x73, 0x30, 0x62, 0x69, 0x67, 0x00, 0x8a, 0x01, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct eventheader h = { .level = 5 };

	start("unsigned_int");
	eh_meta_field(&m, "b0one", EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0, 0);
	eh_meta_field(&m, "s0one", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0, 0);
	eh_meta_field(&m, "b0big", EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0, 0);
	eh_meta_field(&m, "s0big", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0, 0);
	eh_payload_binary(&p, NULL, 0);
	eh_payload_str8(&p, "", 0);
	eh_payload_binary(&p, NULL, 0);
	eh_payload_str8(&p, "", 0);
	check_event(&h, NULL, want, sizeof(want));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eventheader builder against Microsoft's encoder");
	TCase *t = tcase_create("golden");

	tcase_add_test(t, packed);
	tcase_add_test(t, int16_arrays);
	tcase_add_test(t, activity);
	tcase_add_test(t, counted_with_format);
	suite_add_tcase(s, t);
	return s;
}
