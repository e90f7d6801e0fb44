/* SPDX-License-Identifier: BSD-3-Clause */
/* Names from outside: which can be carried, and how a message shows
 * any of them (names.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

/* How much of a name a message shows before "...". */
#define SHOW_HEAD 48

static int say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The code point at s and its length in *k; -1: not UTF-8 there (a
 * stray or missing continuation byte, an overlong form, a surrogate,
 * beyond U+10FFFF). The NUL ending s is never a continuation byte. */
static long utf8_at(const unsigned char *s, size_t *k)
{
	static const long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned c = s[0];
	int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		(c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	long cp;

	if (n == 0)
		return -1;
	cp = n == 1 ? (long) c : (long) (c & (0x7fu >> n));
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*k = (size_t) n;
	return cp;
}

/* What a code point the rule refuses is, in words; NULL: allowed. */
static const char *refused(long cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return "a control character";
	if (cp == 0x2028 || cp == 0x2029)
		return "a line or paragraph separator";
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return "a bidirectional control";
	return NULL;
}

int cxd_name_check(const char *name, size_t max, char *why, size_t len)
{
	const unsigned char *s = (const unsigned char *) name;
	size_t n = strlen(name), k = 1;

	if (n == 0)
		return say(why, len, "empty");
	if (n > max)
		return say(why, len, "%zu bytes long, over %zu", n, max);
	for (size_t i = 0; i < n; i += k) {
		long cp = utf8_at(s + i, &k);
		const char *what = cp < 0 ? NULL : refused(cp);

		if (cp < 0)
			return say(why, len, "not UTF-8 (byte 0x%02x at byte "
				   "%zu)", s[i], i + 1);
		if (what)
			return say(why, len, "%s (U+%04lX) at byte %zu", what,
				   cp, i + 1);
	}
	return 0;
}

void cxd_name_show(const char *name, char *out, size_t len)
{
	const unsigned char *s = (const unsigned char *) name;
	size_t n = strlen(name), o = 0, k = 1, i;

	if (len == 0)
		return;
	for (i = 0; i < n && i < SHOW_HEAD && o + 5 < len; i += k) {
		long cp = utf8_at(s + i, &k);

		if (cp < 0 || refused(cp)) {
			k = 1; /* each byte of it, and what follows, anew */
			o += (size_t) snprintf(out + o, len - o, "\\x%02x",
					       s[i]);
		} else if (cp == '\\') {
			out[o++] = '\\';
			out[o++] = '\\';
		} else {
			memcpy(out + o, s + i, k);
			o += k;
		}
	}
	out[o] = '\0';
	if (i < n)
		snprintf(out + o, len - o, "... (%zu bytes)", n);
}

void cxd_name_sanitize(char *msg, size_t len)
{
	char copy[2048];
	const unsigned char *s = (const unsigned char *) copy;
	size_t o = 0, k = 1;

	if (len == 0)
		return;
	snprintf(copy, sizeof(copy), "%s", msg);
	for (size_t i = 0; s[i] && o + 5 < len; i += k) {
		long cp = utf8_at(s + i, &k);

		if (cp < 0 || refused(cp)) {
			k = 1;
			o += (size_t) snprintf(msg + o, len - o, "\\x%02x",
					       s[i]);
		} else {
			memcpy(msg + o, s + i, k);
			o += k;
		}
	}
	msg[o] = '\0';
}
