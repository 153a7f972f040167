/* SPDX-License-Identifier: MIT */
/* The configuration file parser: valid files, per-program sections,
 * every error with its line, and "an error changes nothing"; the
 * environment under the same rules. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/config/config_load.h"
#include "bridge/config/config_parse.h"

/* Asserts that c's syslog ports are exactly the n given. */
static void expect_ports(const struct ehs_config *c, unsigned n, const uint16_t *ports)
{
	ck_assert_uint_eq(c->nports, n);
	for (unsigned i = 0; i < n; i++)
		ck_assert_uint_eq(c->ports[i], ports[i]);
}

#define EXPECT_PORTS(c, ...) \
	expect_ports((c), sizeof (uint16_t[]){ __VA_ARGS__ } / sizeof (uint16_t), \
		     (uint16_t[]){ __VA_ARGS__ })

static int parse(const char *text, const char *program, struct ehs_config *c,
		 struct ehs_config_status *st)
{
	ehs_config_defaults(c);
	return ehs_config_parse(text, strlen(text), program, c, st);
}

START_TEST(defaults)
{
	struct ehs_config c;
	struct ehs_config_status st;
	ck_assert_int_eq(parse("", "p", &c, &st), 0);
	ck_assert_str_eq(c.provider, "Syslog");
	ck_assert(c.passthrough);
	ck_assert(!c.disable);
	ck_assert(!c.remote_syslog);
	EXPECT_PORTS(&c, 514, 601);
	ck_assert_int_eq(st.error, EHS_CONF_OK);
	ck_assert_uint_eq(st.line, 0);
	ck_assert_int_eq(parse("# only a comment\n\n   \n\t# another\n", "p", &c, NULL), 0);
}
END_TEST

START_TEST(global_keys)
{
	struct ehs_config c;
	ck_assert_int_eq(parse(" provider =  My_Prov  # why\r\n"
			       "passthrough=off\n"
			       "disable = yes\n"
			       "syslog_ports = 601,514\n"
			       "remote_syslog = yes", "p", &c, NULL), 0);
	ck_assert_str_eq(c.provider, "My_Prov");
	ck_assert(!c.passthrough);
	ck_assert(c.disable);
	ck_assert(c.remote_syslog);
	EXPECT_PORTS(&c, 601, 514);
}
END_TEST

/* Blanks, commas or both between ports; a later line replaces the list. */
START_TEST(syslog_ports)
{
	struct ehs_config c;
	ck_assert_int_eq(parse("syslog_ports = 514,601\n", "p", &c, NULL), 0);
	EXPECT_PORTS(&c, 514, 601);
	ck_assert_int_eq(parse("syslog_ports =   6514 , 10514 \n", "p", &c, NULL), 0);
	EXPECT_PORTS(&c, 6514, 10514);
	ck_assert_int_eq(parse("syslog_ports = 1 2,3 ,4, 5\t6,,7 65535\n", "p", &c, NULL), 0);
	EXPECT_PORTS(&c, 1, 2, 3, 4, 5, 6, 7, 65535);
	ck_assert_int_eq(parse("syslog_ports = 1 2 3\nsyslog_ports = 0514\n", "p", &c, NULL), 0);
	EXPECT_PORTS(&c, 514);
	ck_assert_uint_eq(c.ports[1], 0);
	ck_assert_uint_eq(c.ports[2], 0);

	/* the value as the environment passes it: untrimmed */
	static const char k[] = "syslog_ports", v[] = "  6514 , 10514 ";
	ehs_config_defaults(&c);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, v, sizeof v - 1), EHS_CONF_OK);
	EXPECT_PORTS(&c, 6514, 10514);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, "0", 1), EHS_CONF_PORTS);
	EXPECT_PORTS(&c, 6514, 10514);
}
END_TEST

/* stdio's words, in the file and as EHSYSLOG_STDIO passes them; a bad
 * value leaves the setting as it was. */
