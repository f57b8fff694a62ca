/*
 * spool.c - a long text (convctl run's prompt or answer) kept
 * JSON-escaped in an unnamed temporary file as it arrives, never whole in
 * memory, and the store's note of the messages whose content is there, for
 * its engine to write them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

#define SPOOL_BUF (64 << 10)	/* escaped text written out at this much */
#define SPOOL_SLICE (8 << 10)	/* text escaped at once: 6 times this at most */

/* an unnamed file in dir (NULL: none), open to read and write: -1 */
int
store_temp_file(struct store *st, struct error *e)
{
	char *dir = st->engine->spool_dir ? st->engine->spool_dir(st) : NULL;
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	/* beside the store, a spool is copied into it by the filesystem */
	if ((fd = os_open_unnamed(dir)) < 0 && (fd = os_open_unnamed(tmp)) < 0)
		error_errno(e, "cannot create a temporary file in '%s'", tmp);
	free(dir);
	return fd;
}

int
store_spool_open(struct store *st, struct spool *sp, struct error *e)
{
	memset(sp, 0, sizeof(*sp));
	return (sp->fd = store_temp_file(st, e)) < 0 ? -1 : 0;
}

static void
spool_write(struct spool *sp)
{
	size_t off = 0;
	ssize_t w;

	while (sp->err == 0 && off < sp->esc.len) {
		if ((w = write(sp->fd, sp->esc.data + off, sp->esc.len - off)) < 0) {
			if (errno != EINTR)
				sp->err = errno;
			continue;
		}
		off += (size_t)w;
	}
	sp->esc.len = 0;
}

/*
 * The trailing newlines chomp() would drop, kept track of as the text comes:
 * of the run of '\r' and '\n' the text ends with (run bytes), chomp leaves
 * keep, and would leave keep_prev of the run less its last byte.
 */
static void
track_tail(struct spool *sp, const unsigned char *s, size_t n)
{
	const unsigned char *p = s + n;
	size_t keep;

	while (p > s && (p[-1] == '\r' || p[-1] == '\n'))
		p--;
	if (p > s) {		/* a byte of text: the run starts after it */
		sp->run = sp->keep = sp->keep_prev = 0;
		sp->run_last = 0;
	}
	for (; p < s + n; p++) {
		keep = *p == '\r' ? sp->run + 1 :
		    sp->run_last == '\r' ? sp->keep_prev : sp->keep;
		sp->keep_prev = sp->keep;
		sp->keep = keep;
		sp->run++;
		sp->run_last = *p;
	}
}

void
spool_add(struct spool *sp, const char *s, size_t n)
{
	size_t k, was;

	if (sp->fd < 0)
		return;
	track_tail(sp, (const unsigned char *)s, n);
	sp->len += n;
	for (; n > 0; s += k, n -= k) {
		k = n < SPOOL_SLICE ? n : SPOOL_SLICE;
		was = sp->esc.len;
		json_escape(&sp->esc, s, k);
		sp->esc_len += sp->esc.len - was;
		if (sp->esc.len >= SPOOL_BUF)
			spool_write(sp);
	}
}

int
spool_end(struct spool *sp)
{
	if (sp->fd < 0)
		return -1;
	spool_write(sp);
	buf_free(&sp->esc);
	if (sp->err != 0) {
		errno = sp->err;
		return -1;
	}
	return 0;
}

size_t
spool_chomped(const struct spool *sp)
{
	return sp->len - sp->run + sp->keep;
}

void
spool_drop(struct spool *sp)
{
	if (sp->fd >= 0)
		close(sp->fd);
	buf_free(&sp->esc);
	sp->fd = -1;
}

int
store_spool_message(struct store *st, struct spool *sp, struct error *e)
{
	struct conv *c = store_active(st);
	struct spooled *sd = st->spooled;
	json_t *msgs, *msg, *content;

	msgs = c != NULL ? json_object_get(conv_json(c), "messages") : NULL;
	msg = json_array_get(msgs, json_array_size(msgs) - 1);
	while (sd < st->spooled + NSPOOLED && sd->value != NULL)
		sd++;
	if ((content = json_object_get(msg, "content")) == NULL ||
	    sd == st->spooled + NSPOOLED)
		return error_set(e, "no message to take the spooled text");
	/* the same in every dump of it, the hole file-save.c fills or not */
	json_string_setn_nocheck(content, "", 0);
	sd->value = content;
	sd->fd = sp->fd;
	/* what chomp() drops is newlines, each escaped in two bytes */
	sd->len = sp->esc_len - 2 * (sp->len - spool_chomped(sp));
	return 0;
}

/* one spooled message's text read back into its value */
static int
fill(struct spooled *sd, struct error *e)
{
	struct buf b = { 0 };
	json_error_t je;
	json_t *s = NULL;
	ssize_t n;
	int rc = -1;

	if (sd->value == NULL)
		return 0;
	je.text[0] = '\0';
	buf_reserve(&b, sd->len + 2);
	buf_addc(&b, '"');
	while (b.len < sd->len + 1) {
		n = pread(sd->fd, b.data + b.len, sd->len + 1 - b.len,
		    (off_t)(b.len - 1));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			error_errno(e, "cannot read back the spooled text");
			goto out;
		}
		b.len += (size_t)n;
	}
	buf_addc(&b, '"');
	/* the one JSON reader turns the escaped text back into the text */
	if ((s = json_loadb(b.data, b.len, JSON_DECODE_ANY | JSON_LOAD_FLAGS,
	    &je)) == NULL || !json_is_string(s)) {
		error_set(e, "the spooled text does not read back: %s", je.text);
		goto out;
	}
	buf_free(&b);
	json_string_setn_nocheck(sd->value, json_string_value(s),
	    json_string_length(s));
	memset(sd, 0, sizeof(*sd));
	rc = 0;
out:
	json_decref(s);
	buf_free(&b);
	return rc;
}

int
store_spool_fill(struct store *st, struct error *e)
{
	size_t i;

	for (i = 0; i < NSPOOLED; i++)
		if (fill(&st->spooled[i], e) < 0)
			return -1;
	return 0;
}
