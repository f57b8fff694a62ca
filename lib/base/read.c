/*
 * read.c - a file descriptor read whole into a buffer, up to a limit; above
 * buf.c and error.c, which know nothing of each other's failures.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "base.h"

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