START_TEST(stdio_streams)
{
	struct ehs_config c;
	unsigned bits = 99;
	ck_assert_int_eq(parse("", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 0);
	ck_assert_int_eq(parse("stdio = stdout\n", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 1U << 1);
	ck_assert_int_eq(parse("stdio = stderr , stdout\n", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 1U << 1 | 1U << 2);
	ck_assert_int_eq(parse("stdio = both\nstdio = none\n", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 0);
	ck_assert_int_eq(parse("stdio = stderr\n[program p]\nstdio = both\n", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 1U << 1 | 1U << 2);
	ck_assert_int_eq(parse("stdio = stderr\n[program q]\nstdio = both\n", "p", &c, NULL), 0);
	ck_assert_uint_eq(c.stdio, 1U << 2);

	static const char k[] = "stdio";
	ehs_config_defaults(&c);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, "stderr", 6), EHS_CONF_OK);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, "stdin", 5), EHS_CONF_STDIO);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, "stdout,", 7), EHS_CONF_STDIO);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, ",stdout", 7), EHS_CONF_STDIO);
	ck_assert_int_eq(ehs_config_set(&c, k, sizeof k - 1, "std", 3), EHS_CONF_STDIO);
	ck_assert_uint_eq(c.stdio, 1U << 2);

	ck_assert_int_eq(ehs_stdio_streams("", &bits), 0);
	ck_assert_uint_eq(bits, 0);
	ck_assert_int_eq(ehs_stdio_streams("stdout,both", &bits), 0);
	ck_assert_uint_eq(bits, 1U << 1 | 1U << 2);
	bits = 99;
	ck_assert_int_eq(ehs_stdio_streams("stdout,,stderr", &bits), -1);
	ck_assert_uint_eq(bits, 99);
}
END_TEST

START_TEST(program_sections)
{
	static const char f[] =
		"provider = All\n"
		"[program sshd]\n"
		"disable = yes\n"
		"[ program  cron ]\n"
		"provider = Cron\n"
		"passthrough = no\n"
		"[program sshd]\n"
		"provider = Sshd\n"
		"syslog_ports = 6514\n"
		"[program rsyslogd]\n"
		"syslog_ports = 10514, 514\n"
		"remote_syslog = on\n";
	struct ehs_config c;
	ck_assert_int_eq(parse(f, "sshd", &c, NULL), 0);
	ck_assert_str_eq(c.provider, "Sshd");
	ck_assert(c.disable);
	ck_assert(c.passthrough);
	EXPECT_PORTS(&c, 6514);
	ck_assert(!c.remote_syslog);
	ck_assert_int_eq(parse(f, "rsyslogd", &c, NULL), 0);
	EXPECT_PORTS(&c, 10514, 514);
	ck_assert(c.remote_syslog);
	ck_assert_int_eq(parse(f, "cron", &c, NULL), 0);
	ck_assert_str_eq(c.provider, "Cron");
	ck_assert(!c.passthrough);
	ck_assert(!c.disable);
	ck_assert_int_eq(parse(f, "other", &c, NULL), 0);
	ck_assert_str_eq(c.provider, "All");
	ck_assert(!c.disable);
	EXPECT_PORTS(&c, 514, 601);
	ck_assert(!c.remote_syslog);
	ck_assert_int_eq(parse(f, "ssh", &c, NULL), 0);	/* exact match only */
	ck_assert(!c.disable);
	ck_assert_int_eq(parse(f, NULL, &c, NULL), 0);
	ck_assert_str_eq(c.provider, "All");
}
END_TEST

/* The configuration after the one line "key=value". */
static struct ehs_config parse_setting(const char *key, const char *value)
{
	char line[64];
	struct ehs_config c;
	snprintf(line, sizeof line, "%s=%s\n", key, value);
	ck_assert_int_eq(parse(line, "p", &c, NULL), 0);
	return c;
}

START_TEST(booleans)
{
	static const char *yes[] = { "yes", "on", "true", "1" };
	static const char *no[] = { "no", "off", "false", "0" };
	for (unsigned i = 0; i < 4; i++) {
		ck_assert(parse_setting("disable", yes[i]).disable);
		ck_assert(!parse_setting("passthrough", no[i]).passthrough);
		ck_assert(parse_setting("remote_syslog", yes[i]).remote_syslog);
		ck_assert(!parse_setting("remote_syslog", no[i]).remote_syslog);
	}
}
END_TEST

