/* SPDX-License-Identifier: MIT */
/*
 * An event through a probe site: its strings built on the stack, the
 * site called.  Reached only while the site is armed, so the cost here
 * is a traced event's, and the kernel's trap dominates it.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <ehsyslog/usdt.h>

#include "usdt/sites.h"

/* Each site's first instruction, as the kernel sees it. */
static const volatile usdt_insn *site_insn(unsigned level)
{
	switch (level) {
	case 1: return (const volatile usdt_insn *)(void *)usdt_site_L1;
	case 2: return (const volatile usdt_insn *)(void *)usdt_site_L2;
	case 3: return (const volatile usdt_insn *)(void *)usdt_site_L3;
	case 4: return (const volatile usdt_insn *)(void *)usdt_site_L4;
	case 5: return (const volatile usdt_insn *)(void *)usdt_site_L5;
	default: return NULL;
	}
}

bool usdt_site_armed(unsigned level)
{
	const volatile usdt_insn *insn = site_insn(level);
	/* Anything but our nops is the kernel's: its breakpoint, or at the
	 * nop5 of a kernel that optimises uprobes, its call. */
#ifdef USDT_SITE_NOP5
	return insn && (insn[0] != USDT_SITE_NOP || insn[1] != USDT_SITE_NOP5);
#else
	return insn && *insn != USDT_SITE_NOP;
#endif
}

static const char b64_digits[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The 3-byte groups of iov as base64 at out: a group may span pieces. */
static size_t b64_iov(char *out, const struct iovec *iov, int iovcnt)
{
	unsigned char g[3];
	size_t n = 0, o = 0;

	for (int i = 0; i < iovcnt; i++) {
		const unsigned char *p = iov[i].iov_base;
		for (size_t k = 0; k < iov[i].iov_len; k++) {
			g[n++] = p[k];
			if (n < 3)
				continue;
			out[o++] = b64_digits[g[0] >> 2];
			out[o++] = b64_digits[(g[0] & 3) << 4 | g[1] >> 4];
			out[o++] = b64_digits[(g[1] & 15) << 2 | g[2] >> 6];
			out[o++] = b64_digits[g[2] & 63];
			n = 0;
		}
	}
	if (n) {
		if (n == 1)
			g[1] = 0;
		out[o++] = b64_digits[g[0] >> 2];
		out[o++] = b64_digits[(g[0] & 3) << 4 | g[1] >> 4];
		out[o++] = n == 2 ? b64_digits[(g[1] & 15) << 2] : '=';
		out[o++] = '=';
	}
	return o;
}

/* Copies up to max bytes of s[0..len) and a NUL to out; returns what
 * it took, NUL included.  A cut string stays a string: a NUL inside
 * ends it where the kernel will. */
static size_t put_string(char *out, const char *s, size_t len, size_t max)
{
	if (len > max)
		len = max;
	memcpy(out, s, len);
	out[len] = '\0';
	return len + 1;
}

int usdt_write(const struct usdt_fields *f, const struct iovec *iov, int iovcnt,
	       char buf[USDT_STRINGS_MAX])
{
	size_t size = 0;
	for (int i = 0; i < iovcnt; i++) {
		if (iov[i].iov_len > USDT_EVENT_MAX)
			return -EMSGSIZE;
		size += iov[i].iov_len;
	}
	if (size > USDT_EVENT_MAX)
		return -EMSGSIZE;
	if (f->level < 1 || f->level > USDT_LEVELS)
		return -EINVAL;

	/* The event first: it is never cut.  (USDT_EVENT_MAX + 2) / 3 * 4
	 * + 1 + 2 fits with room left, checked below at compile time. */
	_Static_assert((USDT_EVENT_MAX + 2) / 3 * 4 + 3 < USDT_STRINGS_MAX, "event fits");
	size_t at = b64_iov(buf, iov, iovcnt);
	buf[at++] = '\0';
	char *event = buf;

	/* provider:name, cut to leave the message its NUL at least */
	char *name = buf + at;
	size_t room = USDT_STRINGS_MAX - at - 2;
	size_t plen = f->provider_len < room ? f->provider_len : room;
	memcpy(name, f->provider, plen);
	at += plen;
	if (at < USDT_STRINGS_MAX - 3)
		buf[at++] = ':';
	const char *n = f->name ? f->name : "";
	at += put_string(buf + at, n, strlen(n), USDT_STRINGS_MAX - at - 2);
	char *message = buf + at;
	at += put_string(message, f->message ? f->message : "", f->message ? f->message_len : 0,
			 USDT_STRINGS_MAX - at - 1);

	switch (f->level) {
	case 1: usdt_site_L1(message, name, f->severity, f->facility, f->err, event); break;
	case 2: usdt_site_L2(message, name, f->severity, f->facility, f->err, event); break;
	case 3: usdt_site_L3(message, name, f->severity, f->facility, f->err, event); break;
	case 4: usdt_site_L4(message, name, f->severity, f->facility, f->err, event); break;
	default: usdt_site_L5(message, name, f->severity, f->facility, f->err, event); break;
	}
	/* The strings must outlive the probe: the kernel reads them at the
	 * site, and the compiler must not see the buffer as dead first. */
	__asm__ volatile("" : : "r"(buf) : "memory");
	return 0;
}
