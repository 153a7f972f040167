/* SPDX-License-Identifier: MIT */
/* Between the files here: the lines in progress, mapped once. */
#ifndef EHS_BRIDGE_OUTPUT_STREAM_H
#define EHS_BRIDGE_OUTPUT_STREAM_H

#include <stdbool.h>

/* Maps the line state of descriptors 1 and 2, unless done; false where
 * no memory could be had (then neither is watched). */
bool ehs_output_streams_mapped(void);

/* Registers the tracepoints a stream's lines go to (each level at
 * facility daemon), so that an untraced one reads as idle from then on. */
void ehs_output_prepare(void);

/* Whether fd is a watched stream (1 or 2) whose lines are traced now. */
bool ehs_output_traced_on(int fd);

/* A spinning wait's pause: the CPU's hint that this is one. */
static inline void ehs_output_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

#endif