static void expect_error(const char *text, enum ehs_config_error e, unsigned line)
{
	struct ehs_config c;
	struct ehs_config_status st;
	ehs_config_defaults(&c);
	c.passthrough = false;	/* a start value that must survive */
	ck_assert_int_eq(ehs_config_parse(text, strlen(text), "sshd", &c, &st), -1);
	ck_assert_int_eq(st.error, e);
	ck_assert_uint_eq(st.line, line);
	ck_assert_str_eq(c.provider, "Syslog");
	ck_assert(!c.passthrough);
	ck_assert(!c.disable);
	ck_assert(!c.remote_syslog);
	EXPECT_PORTS(&c, 514, 601);
	ck_assert_str_ne(ehs_config_strerror(e), "unknown error");
}

START_TEST(errors)
{
	expect_error("provider = X\nnonsense\n", EHS_CONF_SYNTAX, 2);
	expect_error("colour = blue\n", EHS_CONF_KEY, 1);
	expect_error("\n\ndisable = maybe\n", EHS_CONF_BOOL, 3);
	expect_error("passthrough = YES\n", EHS_CONF_BOOL, 1);
	expect_error("disable =\n", EHS_CONF_BOOL, 1);
	expect_error("provider = a:b\n", EHS_CONF_PROVIDER, 1);
	expect_error("provider = a b\n", EHS_CONF_PROVIDER, 1);
	expect_error("provider =\n", EHS_CONF_PROVIDER, 1);
	expect_error("remote_syslog = maybe\n", EHS_CONF_BOOL, 1);
	expect_error("syslog_ports = 0\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 65536\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 514 99999999999999999999999\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = abc\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 514a\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 514;601\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = -514\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 1 2 3 4 5 6 7 8 9\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports =\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = , ,\n", EHS_CONF_PORTS, 1);
	expect_error("syslog_ports = 514\n[program other]\nsyslog_ports = 0\n",
		     EHS_CONF_PORTS, 3);
	expect_error("[program]\n", EHS_CONF_SECTION, 1);
	expect_error("[program sshd\n", EHS_CONF_SECTION, 1);
	expect_error("[prog sshd]\n", EHS_CONF_SECTION, 1);
	expect_error("[programsshd]\n", EHS_CONF_SECTION, 1);
	/* an error in a section for another program still spoils the file */
	expect_error("disable = yes\n[program other]\nbogus = 1\n", EHS_CONF_KEY, 3);

	char big[EHS_CONFIG_LINE_MAX + 20];
	memset(big, ' ', sizeof big);
	memcpy(big, "# x", 3);
	big[sizeof big - 1] = '\0';
	expect_error(big, EHS_CONF_LINE, 1);

	struct ehs_config c;
	struct ehs_config_status st;
	ehs_config_defaults(&c);
	static const char nul[] = "disable = no\ndis\0able = yes\n";
	ck_assert_int_eq(ehs_config_parse(nul, sizeof nul - 1, "p", &c, &st), -1);
	ck_assert_int_eq(st.error, EHS_CONF_LINE);
	ck_assert_uint_eq(st.line, 2);
}
END_TEST

START_TEST(provider_limits)
{
	char line[EHS_PROVIDER_MAX + 32];
	char name[EHS_PROVIDER_MAX + 2];
	struct ehs_config c;
	memset(name, 'P', EHS_PROVIDER_MAX);
	name[EHS_PROVIDER_MAX] = '\0';
	snprintf(line, sizeof line, "provider=%s", name);
	ck_assert_int_eq(parse(line, "p", &c, NULL), 0);
	ck_assert_str_eq(c.provider, name);
	name[EHS_PROVIDER_MAX] = 'P';
	name[EHS_PROVIDER_MAX + 1] = '\0';
	snprintf(line, sizeof line, "provider=%s", name);
	ck_assert_int_eq(parse(line, "p", &c, NULL), -1);
}
END_TEST

/* The file as the library reads it, in every process: only when root
 * owns it and neither group nor others may write it. */
static enum ehs_config_file last;

