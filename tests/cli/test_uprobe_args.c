/* SPDX-License-Identifier: MIT */
/*
 * The uprobe transport's pure parts, on every machine: USDT note
 * arguments as uprobe fetch arguments for x86-64 and arm64 (the notes
 * of the library, of an unoptimised build, and operands a uprobe cannot
 * fetch), the group names, base64 back to bytes (RFC 4648's vectors,
 * and text that is cut or not base64), and a record's fields back to
 * the tracepoint name user_events would have used.
 */
#include <check.h>
#include <elf.h>
#include <string.h>

#include "../check_run.h"
#include "traceevent/base64.h"
#include "cli/uprobe/fetch_arg.h"
#include "traceevent/uprobe_group.h"
#include "traceevent/uprobe_record.h"

/* A note argument, the type it is fetched as, and the definition's
 * fetch argument, or "ERROR " and the reason. */
static const struct {
	unsigned machine;
	const char *arg;
	enum fetch_type type;
	const char *want;
} cases[] = {
	/* The library's notes, x86-64 and arm64. */
	{ EM_X86_64, "8@%rdi", FETCH_USTRING, "+0(%di):ustring" },
	{ EM_X86_64, "8@%rsi", FETCH_USTRING, "+0(%si):ustring" },
	{ EM_X86_64, "-4@%edx", FETCH_S32, "%dx:s32" },
	{ EM_X86_64, "-4@%ecx", FETCH_S32, "%cx:s32" },
	{ EM_X86_64, "-4@%r8d", FETCH_S32, "%r8:s32" },
	{ EM_X86_64, "8@%r9", FETCH_USTRING, "+0(%r9):ustring" },
	{ EM_AARCH64, "8@x0", FETCH_USTRING, "+0(%x0):ustring" },
	{ EM_AARCH64, "-4@w2", FETCH_S32, "%x2:s32" },
	/* Other registers, memory, immediates. */
	{ EM_X86_64, "8@%r15", FETCH_S32, "%r15:s32" },
	{ EM_X86_64, "-4@-28(%rbp)", FETCH_S32, "-28(%bp):s32" },
	{ EM_X86_64, "8@16(%rbp)", FETCH_USTRING, "+0(+16(%bp)):ustring" },
	{ EM_X86_64, "8@(%rsp)", FETCH_USTRING, "+0(+0(%sp)):ustring" },
	{ EM_X86_64, "-4@$6", FETCH_S32, "\\6:s32" },
	{ EM_X86_64, "-4@$-1", FETCH_S32, "\\-1:s32" },
	{ EM_AARCH64, "-4@w30", FETCH_S32, "%x30:s32" },
	{ EM_AARCH64, "8@[sp, 24]", FETCH_USTRING, "+0(+24(%sp)):ustring" },
	{ EM_AARCH64, "-4@[x29, #-12]", FETCH_S32, "-12(%x29):s32" },
	{ EM_AARCH64, "-4@[x1]", FETCH_S32, "+0(%x1):s32" },
	{ EM_AARCH64, "-4@5", FETCH_S32, "\\5:s32" },
	/* What a uprobe cannot fetch, or this tool cannot read. */
	{ EM_X86_64, "8@8(%rax,%rbx,4)", FETCH_USTRING,
	  "ERROR note argument '8@8(%rax,%rbx,4)': an operand a uprobe cannot fetch" },
	{ EM_X86_64, "8@%xmm0", FETCH_S32,
	  "ERROR note argument '8@%xmm0': an operand a uprobe cannot fetch" },
	{ EM_X86_64, "8@$6", FETCH_USTRING, "ERROR note argument '8@$6' is no pointer" },
	{ EM_X86_64, "%rdi", FETCH_USTRING,
	  "ERROR note argument '%rdi' has no size (SIZE@OPERAND)" },
	{ EM_AARCH64, "-4@x31", FETCH_S32,
	  "ERROR note argument '-4@x31': an operand a uprobe cannot fetch" },
	{ EM_ARM, "-4@r0", FETCH_S32,
	  "ERROR USDT arguments of ELF machine 40 are not known to this tool (x86-64 and arm64 are)" },
};

START_TEST(arguments)
{
	char out[272], err[256];	/* out holds "ERROR " and any err */

	if (fetch_arg(cases[_i].machine, cases[_i].arg, cases[_i].type, out, sizeof out, err,
		      sizeof err) < 0)
		snprintf(out, sizeof out, "ERROR %s", err);
	ck_assert_str_eq(out, cases[_i].want);
}
END_TEST

START_TEST(split)
{
	char args[] = "8@%rdi 8@%rsi  -4@%edx";
	char *a[3];

	ck_assert_int_eq(fetch_arg_split(args, a, 3), 3);
	ck_assert_str_eq(a[2], "-4@%edx");
	char more[] = "1@%al 1@%bl 1@%cl 1@%dl";
	ck_assert_int_eq(fetch_arg_split(more, a, 3), -1);
}
END_TEST

