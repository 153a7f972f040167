/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: declarations of branch bridge's src/bridge/config_parse.h
 * (commit fad5bff), which wins once merged (src/ comes first on the
 * include path).  The lead deletes src/cli/tmp_include/ at merge.
 */
#ifndef EHS_BRIDGE_CONFIG_PARSE_H
#define EHS_BRIDGE_CONFIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define EHS_PROVIDER_MAX 200
#define EHS_CONFIG_LINE_MAX 1024
#define EHS_DEFAULT_PROVIDER "Syslog"

struct ehs_config {
	char provider[EHS_PROVIDER_MAX + 1];
	bool passthrough;
	bool disable;
};

enum ehs_config_error {
	EHS_CONF_OK = 0,
	EHS_CONF_SYNTAX,
	EHS_CONF_KEY,
	EHS_CONF_BOOL,
	EHS_CONF_PROVIDER,
	EHS_CONF_SECTION,
	EHS_CONF_LINE,
};

struct ehs_config_status {
	enum ehs_config_error error;
	unsigned line;
};

void ehs_config_defaults(struct ehs_config *c);
int ehs_provider_valid(const char *provider, size_t len);
int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_config *c, struct ehs_config_status *st);
const char *ehs_config_strerror(enum ehs_config_error e);
int ehs_parse_bool(const char *s, size_t len, bool *out);

#endif
