/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint names (the EventHeader README of Microsoft's LinuxTracepoints,
 * https://github.com/microsoft/LinuxTracepoints):
 * "<provider>_L<level>K<keyword><options>", lowercase hex without leading
 * zeros, the name with its NUL shorter than 256 bytes.  Also eh_strerror.
 */
#include <string.h>

#include "eventheader/eventheader.h"
#include "suite_main.h"

static char buf[EH_NAME_MAX + 64];

static const char *name(const char *provider, unsigned level, uint64_t keyword,
			const char *options)
{
	ck_assert_int_eq(eh_tracepoint_name(buf, sizeof(buf), provider, level,
					    keyword, options), 0);
	return buf;
}

static int name_err(const char *provider, unsigned level, uint64_t keyword,
		    const char *options)
{
	return eh_tracepoint_name(buf, sizeof(buf), provider, level, keyword, options);
}

/* A provider of n characters 'p'. */
static const char *provider_of(size_t n)
{
	static char p[400];

	ck_assert_uint_lt(n, sizeof(p));
	memset(p, 'p', n);
	p[n] = '\0';
	return p;
}

START_TEST(format)
{
	ck_assert_str_eq(name("Syslog", 4, 2, NULL), "Syslog_L4K2");
	ck_assert_str_eq(name("MyProv", 5, 0, "Gmygroup"), "MyProv_L5K0Gmygroup");
	ck_assert_str_eq(name("P", 255, UINT64_MAX, ""), "P_LffKffffffffffffffff");
	ck_assert_str_eq(name("P", 0x10, 0x800000, NULL), "P_L10K800000");
	ck_assert_str_eq(name("P", 1, 0xabcdef, "AbcGx1Z"), "P_L1KabcdefAbcGx1Z");
	ck_assert_str_eq(name("My_Lib_L2", 3, 0x10, NULL), "My_Lib_L2_L3K10");
	/* Wider than [A-Za-z0-9_] but within the format's rules. */
	ck_assert_str_eq(name("My.Prov-1", 1, 1, NULL), "My.Prov-1_L1K1");
}
END_TEST

START_TEST(capacity)
{
	char small[12];

	/* "Syslog_L4K2" is 11 characters: 12 bytes with its NUL. */
	ck_assert_int_eq(eh_tracepoint_name(small, 12, "Syslog", 4, 2, NULL), 0);
	ck_assert_str_eq(small, "Syslog_L4K2");
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(eh_tracepoint_name(small, 11, "Syslog", 4, 2, NULL), EH_E_NOSPACE);
	ck_assert_int_eq(small[0], '\0');
	ck_assert_int_eq(small[1], 'x');
	ck_assert_int_eq(eh_tracepoint_name(NULL, 0, "Syslog", 4, 2, NULL), EH_E_NOSPACE);
	ck_assert_int_eq(eh_tracepoint_name(NULL, 5, "Syslog", 4, 2, NULL), EH_E_INVAL);
}
END_TEST

/* 255 bytes with the NUL is the longest name; 256 is too long. */
START_TEST(length)
{
	/* provider 249 + "_L1K0" 5 = 254 characters */
	ck_assert_uint_eq(strlen(name(provider_of(249), 1, 0, NULL)), 254);
	ck_assert_int_eq(name_err(provider_of(250), 1, 0, NULL), EH_E_NAME_TOO_LONG);
	/* The options count too: 240 + "_L1K0" + "Gabcdefghi" = 255. */
	ck_assert_int_eq(name_err(provider_of(240), 1, 0, "Gabcdefghi"), EH_E_NAME_TOO_LONG);
	ck_assert_uint_eq(strlen(name(provider_of(240), 1, 0, "Gabcdefgh")), 254);
	ck_assert_int_eq(name_err(provider_of(300), 1, 0, NULL), EH_E_NAME_TOO_LONG);

	ck_assert_int_eq(eh_provider_check(provider_of(249)), 0);
	ck_assert_int_eq(eh_provider_check(provider_of(250)), EH_E_NAME_TOO_LONG);
}
END_TEST

START_TEST(provider_rules)
{
	ck_assert_int_eq(eh_provider_check("Syslog"), 0);
	ck_assert_int_eq(eh_provider_check("A_b_9"), 0);
	ck_assert_int_eq(eh_provider_check("!~"), 0);	/* ends of printable ASCII */
	ck_assert_int_eq(eh_provider_check(""), EH_E_PROVIDER_EMPTY);
	ck_assert_int_eq(eh_provider_check("a b"), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(eh_provider_check("a:b"), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(eh_provider_check("a\tb"), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(eh_provider_check("a\x7f"), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(eh_provider_check("caf\xc3\xa9"), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(eh_provider_check(NULL), EH_E_INVAL);

	ck_assert_int_eq(name_err("", 4, 2, NULL), EH_E_PROVIDER_EMPTY);
	ck_assert_int_eq(name_err("Sys log", 4, 2, NULL), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(name_err("Sys:log", 4, 2, NULL), EH_E_PROVIDER_CHAR);
	ck_assert_int_eq(name_err(NULL, 4, 2, NULL), EH_E_INVAL);
}
END_TEST

START_TEST(level_rules)
{
	ck_assert_int_eq(name_err("P", 0, 2, NULL), EH_E_LEVEL_RANGE);
	ck_assert_int_eq(name_err("P", 256, 2, NULL), EH_E_LEVEL_RANGE);
	ck_assert_str_eq(name("P", 1, 0, NULL), "P_L1K0");
}
END_TEST

START_TEST(option_rules)
{
	ck_assert_int_eq(name_err("P", 1, 0, "g"), EH_E_OPTION_CHAR);
	ck_assert_int_eq(name_err("P", 1, 0, "0"), EH_E_OPTION_CHAR);
	ck_assert_int_eq(name_err("P", 1, 0, "Ab-"), EH_E_OPTION_CHAR);
	ck_assert_int_eq(name_err("P", 1, 0, "A_b"), EH_E_OPTION_CHAR);
	ck_assert_int_eq(name_err("P", 1, 0, "GaAb"), EH_E_OPTION_ORDER);
	ck_assert_int_eq(name_err("P", 1, 0, "ZaGb"), EH_E_OPTION_ORDER);
	ck_assert_int_eq(name_err("P", 1, 0, "AaAb"), EH_E_OPTION_ORDER);	/* each letter once */
	ck_assert_int_eq(name_err("P", 1, 0, "G"), EH_E_GROUP);
	ck_assert_int_eq(name_err("P", 1, 0, "GZa"), EH_E_GROUP);		/* G empty */
	ck_assert_int_eq(name_err("P", 1, 0, "Gmy-group"), EH_E_GROUP);
	ck_assert_int_eq(name_err("P", 1, 0, "Gmy group"), EH_E_GROUP);
	ck_assert_str_eq(name("P", 1, 0, "A"), "P_L1K0A");	/* empty value elsewhere is fine */
	ck_assert_str_eq(name("P", 1, 0, "Gz9"), "P_L1K0Gz9");
}
END_TEST

START_TEST(parse)
{
	struct eh_tracepoint t;
	const char *n;

	n = "Syslog_L4K2";
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), 0);
	ck_assert_ptr_eq(t.provider, n);
	ck_assert_uint_eq(t.provider_len, 6);
	ck_assert_uint_eq(t.level, 4);
	ck_assert_uint_eq(t.keyword, 2);
	ck_assert_str_eq(t.options, "");
	ck_assert_ptr_null(t.group);
	ck_assert_uint_eq(t.group_len, 0);

	n = "My_Prov_L5K0AxGmygroupZ";
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), 0);
	ck_assert_uint_eq(t.provider_len, 7);	/* "My_Prov" */
	ck_assert_uint_eq(t.level, 5);
	ck_assert_uint_eq(t.keyword, 0);
	ck_assert_ptr_eq(t.options, n + 12);	/* "AxGmygroupZ" */
	ck_assert_ptr_eq(t.group, n + 15);
	ck_assert_uint_eq(t.group_len, 7);

	n = "P_LffKffffffffffffffff";
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), 0);
	ck_assert_uint_eq(t.level, 255);
	ck_assert(t.keyword == UINT64_MAX);

	/* Provider holding "_L": the last "_L" separates. */
	n = "A_L1K2_L3K4";
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), 0);
	ck_assert_uint_eq(t.provider_len, 6);	/* "A_L1K2" */
	ck_assert_uint_eq(t.level, 3);
	ck_assert_uint_eq(t.keyword, 4);
}
END_TEST