START_TEST(groups)
{
	char g[EHS_UPROBE_GROUP_MAX];
	unsigned level;

	ehs_uprobe_group_name("/usr/lib/x86_64-linux-gnu/libehsyslog.so.0.0.0", true, g, sizeof g);
	ck_assert_str_eq(g, "ehsyslog");
	/* FNV-1a of "" is 811c9dc5; of "a", e40c292c. */
	ehs_uprobe_group_name("a", false, g, sizeof g);
	ck_assert_str_eq(g, "ehsyslog_e40c292c");
	ck_assert(ehs_uprobe_group("ehsyslog"));
	ck_assert(ehs_uprobe_group("ehsyslog_e40c292c"));
	ck_assert(!ehs_uprobe_group("ehsyslog_E40C292C"));
	ck_assert(!ehs_uprobe_group("ehsyslog_e40c292"));
	ck_assert(!ehs_uprobe_group("ehsyslogs"));
	ck_assert(!ehs_uprobe_group("user_events"));
	ck_assert(ehs_uprobe_event("critical", &level) && level == 1);
	ck_assert(ehs_uprobe_event("error", &level) && level == 2);
	ck_assert(ehs_uprobe_event("verbose", &level) && level == 5);
	ck_assert_str_eq(ehs_uprobe_event_name(3), "warning");
	ck_assert(!ehs_uprobe_event("L2", NULL));
	ck_assert(!ehs_uprobe_event("L6", NULL));
	ck_assert(!ehs_uprobe_event("L0", NULL));
	ck_assert(!ehs_uprobe_event("L12", NULL));
}
END_TEST

/* RFC 4648's vectors (10.), then text cut short, padding inside, and
 * characters outside the alphabet: NULL. */
static const struct {
	const char *text, *bytes;
} vectors[] = {
	{ "", "" }, { "Zg==", "f" }, { "Zm8=", "fo" }, { "Zm9v", "foo" }, { "Zm9vYg==", "foob" },
	{ "Zm9vYmE=", "fooba" }, { "Zm9vYmFy", "foobar" }, { "+/+/", "\xfb\xff\xbf" },
	{ "Zm9vYmF", NULL }, { "Zg==Zm9v", NULL }, { "Z=g=", NULL }, { "Zm9-", NULL },
	{ "Zm9_", NULL },
};

START_TEST(base64)
{
	char out[64];
	long n = base64_decode(vectors[_i].text, strlen(vectors[_i].text), (uint8_t *)out);

	if (vectors[_i].bytes == NULL) {
		ck_assert_int_eq(n, -1);
		return;
	}
	ck_assert_int_eq(n, (long)strlen(vectors[_i].bytes));
	ck_assert_mem_eq(out, vectors[_i].bytes, (size_t)n);
}
END_TEST

static int rec(const char *name, int facility, const char *event, const char **tp, size_t *len)
{
	static struct uprobe_scratch s;
	struct uprobe_fields f = {
		.level = 4, .name = name, .name_len = strlen(name), .facility = facility,
		.event = event, .event_len = strlen(event),
	};
	const uint8_t *data;

	return uprobe_record(&f, &s, tp, &data, len);
}

START_TEST(records)
{
	const char *tp;
	size_t len;

	ck_assert_int_eq(rec("Syslog:demo", 3, "Zm9v", &tp, &len), 1);
	ck_assert_str_eq(tp, "Syslog_L4K8");
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(rec("Other:x:y", 23, "", &tp, &len), 1);
	ck_assert_str_eq(tp, "Other_L4K800000");
	ck_assert_int_eq(rec("Syslog:demo", 24, "Zm9v", &tp, &len), 1);
	ck_assert_str_eq(tp, "Syslog_L4K0");
	/* A native event without a facility: keyword 0. */
	ck_assert_int_eq(rec("App:web", -1, "Zm9v", &tp, &len), 1);
	ck_assert_str_eq(tp, "App_L4K0");
	/* Cut base64: no bytes, for the output stage to report. */
	ck_assert_int_eq(rec("Syslog:demo", 3, "Zm9", &tp, &len), 1);
	ck_assert_uint_eq(len, 0);
	/* No provider: not ours. */
	ck_assert_int_eq(rec("demo", 3, "Zm9v", &tp, &len), 0);
	ck_assert_int_eq(rec(":demo", 3, "Zm9v", &tp, &len), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("uprobe");
	TCase *tc = tcase_create("args");

	tcase_add_loop_test(tc, arguments, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, split);
	tcase_add_test(tc, groups);
	tcase_add_loop_test(tc, base64, 0, sizeof vectors / sizeof vectors[0]);
	tcase_add_test(tc, records);
	suite_add_tcase(s, tc);
	return check_run(s);
}