static const char *apply(const char *path)
{
	static struct ehs_config c;

	ehs_config_defaults(&c);
	last = ehs_config_apply_file(&c, path, "prog");
	return c.provider;
}

START_TEST(file_trusted_only_as_root)
{
	char path[] = "/var/tmp/ehsyslog-conf-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "provider = FromFile\n", 20), 20);
	close(fd);

	ck_assert_int_eq(chmod(path, 0644), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 0, 0), 0);
		ck_assert_str_eq(apply(path), "FromFile");
		ck_assert_int_eq(last, EHS_CONFIG_FILE_APPLIED);
		ck_assert_int_eq(chmod(path, 0664), 0);	/* group may write */
		ck_assert_str_eq(apply(path), "Syslog");
		ck_assert_int_eq(last, EHS_CONFIG_FILE_REFUSED);
		ck_assert_int_eq(chmod(path, 0646), 0);	/* others may write */
		ck_assert_str_eq(apply(path), "Syslog");
		ck_assert_int_eq(chmod(path, 0644), 0);
		ck_assert_int_eq(chown(path, 65534, 0), 0);	/* not root's */
		ck_assert_str_eq(apply(path), "Syslog");
		ck_assert_int_eq(last, EHS_CONFIG_FILE_REFUSED);
		/* A link to a root file is followed: the file opened is checked. */
		ck_assert_int_eq(chown(path, 0, 0), 0);
		char link[sizeof path + 5];
		snprintf(link, sizeof link, "%s.link", path);
		ck_assert_int_eq(symlink(path, link), 0);
		ck_assert_str_eq(apply(link), "FromFile");
		unlink(link);
	} else {
		/* our own file is not root's: refused */
		ck_assert_str_eq(apply(path), "Syslog");
		ck_assert_int_eq(last, EHS_CONFIG_FILE_REFUSED);
	}
	/* not a regular file, or missing: defaults */
	ck_assert_str_eq(apply("/var/tmp"), "Syslog");
	ck_assert_int_eq(last, EHS_CONFIG_FILE_ABSENT);
	unlink(path);
	ck_assert_str_eq(apply(path), "Syslog");
	ck_assert_int_eq(last, EHS_CONFIG_FILE_ABSENT);
}
END_TEST

/* No descriptor free: the file is to be read again later, not taken as
 * absent. */
START_TEST(file_without_descriptor_is_retried)
{
	struct rlimit rl;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	int fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	struct rlimit low = { (rlim_t)fd, rl.rlim_max };
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	close(fd);	/* every number below the limit is taken */
	ck_assert_str_eq(apply("/dev/null"), "Syslog");
	ck_assert_int_eq(last, EHS_CONFIG_FILE_RETRY);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
}
END_TEST

/* The environment goes through the file's rules; each refusal is told,
 * in the library's order, and changes nothing. */
struct refusals {
	int count;
	char names[4][32];
	char values[4][16];
	enum ehs_config_error why[4];
};

static void refused(void *ctx, const char *name, const char *value, enum ehs_config_error why)
{
	struct refusals *r = ctx;

	ck_assert_int_lt(r->count, 4);
	snprintf(r->names[r->count], sizeof r->names[0], "%s", name);
	snprintf(r->values[r->count], sizeof r->values[0], "%s", value);
	r->why[r->count++] = why;
}

static void expect_refusal(const struct refusals *r, int i, const char *name,
			   const char *value, enum ehs_config_error why)
{
	ck_assert_int_lt(i, r->count);
	ck_assert_str_eq(r->names[i], name);
	ck_assert_str_eq(r->values[i], value);
	ck_assert_int_eq(r->why[i], why);
}

