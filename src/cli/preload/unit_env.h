/* SPDX-License-Identifier: MIT */
/*
 * A service's LD_PRELOAD as systemd holds it, so that the drop-in that
 * adds our library keeps it: a drop-in's Environment=LD_PRELOAD=
 * replaces the unit's, and systemd has no way to append to one.
 * What a unit sets through EnvironmentFile= is not visible here.
 */
#ifndef CLI_UNIT_ENV_H
#define CLI_UNIT_ENV_H

/*
 * Runs "$EHSYSLOG_SYSTEMCTL show --property=Environment --value UNIT"
 * (systemctl by default) and sets *value to the entries of the
 * LD_PRELOAD it shows, joined by ':', "" when none (malloc'ed).
 * Returns 0, or -1 when systemctl could not tell (not installed, no
 * systemd running, out of memory): *value is then NULL.
 */
int unit_env_ld_preload(const char *unit, char **value);

/*
 * The entries of an LD_PRELOAD value (separated by ':' or white space,
 * as ld.so reads it) other than lib, joined by ':'.  Malloc'ed; NULL
 * when out of memory.
 */
char *unit_env_without(const char *ld_preload, const char *lib);

#endif /* CLI_UNIT_ENV_H */
