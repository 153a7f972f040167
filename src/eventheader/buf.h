/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of the builder: the two ways a write into an eh_buf
 * can go wrong.  The little-endian stores are common/le.h's.
 */
#ifndef EVENTHEADER_BUF_H
#define EVENTHEADER_BUF_H

#include <stdint.h>
#include <string.h>

#include "common/le.h"
#include "eventheader/eventheader.h"

/* Records err unless an earlier error is already there (the first one is
 * what the caller gets at the end); returns the recorded error. */
int eh_buf_fail(struct eh_buf *b, int err);

/* n bytes at the end of b, counted as written, or NULL (error recorded). */
uint8_t *eh_buf_reserve(struct eh_buf *b, size_t n);

#endif
