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
#include "cli/uprobe/base64.h"
#include "cli/uprobe/fetch_arg.h"
#include "cli/uprobe/group.h"
#include "cli/uprobe/record.h"

static const char *fetch(unsigned machine, const char *arg, enum fetch_type type)
{
	static char out[128];
	char err[256];

	if (fetch_arg(machine, arg, type, out, sizeof out, err, sizeof err) < 0)
		snprintf(out, sizeof out, "ERROR %s", err);
	return out;
}

START_TEST(x86_64)
{
	ck_assert_str_eq(fetch(EM_X86_64, "8@%rdi", FETCH_USTRING), "+0(%di):ustring");
	ck_assert_str_eq(fetch(EM_X86_64, "8@%rsi", FETCH_USTRING), "+0(%si):ustring");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@%edx", FETCH_S32), "%dx:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@%ecx", FETCH_S32), "%cx:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@%r8d", FETCH_S32), "%r8:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "8@%r9", FETCH_USTRING), "+0(%r9):ustring");
	ck_assert_str_eq(fetch(EM_X86_64, "8@%r15", FETCH_S32), "%r15:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@-28(%rbp)", FETCH_S32), "-28(%bp):s32");
	ck_assert_str_eq(fetch(EM_X86_64, "8@16(%rbp)", FETCH_USTRING), "+0(+16(%bp)):ustring");
	ck_assert_str_eq(fetch(EM_X86_64, "8@(%rsp)", FETCH_USTRING), "+0(+0(%sp)):ustring");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@$6", FETCH_S32), "\\6:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "-4@$-1", FETCH_S32), "\\-1:s32");
	ck_assert_str_eq(fetch(EM_X86_64, "8@8(%rax,%rbx,4)", FETCH_USTRING),
			 "ERROR note argument '8@8(%rax,%rbx,4)': an operand a uprobe cannot fetch");
	ck_assert_str_eq(fetch(EM_X86_64, "8@%xmm0", FETCH_S32),
			 "ERROR note argument '8@%xmm0': an operand a uprobe cannot fetch");
	ck_assert_str_eq(fetch(EM_X86_64, "8@$6", FETCH_USTRING),
			 "ERROR note argument '8@$6' is no pointer");
	ck_assert_str_eq(fetch(EM_X86_64, "%rdi", FETCH_USTRING),
			 "ERROR note argument '%rdi' has no size (SIZE@OPERAND)");
}
END_TEST

START_TEST(arm64)
{
	ck_assert_str_eq(fetch(EM_AARCH64, "8@x0", FETCH_USTRING), "+0(%x0):ustring");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@w2", FETCH_S32), "%x2:s32");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@w30", FETCH_S32), "%x30:s32");
	ck_assert_str_eq(fetch(EM_AARCH64, "8@[sp, 24]", FETCH_USTRING), "+0(+24(%sp)):ustring");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@[x29, #-12]", FETCH_S32), "-12(%x29):s32");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@[x1]", FETCH_S32), "+0(%x1):s32");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@5", FETCH_S32), "\\5:s32");
	ck_assert_str_eq(fetch(EM_AARCH64, "-4@x31", FETCH_S32),
			 "ERROR note argument '-4@x31': an operand a uprobe cannot fetch");
	ck_assert_str_eq(fetch(EM_ARM, "-4@r0", FETCH_S32),
			 "ERROR USDT arguments of ELF machine 40 are not known to this tool "
			 "(x86-64 and arm64 are)");
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
	ck_assert(ehs_uprobe_event("L1", &level) && level == 1);
	ck_assert(ehs_uprobe_event("L5", &level) && level == 5);
	ck_assert(!ehs_uprobe_event("L6", NULL));
	ck_assert(!ehs_uprobe_event("L0", NULL));
	ck_assert(!ehs_uprobe_event("L12", NULL));
}
END_TEST

static const char *decoded(const char *text)
{
	static char out[64];
	long n = base64_decode(text, strlen(text), (uint8_t *)out);

	if (n < 0)
		return "ERROR";
	out[n] = '\0';
	return out;
}

START_TEST(base64)
{
	/* RFC 4648, 10. */
	ck_assert_str_eq(decoded(""), "");
	ck_assert_str_eq(decoded("Zg=="), "f");
	ck_assert_str_eq(decoded("Zm8="), "fo");
	ck_assert_str_eq(decoded("Zm9v"), "foo");
	ck_assert_str_eq(decoded("Zm9vYg=="), "foob");
	ck_assert_str_eq(decoded("Zm9vYmE="), "fooba");
	ck_assert_str_eq(decoded("Zm9vYmFy"), "foobar");
	ck_assert_str_eq(decoded("+/+/"), "\xfb\xff\xbf");
	/* Cut short, padding inside, outside the alphabet. */
	ck_assert_str_eq(decoded("Zm9vYmF"), "ERROR");
	ck_assert_str_eq(decoded("Zg==Zm9v"), "ERROR");
	ck_assert_str_eq(decoded("Z=g="), "ERROR");
	ck_assert_str_eq(decoded("Zm9-"), "ERROR");
	ck_assert_str_eq(decoded("Zm9_"), "ERROR");
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

	tcase_add_test(tc, x86_64);
	tcase_add_test(tc, arm64);
	tcase_add_test(tc, split);
	tcase_add_test(tc, groups);
	tcase_add_test(tc, base64);
	tcase_add_test(tc, records);
	suite_add_tcase(s, tc);
	return check_run(s);
}