/* Names built by eh_tracepoint_name come back apart unchanged. */
START_TEST(round_trip)
{
	static const struct {
		const char *provider;
		unsigned level;
		uint64_t keyword;
		const char *options;
	} cases[] = {
		{ "Syslog", 4, 0x2, "" },
		{ "X_L", 1, 0x1, "" },
		{ "L_Lx_L", 2, 0x400, "Gg" },
		{ "_L", 5, 0x10000, "" },
		{ "Long_Provider_L_L1K2Gg", 0xff, 0xf123456789abcdef, "AbGc1Q" },
		{ "LLL", 0x1f, 0, "" },
		{ "a_", 0xa, 0xa, "B" },
	};
	struct eh_tracepoint t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		name(cases[i].provider, cases[i].level, cases[i].keyword, cases[i].options);
		ck_assert_int_eq(eh_tracepoint_parse(buf, &t), 0);
		ck_assert_uint_eq(t.provider_len, strlen(cases[i].provider));
		ck_assert_mem_eq(t.provider, cases[i].provider, t.provider_len);
		ck_assert_uint_eq(t.level, cases[i].level);
		ck_assert(t.keyword == cases[i].keyword);
		ck_assert_str_eq(t.options, cases[i].options);
	}
}
END_TEST

/* Every tracepoint name in Microsoft's conformance data
 * (tests/data/EventHeaderInterceptorLE64.dat). */
