/* SPDX-License-Identifier: MIT */
/* The service a process runs in, from its /proc/self/cgroup lines
 * (bridge/unit.h). */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <string.h>

#include "bridge/unit.h"

/* The unit of the cgroup lines text, "" for none. */
static const char *unit_of(const char *text)
{
	static char got[EHS_UNIT_MAX + 1];
	const char *name = NULL;
	size_t n = ehs_unit_of_cgroup(text, strlen(text), &name);
	ck_assert_uint_le(n, EHS_UNIT_MAX);
	memcpy(got, n ? name : "", n);
	got[n] = '\0';
	return got;
}

START_TEST(services)
{
	ck_assert_str_eq(unit_of("0::/system.slice/nginx.service\n"), "nginx.service");
	/* A user's service, not its manager's. */
	ck_assert_str_eq(unit_of("0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
				 "foo.service\n"), "foo.service");
	ck_assert_str_eq(unit_of("0::/user.slice/user-1000.slice/user@1000.service/init.scope\n"),
			 "user@1000.service");
	/* A service's own cgroups below it (Delegate=yes). */
	ck_assert_str_eq(unit_of("0::/system.slice/docker.service/sub\n"), "docker.service");
	ck_assert_str_eq(unit_of("0::/system.slice/getty@tty1.service"), "getty@tty1.service");
}
END_TEST

START_TEST(no_service)
{
	ck_assert_str_eq(unit_of(""), "");
	ck_assert_str_eq(unit_of("0::/\n"), "");
	/* A login session's scope, a slice: not services. */
	ck_assert_str_eq(unit_of("0::/user.slice/user-0.slice/session-3.scope\n"), "");
	ck_assert_str_eq(unit_of("0::/system.slice\n"), "");
	ck_assert_str_eq(unit_of("0::/.service\n"), "");
	ck_assert_str_eq(unit_of("0::/system.slice/a b.service\n"), "");
	ck_assert_str_eq(unit_of("0::/system.slice/x.service.d\n"), "");
	/* A v1 controller's path is not systemd's. */
	ck_assert_str_eq(unit_of("4:memory:/system.slice/x.service\n0::/\n"), "");
	/* Malformed lines. */
	ck_assert_str_eq(unit_of("0:/system.slice/x.service\n"), "");
	ck_assert_str_eq(unit_of("10::/system.slice/x.service\n"), "");
	char longest[8 + EHS_UNIT_MAX + 2];
	memcpy(longest, "0::/", 4);
	memset(longest + 4, 'a', EHS_UNIT_MAX - 8 + 1);
	strcpy(longest + 4 + EHS_UNIT_MAX - 8 + 1, ".service");
	ck_assert_str_eq(unit_of(longest), "");	/* 256 bytes: over systemd's bound */
	longest[4] = '/';
	ck_assert_uint_eq(strlen(unit_of(longest)), EHS_UNIT_MAX);
}
END_TEST

START_TEST(hierarchies)
{
	/* v1 and v2 mixed, as systemd's hybrid layout: v2 first. */
	ck_assert_str_eq(unit_of("12:pids:/system.slice/a.service\n"
				 "1:name=systemd:/system.slice/b.service\n"
				 "0::/system.slice/c.service\n"), "c.service");
	/* systemd's v1 hierarchy where v2 names none. */
	ck_assert_str_eq(unit_of("1:name=systemd:/system.slice/b.service\n0::/\n"), "b.service");
	ck_assert_str_eq(unit_of("1:name=systemd:/system.slice/b.service\n"), "b.service");
	/* A path with ':' in it. */
	ck_assert_str_eq(unit_of("0::/system.slice/a:b.service\n"), "a:b.service");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge unit");
	TCase *tc = tcase_create("unit");
	tcase_add_test(tc, services);
	tcase_add_test(tc, no_service);
	tcase_add_test(tc, hierarchies);
	suite_add_tcase(s, tc);
	return check_run(s);
}