START_TEST(environment)
{
	struct ehs_config c;
	struct refusals r = { 0 };

	setenv("EHSYSLOG_PROVIDER", "x-y", 1);
	setenv("EHSYSLOG_PASSTHROUGH", "maybe", 1);
	setenv("EHSYSLOG_DISABLE", "yes", 1);
	ehs_config_defaults(&c);
	ehs_config_apply_env(&c, refused, &r);
	ck_assert_str_eq(c.provider, "Syslog");
	ck_assert(c.passthrough);
	ck_assert(c.disable);
	ck_assert_int_eq(r.count, 2);
	expect_refusal(&r, 0, "EHSYSLOG_PROVIDER", "x-y", EHS_CONF_PROVIDER);
	expect_refusal(&r, 1, "EHSYSLOG_PASSTHROUGH", "maybe", EHS_CONF_BOOL);

	/* Values are taken as they are: no trimming, unlike the file's. */
	setenv("EHSYSLOG_PROVIDER", " Mine", 1);
	setenv("EHSYSLOG_PASSTHROUGH", "off", 1);
	ehs_config_apply_env(&c, NULL, NULL);
	ck_assert_str_eq(c.provider, "Syslog");
	ck_assert(!c.passthrough);
	setenv("EHSYSLOG_PROVIDER", "Mine", 1);
	ehs_config_apply_env(&c, NULL, NULL);
	ck_assert_str_eq(c.provider, "Mine");

	ck_assert(ehs_config_env_known("EHSYSLOG_CONFIG"));
	ck_assert(ehs_config_env_known("EHSYSLOG_DISABLE"));
	ck_assert(!ehs_config_env_known("EHSYSLOG_PROVDER"));
	ck_assert(!ehs_config_env_known("EHSYSLOG_"));
	unsetenv("EHSYSLOG_PROVIDER");
	unsetenv("EHSYSLOG_PASSTHROUGH");
	unsetenv("EHSYSLOG_DISABLE");
}
END_TEST

START_TEST(environment_syslog)
{
	struct ehs_config c;
	struct refusals r = { 0 };

	ck_assert(ehs_config_env_known("EHSYSLOG_SYSLOG_PORTS"));
	ck_assert(ehs_config_env_known("EHSYSLOG_REMOTE_SYSLOG"));
	setenv("EHSYSLOG_SYSLOG_PORTS", "  6514 , 10514 ", 1);
	setenv("EHSYSLOG_REMOTE_SYSLOG", "yes", 1);
	ehs_config_defaults(&c);
	ehs_config_apply_env(&c, refused, &r);
	ck_assert_int_eq(r.count, 0);
	EXPECT_PORTS(&c, 6514, 10514);
	ck_assert(c.remote_syslog);

	setenv("EHSYSLOG_SYSLOG_PORTS", "65536", 1);
	setenv("EHSYSLOG_REMOTE_SYSLOG", "maybe", 1);
	ehs_config_defaults(&c);
	ehs_config_apply_env(&c, refused, &r);
	EXPECT_PORTS(&c, 514, 601);
	ck_assert(!c.remote_syslog);
	ck_assert_int_eq(r.count, 2);
	expect_refusal(&r, 0, "EHSYSLOG_SYSLOG_PORTS", "65536", EHS_CONF_PORTS);
	expect_refusal(&r, 1, "EHSYSLOG_REMOTE_SYSLOG", "maybe", EHS_CONF_BOOL);
	unsetenv("EHSYSLOG_SYSLOG_PORTS");
	unsetenv("EHSYSLOG_REMOTE_SYSLOG");
}
END_TEST

/* The preload layer's accessors read the process's configuration, the
 * file and then the environment, on first use. */
START_TEST(loaded_settings)
{
	char path[] = "/var/tmp/ehsyslog-conf-XXXXXX";
	static const char text[] = "syslog_ports = 6514\nremote_syslog = yes\n";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	setenv("EHSYSLOG_CONFIG", path, 1);
	setenv("EHSYSLOG_SYSLOG_PORTS", "10514 514", 1);
	ck_assert(ehs_config_remote_syslog());
	ck_assert(ehs_config_syslog_port(10514));
	ck_assert(ehs_config_syslog_port(514));
	ck_assert(!ehs_config_syslog_port(6514));
	ck_assert(!ehs_config_syslog_port(601));
	ck_assert(!ehs_config_syslog_port(0));
	ck_assert(!ehs_config_syslog_port(514 + 65536));
	unsetenv("EHSYSLOG_CONFIG");
	unsetenv("EHSYSLOG_SYSLOG_PORTS");
	unlink(path);
}
END_TEST

