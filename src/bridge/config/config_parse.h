/* SPDX-License-Identifier: MIT */
/*
 * The configuration file's parser (syntax in <ehsyslog/settings.h>, where
 * the tool finds it too), from a buffer with no I/O, so that it can be
 * unit-tested and fuzzed.  What only the bridge uses is here.
 */
#ifndef EHS_BRIDGE_CONFIG_PARSE_H
#define EHS_BRIDGE_CONFIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include <ehsyslog/settings.h>

/*
 * Sets key (provider, passthrough, disable, syslog_ports or
 * remote_syslog, as in the file) to value
 * in *c.  Returns EHS_CONF_OK, or why value was refused (then *c is
 * unchanged).  The file's lines and the environment both go through it.
 */
enum ehs_config_error ehs_config_set(struct ehs_config *c, const char *key, size_t key_len,
				     const char *value, size_t value_len);

/* Parses yes|no|on|off|true|false|1|0 (exact, lower case). */
int ehs_parse_bool(const char *s, size_t len, bool *out);

#endif
