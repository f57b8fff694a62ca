/*
 * buf.c - growing byte buffers, allocation that never returns NULL, and
 * counting UTF-8 characters; knows nothing of the store, JSON or settings,
 * and makes no error (read.c reads a descriptor into a buffer).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		abort();	/* out of memory: nothing sensible is left to do */
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		abort();
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;

	if (want > b->cap) {
		if (b->cap == 0)
			b->cap = 64;
		while (b->cap < want)
			b->cap *= 2;
		b->data = xrealloc(b->data, b->cap);
	}
	if (extra >= BUF_PREFAULT)
		mem_prefault(b->data + b->len, extra);
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	if (n > 0)	/* p may be NULL then, which memcpy may not be given */
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

/* the text measured first, then written into room made for all of it: it is
 * never cut; a format vsnprintf cannot do is a bug in the caller */
void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		abort();
	buf_reserve(b, (size_t)n);
	if (vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again) != n)
		abort();
	va_end(again);
	b->len += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *
buf_detach(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");

	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

size_t
chomp(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == '\n') {
		len--;
		if (len > 0 && s[len - 1] == '\r')
			len--;
	}
	return len;
}

size_t
utf8_count(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}