/* [export] is the tool's: the library takes the file, skips its keys
 * (unknown to it) and checks only that they are key = value. */
START_TEST(export_section_skipped)
{
	struct ehs_config c;
	struct ehs_config_status st;
	ck_assert_int_eq(parse("provider = A\n"
			       "[ export ]\n"
			       "endpoint = http://x:4318\n"
			       "provider = not!checked\n"
			       "[program p]\n"
			       "disable = yes\n", "p", &c, &st), 0);
	ck_assert_str_eq(c.provider, "A");
	ck_assert(c.disable);
	ck_assert_int_eq(parse("[export]\nendpoint\n", "p", &c, &st), -1);
	ck_assert_int_eq(st.error, EHS_CONF_SYNTAX);
	ck_assert_uint_eq(st.line, 2);
	ck_assert_int_eq(parse("[exports]\n", "p", &c, &st), -1);
	ck_assert_int_eq(st.error, EHS_CONF_SECTION);
}
END_TEST

struct seen {
	char text[256];
	int stop_at;	/* fn returns 7 at this call */
	int calls;
};

static int note_pair(void *ctx, unsigned line, const char *key, size_t key_len,
		     const char *value, size_t value_len)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);
	snprintf(s->text + used, sizeof s->text - used, "%u:%.*s=%.*s;", line, (int)key_len, key,
		 (int)value_len, value);
	return ++s->calls == s->stop_at ? 7 : 0;
}

START_TEST(export_section_walk)
{
	static const char file[] = "endpoint = global, not export's\n"
				   "[export]\n"
				   "  endpoint =  http://a:1  # cut\n"
				   "\n"
				   "resource=k=v\n"
				   "[program export]\n"
				   "cacert = no\n"
				   "[export]\n"
				   "batch-size = \n";
	struct ehs_config_status st;
	struct seen s = { .stop_at = -1 };
	ck_assert_int_eq(ehs_config_section(file, strlen(file), "export", note_pair, &s, &st), 0);
	ck_assert_str_eq(s.text, "3:endpoint=http://a:1;5:resource=k=v;9:batch-size=;");
	ck_assert_int_eq(st.error, EHS_CONF_OK);
	struct seen stop = { .stop_at = 2 };
	ck_assert_int_eq(ehs_config_section(file, strlen(file), "export", note_pair, &stop, &st), 7);
	ck_assert_str_eq(stop.text, "3:endpoint=http://a:1;5:resource=k=v;");
	/* Not key = value inside: the line; outside: not the walk's business. */
	static const char bad[] = "nonsense\n[export]\nendpoint = x\nnonsense\n";
	struct seen b = { .stop_at = -1 };
	ck_assert_int_eq(ehs_config_section(bad, strlen(bad), "export", note_pair, &b, &st), -1);
	ck_assert_int_eq(st.error, EHS_CONF_SYNTAX);
	ck_assert_uint_eq(st.line, 4);
	ck_assert_str_eq(b.text, "3:endpoint=x;");
	char longline[EHS_CONFIG_LINE_MAX + 32] = "[export]\nk=";
	memset(longline + strlen(longline), 'v', EHS_CONFIG_LINE_MAX);
	struct seen l = { .stop_at = -1 };
	ck_assert_int_eq(ehs_config_section(longline, strlen(longline), "export", note_pair, &l, &st),
			 -1);
	ck_assert_int_eq(st.error, EHS_CONF_LINE);
	ck_assert_uint_eq(st.line, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge config parser");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, global_keys);
	tcase_add_test(tc, syslog_ports);
	tcase_add_test(tc, stdio_streams);
	tcase_add_test(tc, program_sections);
	tcase_add_test(tc, booleans);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, provider_limits);
	tcase_add_test(tc, file_trusted_only_as_root);
	tcase_add_test(tc, file_without_descriptor_is_retried);
	tcase_add_test(tc, environment);
	tcase_add_test(tc, environment_syslog);
	tcase_add_test(tc, loaded_settings);
	tcase_add_test(tc, export_section_skipped);
	tcase_add_test(tc, export_section_walk);
	suite_add_tcase(s, tc);
	return check_run(s);
}
