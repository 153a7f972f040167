/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the configuration file parser.  The input is the
 * file; it is parsed for two programs, one named in a section of the seed
 * corpus and one never named.  The buffer is an exact-size heap copy with
 * no NUL after it, so ASan sees any read past the end.  Checked: a success
 * leaves a valid provider and 1..EHS_SYSLOG_PORTS_MAX ports none of them
 * 0; a failure leaves the configuration untouched and names a line within
 * the file.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config/config_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool ports_valid(const struct ehs_config *c)
{
	if (c->nports == 0 || c->nports > EHS_SYSLOG_PORTS_MAX)
		return false;
	for (unsigned i = 0; i < c->nports; i++)
		if (c->ports[i] == 0)
			return false;
	return true;
}

static void parse_for(const char *buf, size_t len, const char *program)
{
	struct ehs_config c, before;
	struct ehs_config_status st;
	size_t lines = 1;

	ehs_config_defaults(&c);
	before = c;
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (ehs_config_parse(buf, len, program, &c, &st) == 0) {
		if (st.error != EHS_CONF_OK ||
		    ehs_provider_valid(c.provider, strlen(c.provider)) != 0 ||
		    !ports_valid(&c))
			abort();
	} else {
		if (st.error == EHS_CONF_OK || st.line == 0 || st.line > lines ||
		    memcmp(&c, &before, sizeof c) != 0 ||
		    !ehs_config_strerror(st.error))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);

	if (!buf)
		abort();
	memcpy(buf, data, size);
	parse_for(buf, size, "sshd");
	parse_for(buf, size, "");
	free(buf);
	return 0;
}
