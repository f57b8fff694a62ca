/*
 * error.c - fills a struct error with one printable line (errno's text after
 * it, for error_errno); never prints it, cmd/ does, nor knows what failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convctl.h"

size_t
error_printable(char *out, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	unsigned char c;

	if (size == 0)
		return 0;
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c >= 0x20 && c != 0x7f) {
			if (k + 1 >= size)
				break;
			out[k++] = (char)c;
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
	}
	out[k] = '\0';
	return k;
}

/*
 * fmt into e, then ": " and strerror(*err) unless err is NULL; e may be NULL.
 * A message quotes what it found (a stored value, the JSON around a syntax
 * error), so it is made printable: always one line, no terminal escapes.
 */
static int
vset(struct error *e, const int *err, const char *fmt, va_list ap)
{
	char raw[sizeof(e->msg)];
	size_t n;

	if (e == NULL)
		return -1;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	if (err != NULL) {
		n = strlen(raw);
		snprintf(raw + n, sizeof(raw) - n, ": %s", strerror(*err));
	}
	error_printable(e->msg, sizeof(e->msg), raw);
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
