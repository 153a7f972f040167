/* SPDX-License-Identifier: MIT */
/* TEMPORARY: the declaration the tool uses from branch bridge's
 * src/bridge/config_load.h.  Deleted with src/cli/tmp_include/ at merge. */
#ifndef EHS_BRIDGE_CONFIG_LOAD_H
#define EHS_BRIDGE_CONFIG_LOAD_H

#include "bridge/config_parse.h"

void ehs_config_apply_env(struct ehs_config *c);

#endif