START_TEST(conformance_names)
{
	static const char *names[] = {
		"TestProviderC_L1Kf123456789abcdef",
		"TestProviderC_L4K85",
		"TestProviderC_L5K0",
		"TestProviderC_L5K0Gmsft",
		"TestProviderCpp_L1Kf123456789abcdef",
		"TestProviderCpp_L4K85",
		"TestProviderCpp_L5K0",
		"TestProviderCpp_L5K0Gmsft",
		"TestProviderDyn_L5K1",
	};
	static char longname[EH_NAME_MAX];
	struct eh_tracepoint t;
	char again[EH_NAME_MAX], prov[EH_NAME_MAX];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ck_assert_int_eq(eh_tracepoint_parse(names[i], &t), 0);
		memcpy(prov, t.provider, t.provider_len);
		prov[t.provider_len] = '\0';
		ck_assert_int_eq(eh_tracepoint_name(again, sizeof(again), prov, t.level,
						    t.keyword, t.options), 0);
		ck_assert_str_eq(again, names[i]);
	}
	ck_assert_int_eq(eh_tracepoint_parse("TestProviderC_L5K0Gmsft", &t), 0);
	ck_assert_uint_eq(t.group_len, 4);
	ck_assert_mem_eq(t.group, "msft", 4);

	/* The 239-character one: "Long_Provider_Name_", 200 'X', "0123456789",
	 * "_L5K0Gasdf". */
	strcpy(longname, "Long_Provider_Name_");
	memset(longname + 19, 'X', 200);
	strcpy(longname + 219, "0123456789_L5K0Gasdf");
	ck_assert_uint_eq(strlen(longname), 239);
	ck_assert_int_eq(eh_tracepoint_parse(longname, &t), 0);
	ck_assert_uint_eq(t.provider_len, 229);
	ck_assert_uint_eq(t.level, 5);
	ck_assert_uint_eq(t.group_len, 4);
}
END_TEST

