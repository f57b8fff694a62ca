/*
 * error.c - fills a struct error with one printable line (errno's text after
 * it, for error_errno); never prints it, cmd/ does, nor knows what failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* length of the valid UTF-8 sequence at s (s[0] >= 0x80), or 0 */
static size_t
utf8_len(const unsigned char *s, size_t left)
{
	long bad;
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;

	if (n > left)
		return 0;
	bad = utf8_invalid_at((const char *)s, n);
	/* C1 controls (U+0080 to U+009F) are terminal escapes too */
	if (bad >= 0 || (s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	return n;
}

/*
 * Printable UTF-8 is kept (an accent, a CJK character); a control
 * character is \n, \t, \r or \xHH, and so is each byte that is not part
 * of valid UTF-8, so what a server or a bad input held shows exactly.
 */
size_t
error_printable_n(char *out, size_t size, const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t k = 0, i = 0, n;
	unsigned char c;

	if (size == 0)
		return 0;
	while (i < len) {
		c = s[i];
		n = c < 0x80 ? (c >= 0x20 && c != 0x7f) : utf8_len(s + i, len - i);
		if (n > 0) {
			if (k + n >= size)
				break;
			memcpy(out + k, s + i, n);
			k += n;
			i += n;
			continue;
		}
		if (k + 4 >= size)
			break;
		out[k++] = '\\';
		if (c == '\n' || c == '\t' || c == '\r')
			out[k++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		else {
			out[k++] = 'x';
			out[k++] = hex[c >> 4];
			out[k++] = hex[c & 15];
		}
		i++;
	}
	out[k] = '\0';
	return k;
}

size_t
error_printable(char *out, size_t size, const char *s)
{
	return error_printable_n(out, size, s, strlen(s));
}

/*
 * fmt into e, then ": " and strerror(*err) unless err is NULL; e may be NULL.
 * A message quotes what it found (a stored value, the JSON around a syntax
 * error), so it is made printable: always one line, no terminal escapes.
 */
static int
vset(struct error *e, const int *err, const char *fmt, va_list ap)
{
	struct buf raw = { 0 };
	size_t n;

	if (e == NULL)
		return -1;
	e->kind = ERROR_FAILED;
	e->hint = NULL;
	buf_vaddf(&raw, fmt, ap);
	if (err != NULL)
		buf_addf(&raw, ": %s", strerror(*err));
	n = error_printable_n(e->msg, sizeof(e->msg), raw.data, raw.len);
	/* too long for one message (a path of thousands of bytes): say so */
	if (n + 1 >= sizeof(e->msg) - 4)
		memcpy(e->msg + sizeof(e->msg) - 4, "...", 4);
	buf_free(&raw);
	return -1;
}

int
error_set(struct error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(e, NULL, fmt, ap);
	va_end(ap);
	return -1;
}

int
error_errno(struct error *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vset(e, &saved, fmt, ap);
	va_end(ap);
	errno = saved;
	return -1;
}

void
buf_add_printable_n(struct buf *b, const char *s, size_t len)
{
	char *out = xmalloc(4 * len + 1);	/* \xHH for every byte at most */
	size_t n;

	n = error_printable_n(out, 4 * len + 1, s, len);
	buf_add(b, out, n);
	free(out);
}

void
buf_add_for_terminal(struct buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	const unsigned char *run = p;
	size_t n;

	while (p < end) {
		if (*p == 0x7f || (*p < 0x20 && *p != '\n' && *p != '\t' &&
		    !(*p == '\r' && p + 1 < end && p[1] == '\n')))
			n = 1;
		else if (p[0] == 0xc2 && p + 1 < end && p[1] >= 0x80 &&
		    p[1] < 0xa0)
			n = 2;	/* C1, U+0080 to U+009F: CSI is U+009B */
		else {
			p++;
			continue;
		}
		buf_add(b, run, (size_t)(p - run));
		buf_add_printable_n(b, (const char *)p, n);
		p += n;
		run = p;
	}
	buf_add(b, run, (size_t)(p - run));
}

void
buf_add_text(struct buf *b, const char *s, size_t len, int terminal)
{
	if (terminal)
		buf_add_for_terminal(b, s, len);
	else
		buf_add(b, s, len);
}

void
buf_add_printable(struct buf *b, const char *s)
{
	buf_add_printable_n(b, s, strlen(s));
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
buf_add_percent_decoded(struct buf *b, const char *s, size_t n)
{
	size_t i;
	int hi, lo;

	buf_adds(b, "");
	for (i = 0; i < n; i++) {
		if (s[i] != '%') {
			buf_addc(b, s[i]);
			continue;
		}
		if (i + 2 >= n || (hi = hex_value(s[i + 1])) < 0 ||
		    (lo = hex_value(s[i + 2])) < 0 || (hi == 0 && lo == 0))
			return -1;
		buf_addc(b, (char)(hi << 4 | lo));
		i += 2;
	}
	return 0;
}

void
buf_add_url(struct buf *b, const char *url)
{
	const char *auth = strstr(url, "://"), *end, *at, *colon;

	if (auth == NULL) {
		buf_adds(b, url);
		return;
	}
	auth += 3;
	end = auth + strcspn(auth, "/?#");
	/* the user information taken to the authority's last '@': no part of
	 * a password holding one unencoded is shown */
	for (at = end; at > auth && at[-1] != '@'; at--)
		;
	colon = at > auth ? memchr(auth, ':', (size_t)(at - 1 - auth)) : NULL;
	if (colon == NULL) {
		buf_adds(b, url);
		return;
	}
	buf_add(b, url, (size_t)(colon + 1 - url));
	buf_adds(b, "***");
	buf_adds(b, at - 1);
}

/* as add_printable, but in double quotes (\" and \\ inside) unless it is
 * one plain word: printable, none of space , " \ # */
void
buf_add_quoted_word(struct buf *b, const char *s)
{
	struct buf part = { 0 };
	const char *p;
	size_t n;

	if (*s != '\0' && strpbrk(s, " ,\"\\#") == NULL) {
		for (p = s; *p != '\0' && (unsigned char)*p >= 0x20 &&
		    *p != 0x7f && !((unsigned char)p[0] == 0xc2 &&
		    (unsigned char)p[1] < 0xa0); p++)
			;
		if (*p == '\0') {
			buf_add_printable(b, s);
			return;
		}
	}
	buf_addc(b, '"');
	for (p = s; *p != '\0';) {
		n = strcspn(p, "\"\\");
		if (n > 0) {
			buf_add(&part, p, n);
			buf_add_printable(b, part.data);
			part.len = 0;
			p += n;
		}
		if (*p != '\0') {
			buf_addc(b, '\\');
			buf_addc(b, *p++);
		}
	}
	buf_addc(b, '"');
	buf_free(&part);
}

int
label_check(const char *what, const char *s, size_t max, struct error *e)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;
	unsigned cp;

	for (; *p != '\0'; p++) {
		if ((*p & 0xc0) != 0x80)
			chars++;
		cp = *p < 0x20 || *p == 0x7f ? *p : p[0] == 0xc2 &&
		    p[1] >= 0x80 && p[1] < 0xa0 ? p[1] : 0x100;
		if (cp < 0x100)
			return error_set(e, "%s has a control character (U+%04X) "
			    "at character %zu; it is one line of printable text",
			    what, cp, chars);
	}
	if (chars > max)
		return error_set(e, "%s is %zu characters long; at most %zu are "
		    "taken", what, chars, max);
	return 0;
}

int
label_count_check(const char *what, size_t n, size_t max_count,
    struct error *e)
{
	if (n > max_count)
		return error_set(e, "%zu %ss given; at most %zu are taken", n,
		    what, max_count);
	return 0;
}

int
label_list_check(const char *what, const char *const *v, size_t n,
    size_t max_chars, size_t max_count, struct error *e)
{
	size_t i;

	if (label_count_check(what, n, max_count, e) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (*v[i] == '\0' || utf8_invalid_at(v[i], strlen(v[i])) >= 0)
			return error_set(e, "%s '%s' is empty or not UTF-8", what,
			    v[i]);
		else if (label_check(what, v[i], max_chars, e) < 0)
			return -1;
	return 0;
}

char *
label_tidy(const char *s, size_t len, size_t max)
{
	size_t chars = 0, i;
	char *out = xmalloc(4 * len + 1);

	error_printable_n(out, 4 * len + 1, s, len);
	for (i = 0; out[i] != '\0'; i++)
		if (((unsigned char)out[i] & 0xc0) != 0x80 && chars++ == max)
			break;
	out[i] = '\0';
	return out;
}
