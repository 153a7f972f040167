/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/native_cache.h"

#include <stdbool.h>
#include <string.h>

void ehs_native_cache_put(struct ehs_event_cache *cache, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields,
			  const uint8_t *head, size_t head_len)
{
	struct native_cache *c = (struct native_cache *)cache;
	size_t room = sizeof *cache - offsetof(struct native_cache, keys);
	size_t keys = nfields * sizeof c->keys[0];
	if (nfields > UINT16_MAX || keys > room || head_len > room - keys)
		return;
	/* Claimed by one caller; anyone else, a signal handler that
	 * interrupted it included, finds it filling and builds its own. */
	uint32_t empty = NATIVE_CACHE_EMPTY;
	if (!__atomic_compare_exchange_n(&c->state, &empty, NATIVE_CACHE_FILLING, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	c->event_name = event_name;
	c->nfields = (uint16_t)nfields;
	c->head_len = (uint16_t)head_len;
	for (unsigned i = 0; i < nfields; i++) {
		c->keys[i].name = fields[i].name;
		c->keys[i].type = (unsigned long)fields[i].type;
	}
	memcpy(c->keys + nfields, head, head_len);
	/* Readers acquire this: they see every byte above. */
	__atomic_store_n(&c->state, NATIVE_CACHE_FILLED, __ATOMIC_RELEASE);
}
