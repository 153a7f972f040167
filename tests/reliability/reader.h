/* SPDX-License-Identifier: MIT */
/*
 * Reading the library's events back for the reliability tests: a private
 * ftrace instance, the events of the fixed schema taken apart from the raw
 * record (message, severity, facility), each also run through the
 * decoder, which must accept it.
 */
#ifndef RELIAB_READER_H
#define RELIAB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracefs_instance;

struct rev {
	char name[256];		/* tracepoint name (EH_NAME_MAX) */
	int pid;		/* the writing thread's id */
	unsigned long long ts;
	const char *msg;	/* message bytes (not NUL-terminated) */
	size_t msg_len;
	uint8_t severity, facility;
	int32_t err;
	bool decoded;		/* eh_decode_json accepted the event */
};

/* Called for every event read; ctx is the reader's. */
typedef void rev_fn(const struct rev *ev, void *ctx);

struct reader {
	struct tracefs_instance *inst;
	char name[64];
};

/* A new instance named after the test, with buf_kb KiB per CPU (0: the
 * default).  Aborts the test when tracefs refuses. */
void reader_open(struct reader *r, const char *name, unsigned buf_kb);
/* Enables user_events:<tp> (it must be registered) in the instance. */
void reader_enable(struct reader *r, const char *tp);
/* Reads (and consumes) what the instance holds; returns the count. */
long reader_drain(struct reader *r, rev_fn *fn, void *ctx);
/* Events the instance itself reports lost: overrun + dropped, all CPUs. */
unsigned long long reader_lost(struct reader *r);
/* The instance's directory, for helpers that toggle events by hand. */
char *reader_dir(struct reader *r);
void reader_close(struct reader *r);

/* Collecting into an array, oldest first: the usual case. */
struct revs {
	struct rev *v;
	size_t n, cap;
};
void revs_collect(const struct rev *ev, void *ctx);	/* a rev_fn */
void revs_sort(struct revs *s);
void revs_free(struct revs *s);
/* Events in s from pid whose message is exactly text. */
size_t revs_count(const struct revs *s, int pid, const char *text);

#endif
