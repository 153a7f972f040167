/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/preload/unit_name.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SERVICE_SUFFIX ".service"

/* The other unit types: "NAME.socket" is not a service called that. */
static const char *const other_types[] = {
	".socket", ".target", ".device", ".mount", ".automount", ".swap",
	".timer", ".path", ".slice", ".scope",
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The characters systemd allows in a unit name. */
static bool valid_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr(":-_.\\@", c) != NULL;
}

const char *unit_name_service(const char *arg, char out[UNIT_NAME_SIZE])
{
	size_t i;

	if (arg[0] == '\0')
		return "empty";
	for (i = 0; arg[i]; i++)
		if (!valid_char(arg[i]))
			return "a unit name holds only ASCII letters, digits and \":-_.\\@\"";
	for (i = 0; i < sizeof other_types / sizeof other_types[0]; i++)
		if (ends_with(arg, other_types[i]))
			return "not a service (only a .service unit runs a program)";
	if (strcmp(arg, SERVICE_SUFFIX) == 0)
		return "no name before .service";
	if ((size_t)snprintf(out, UNIT_NAME_SIZE, "%s%s", arg,
			     ends_with(arg, SERVICE_SUFFIX) ? "" : SERVICE_SUFFIX) >= UNIT_NAME_SIZE)
		return "longer than systemd's 255 characters";
	return NULL;
}