START_TEST(parse_errors)
{
	static const struct {
		const char *name;
		int err;
	} cases[] = {
		{ "Syslog", EH_E_NAME_SYNTAX },
		{ "Syslog_4K2", EH_E_NAME_SYNTAX },
		{ "Syslog_L04K2", EH_E_NAME_SYNTAX },	/* leading zero */
		{ "Syslog_L4K02", EH_E_NAME_SYNTAX },
		{ "Syslog_L4K00", EH_E_NAME_SYNTAX },
		{ "Syslog_LAK2", EH_E_NAME_SYNTAX },	/* uppercase hex */
		{ "Syslog_L4KA", EH_E_NAME_SYNTAX },
		{ "Syslog_L4", EH_E_NAME_SYNTAX },
		{ "Syslog_L4K", EH_E_NAME_SYNTAX },
		{ "Syslog_LK2", EH_E_NAME_SYNTAX },
		{ "Syslog_L4k2", EH_E_NAME_SYNTAX },
		{ "Syslog_L4K10000000000000000", EH_E_NAME_SYNTAX },	/* 17 digits */
		{ "Syslog_L0K2", EH_E_LEVEL_RANGE },
		{ "Syslog_L100K2", EH_E_LEVEL_RANGE },
		{ "Syslog_L4K2g", EH_E_OPTION_CHAR },
		{ "Syslog_L4K2A-", EH_E_OPTION_CHAR },
		{ "Syslog_L4K2GbAa", EH_E_OPTION_ORDER },
		{ "Syslog_L4K2G", EH_E_GROUP },
		{ "Syslog_L4K2GAa", EH_E_GROUP },
		{ "Sys log_L4K2", EH_E_PROVIDER_CHAR },
		{ "Sys:log_L4K2", EH_E_PROVIDER_CHAR },
		{ "_L4K2", EH_E_PROVIDER_EMPTY },
	};
	struct eh_tracepoint t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(eh_tracepoint_parse(cases[i].name, &t) == cases[i].err,
			      "%s: want %d got %d", cases[i].name, cases[i].err,
			      eh_tracepoint_parse(cases[i].name, &t));
	ck_assert_int_eq(eh_tracepoint_parse(NULL, &t), EH_E_INVAL);
	ck_assert_int_eq(eh_tracepoint_parse("P_L1K0", NULL), EH_E_INVAL);
}
END_TEST

START_TEST(parse_length)
{
	static char n[400];
	struct eh_tracepoint t;

	/* 249 + "_L1K0" = 254 characters: fits. */
	strcpy(n, provider_of(249));
	strcat(n, "_L1K0");
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), 0);
	/* 255 characters: 256 bytes with the NUL. */
	strcpy(n, provider_of(250));
	strcat(n, "_L1K0");
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), EH_E_NAME_TOO_LONG);
	strcpy(n, provider_of(390));
	strcat(n, "_L1K0");
	ck_assert_int_eq(eh_tracepoint_parse(n, &t), EH_E_NAME_TOO_LONG);
}
END_TEST

START_TEST(strerror_all)
{
	static const int codes[] = {
		EH_OK, EH_E_NOSPACE, EH_E_INVAL, EH_E_STATE, EH_E_NAME_TOO_LONG,
		EH_E_PROVIDER_EMPTY, EH_E_PROVIDER_CHAR, EH_E_LEVEL_RANGE,
		EH_E_OPTION_CHAR, EH_E_OPTION_ORDER, EH_E_GROUP, EH_E_NAME_SYNTAX,
		EH_E_TRUNCATED, EH_E_FLAGS, EH_E_EXTENSION, EH_E_NO_METADATA,
		EH_E_UNTERMINATED, EH_E_ENCODING, EH_E_STRUCT, EH_E_ARRAY,
		EH_E_LEVEL_MISMATCH, EH_E_DEPTH, EH_E_ACTIVITY,
	};
	const size_t n = sizeof(codes) / sizeof(codes[0]);
	const char *unknown = eh_strerror(-9999);

	ck_assert_str_eq(unknown, "unknown error");
	ck_assert_str_eq(eh_strerror(1), unknown);
	ck_assert_str_eq(eh_strerror(-4), unknown);
	/* Every code has its own text. */
	for (size_t i = 0; i < n; i++) {
		const char *s = eh_strerror(codes[i]);

		ck_assert_ptr_nonnull(s);
		ck_assert_uint_gt(strlen(s), 0);
		ck_assert_str_ne(s, unknown);
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(s, eh_strerror(codes[j]));
	}
	ck_assert_str_eq(eh_strerror(EH_E_NOSPACE), "buffer too small");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eventheader tracepoint names");
	TCase *t = tcase_create("names");

	tcase_add_test(t, format);
	tcase_add_test(t, capacity);
	tcase_add_test(t, length);
	tcase_add_test(t, provider_rules);
	tcase_add_test(t, level_rules);
	tcase_add_test(t, option_rules);
	tcase_add_test(t, parse);
	tcase_add_test(t, round_trip);
	tcase_add_test(t, conformance_names);
	tcase_add_test(t, parse_errors);
	tcase_add_test(t, parse_length);
	tcase_add_test(t, strerror_all);
	suite_add_tcase(s, t);
	return s;
}
