/*
 * buf.c - growing byte buffers, allocation that never returns NULL, reading a
 * file descriptor whole, and counting UTF-8 characters; knows nothing of the
 * store, JSON or settings.
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

/*
 * The whole pages of p[0..n) made present with one call: a page's first
 * write otherwise traps into the kernel, which in a virtual machine costs
 * several times more (10 MB of fresh memory: 60 ms of faults against 15 ms).
 * Only for memory about to be written all through; a kernel without it
 * leaves the pages to fault as before.
 */
void
mem_prefault(void *p, size_t n)
{
	static long page;
	uintptr_t from, to;

	if (page == 0)
		page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || n < (size_t)page)
		return;
	from = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	to = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
	if (from < to)
		os_prefault((void *)from, to - from);
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

int
buf_read_fd(struct buf *b, int fd, const char *name, struct error *e)
{
	return buf_read_max(b, fd, name, SIZE_MAX - 1, NULL, e);
}

int
error_too_large(struct error *e, const char *name, size_t max,
    const char *setting)
{
	return error_set(e, "'%s' is larger than the limit of %zu bytes (the %s "
	    "setting)", name, max, setting);
}

int
buf_read_max(struct buf *b, int fd, const char *name, size_t max,
    const char *setting, struct error *e)
{
	size_t want;
	ssize_t n;

	for (;;) {
		/* at most one byte past the limit: enough to know it is past */
		want = max - (b->len < max ? b->len : max) + 1;
		/* past a megabyte, room a megabyte at a time, its pages made
		 * present at once (buf_reserve) */
		if (want > (b->len < BUF_PREFAULT ? 65536 : BUF_PREFAULT))
			want = b->len < BUF_PREFAULT ? 65536 : BUF_PREFAULT;
		buf_reserve(b, want);
		n = read(fd, b->data + b->len, want);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_errno(e, "cannot read '%s'", name);
		}
		b->len += (size_t)n;
		if (b->len > max) {
			b->data[b->len] = '\0';
			return error_too_large(e, name, max, setting);
		}
	}
	b->data[b->len] = '\0';
	return 0;
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
