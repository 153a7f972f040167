/* SPDX-License-Identifier: MIT */
/*
 * Providers: a name and options, and the tracepoints created for each
 * (level, keyword) asked for.  Lookups walk a list that only grows, so
 * they take no lock; creation is serialized per provider.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader/eventheader.h"
#include "ehsyslog/user_events.h"

struct ue_provider_tp {
	struct ue_tracepoint tp;
	unsigned level;
	uint64_t keyword;
	struct ue_provider_tp *next;
	char name[];
};

struct ue_provider {
	struct ue_provider_tp *head;	/* newest first; read without the lock */
	pthread_mutex_t lock;		/* serializes creation */
	const char *options;		/* into name[] after the provider's NUL */
	char name[];
};

struct ue_provider *ue_provider_open(const char *provider_name, const char *options)
{
	char probe[EH_NAME_MAX];
	struct ue_provider *p;
	size_t nl, ol;

	if (!provider_name) {
		errno = EINVAL;
		return NULL;
	}
	if (!options)
		options = "";
	/* The longest level and keyword: if that name is valid, all are. */
	if (eh_tracepoint_name(probe, sizeof probe, provider_name, 0xff,
			       UINT64_MAX, options) < 0) {
		errno = EINVAL;
		return NULL;
	}
	nl = strlen(provider_name);
	ol = strlen(options);
	p = malloc(sizeof *p + nl + 1 + ol + 1);
	if (!p)
		return NULL;
	p->head = NULL;
	pthread_mutex_init(&p->lock, NULL);
	memcpy(p->name, provider_name, nl + 1);
	memcpy(p->name + nl + 1, options, ol + 1);
	p->options = p->name + nl + 1;
	return p;
}

static struct ue_tracepoint *find(struct ue_provider *p, unsigned level, uint64_t keyword)
{
	for (struct ue_provider_tp *t = __atomic_load_n(&p->head, __ATOMIC_ACQUIRE); t;
	     t = t->next) {
		if (t->level == level && t->keyword == keyword)
			return &t->tp;
	}
	return NULL;
}

struct ue_tracepoint *ue_provider_tracepoint(struct ue_provider *p, unsigned level,
					     uint64_t keyword)
{
	int saved = errno;
	char name[EH_NAME_MAX];
	struct ue_tracepoint *tp;
	struct ue_provider_tp *t;
	int len;

	if (!p || level == 0 || level > 0xff)
		return NULL;
	tp = find(p, level, keyword);
	if (tp)
		return tp;
	pthread_mutex_lock(&p->lock);
	tp = find(p, level, keyword);
	if (!tp && (len = eh_tracepoint_name(name, sizeof name, p->name, level, keyword,
					    p->options)) >= 0) {
		len = (int)strlen(name);
		t = malloc(sizeof *t + (size_t)len + 1);
		if (t) {
			memcpy(t->name, name, (size_t)len + 1);
			t->tp = (struct ue_tracepoint)UE_TRACEPOINT_INIT(t->name);
			t->level = level;
			t->keyword = keyword;
			t->next = p->head;
			__atomic_store_n(&p->head, t, __ATOMIC_RELEASE);
			tp = &t->tp;
		}
	}
	pthread_mutex_unlock(&p->lock);
	errno = saved;
	return tp;
}

void ue_provider_close(struct ue_provider *p)
{
	int saved = errno;
	struct ue_provider_tp *t, *next;

	if (!p)
		return;
	for (t = p->head; t; t = next) {
		next = t->next;
		ue_tracepoint_unregister(&t->tp);
		free(t);
	}
	pthread_mutex_destroy(&p->lock);
	free(p);
	errno = saved;
}
