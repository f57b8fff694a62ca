/*
 * input.c - a source's bytes as readers read them: read (migrate_read(),
 * mig_source_text()), and read again for an error's place; a JSON array's
 * items found by a scan of its brackets and strings and parsed one at a
 * time, their pages given back once read (mig_each_item()); JSON lines,
 * one value a line (mig_lines()). It knows no format, and nothing of the
 * store, the imports ledger or the report.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

/* [p, end) holds only bytes of set (no NUL) */
static int
only(const char *p, const char *end, const char *set)
{
	for (; p < end; p++)
		if (*p == '\0' || strchr(set, *p) == NULL)
			return 0;
	return 1;
}

/*
 * a line that is not JSON: an error, unless it is the last and no newline
 * ends it (nl is end), torn by a crash mid-write: then a note, and 1 to stop
 * reading. A whole line, newline and all, that is not JSON is bad input
 */
static int
bad_line(struct mig_reader *r, size_t line, const json_error_t *je,
    const char *nl, const char *end, struct error *e)
{
	if (nl == end) {
		mig_note(r, "'%s':%zu: the last line is torn (%s at column %d); "
		    "skipped it", r->src->file, line, je->text, je->column);
		return 1;
	}
	return error_set(e, "'%s':%zu:%d: %s", r->src->file, line, je->column,
	    je->text);
}

json_t *
mig_item(struct mig_reader *r, const struct mig_input *in, size_t i,
    struct error *e)
{
	const struct mig_span *it = &in->items[i];
	json_error_t je, whole;
	struct buf again = { 0 };
	const char *text = in->text;
	size_t len = in->len;
	json_t *v;
	int line, column;

	v = json_loadb(in->text + it->off, it->len, JSON_LOAD_FLAGS |
	    JSON_DECODE_ANY, &je);
	if (v != NULL)
		return v;
	/* the whole text's error, as a source parsed whole gets it (read
	 * again where its first items' bytes were let go of) */
	if (r->gone > 0) {
		if (mig_source_again(r, &again, e) < 0)
			return NULL;
		text = again.data ? again.data : "";
		len = again.len;
	}
	if ((v = json_loadb(text, len, JSON_LOAD_FLAGS, &whole)) != NULL) {
		json_decref(v);
		mig_bad(r, e, "[%zu]: %s", i, je.text);
	} else {
		json_error_place(text, len, &whole, &line, &column);
		error_set(e, "'%s':%d:%d: %s", r->src->file, line, column,
		    whole.text);
	}
	buf_free(&again);
	return NULL;
}

/* what mig_text_done() gives back at once, at least */
#define GIVE_BACK (4 << 20)

void
mig_text_done(struct mig_reader *r, const struct mig_input *in, size_t upto)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)in->own, from, to;

	if (in->own == NULL || page == 0 || (page & (page - 1)) != 0)
		return;
	from = (base + r->gone + page - 1) & ~(uintptr_t)(page - 1);
	to = (base + upto) & ~(uintptr_t)(page - 1);
	if (to < from + GIVE_BACK)
		return;
	/* the pages read as zeros if touched again: the text before upto is
	 * never looked at again, but by mig_item()'s error, which reads the
	 * source again */
	if (madvise((void *)from, to - from, MADV_DONTNEED) == 0)
		r->gone = to - base;
}

void
mig_item_done(struct mig_reader *r, const struct mig_input *in, size_t i)
{
	mig_text_done(r, in, i + 1 < in->nitems ? in->items[i + 1].off :
	    in->len);
}

int
mig_each_item(struct mig_reader *r, const struct mig_input *in,
    const char *not_array,
    int (*one)(struct mig_reader *, json_t *, size_t, struct error *),
    struct error *e)
{
	json_t *item;
	size_t i, before, n = in->root == NULL ? in->nitems :
	    json_array_size(in->root);
	int rc;

	if (in->root == NULL ? in->items == NULL : !json_is_array(in->root))
		return mig_bad(r, e, "%s", not_array);
	for (i = 0; i < n; i++) {
		/* an item at a time, each let go of once read: the source is
		 * never held parsed whole */
		if (in->root != NULL)
			item = json_incref(json_array_get(in->root, i));
		else if ((item = mig_item(r, in, i, e)) == NULL)
			return -1;
		before = json_array_size(r->src->convs);
		rc = one(r, item, i, e);
		json_decref(item);
		/* its conversations held as text from now on */
		if (r->pack != NULL && r->pack(r, before, e) < 0)
			return -1;
		if (rc > 0)
			return 0;
		if (rc < 0) {
			if (!r->rq->skip_bad)
				return -1;
			mig_skipped(r, e);
		}
		if (in->root == NULL)
			mig_item_done(r, in, i);
		mig_progress(r, i + 1, n);
	}
	return 0;
}

/* how deep mig_array_items() lets an item nest: below jansson's limit
 * (2048), counting the array, so an item parses alone as in the array */
#define ITEM_DEPTH 2000

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

int
mig_array_items(const char *text, size_t len, struct mig_span **v, size_t *n)
{
	const char *p = text, *end = text + len, *start, *last;
	struct mig_span *items = NULL;
	size_t depth, k = 0, cap = 0;

	p = skip_blanks(p, end);
	if (p == end || *p++ != '[')
		return -1;
	for (;;) {
		start = p = skip_blanks(p, end);
		for (depth = 0; p < end; p++) {
			if (*p == '"') {
				for (p++; p < end && *p != '"'; p++)
					if (*p == '\\')
						p++;
				if (p >= end)
					goto no;
			} else if (*p == '{' || *p == '[') {
				if (++depth > ITEM_DEPTH)
					goto no;
			} else if (*p == '}' || *p == ']') {
				if (depth == 0)
					break;
				depth--;
			} else if (*p == ',' && depth == 0)
				break;
		}
		if (p == end || *p == '}')
			goto no;
		for (last = p; last > start && (last[-1] == ' ' ||
		    last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r');)
			last--;
		if (last == start)	/* [], [1,,2], [1,] */
			goto no;
		if (k == cap) {
			cap = cap ? 2 * cap : 64;
			items = xrealloc(items, cap * sizeof(*items));
		}
		items[k].off = (size_t)(start - text);
		items[k++].len = (size_t)(last - start);
		if (*p++ == ']')
			break;
	}
	if (skip_blanks(p, end) != end)
		goto no;
	*v = items;
	*n = k;
	return 0;
no:
	free(items);
	return -1;
}

/* each line's JSON value to each(), parsed and freed one at a time */
int
mig_lines(struct mig_reader *r, const char *text, size_t len,
    int (*each)(struct mig_reader *, void *, json_t *, size_t,
    struct error *), void *arg, struct error *e)
{
	json_error_t je;
	json_t *rec;
	const char *p, *end = text + len, *nl, *q;
	size_t line = 0, nlines = 0, llen;
	int rc;

	for (q = text; q < end && (q = memchr(q, '\n', (size_t)(end - q))); q++)
		nlines++;
	for (p = text; p < end; p = nl < end ? nl + 1 : end) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		llen = (size_t)(nl - p);
		if (llen > 0 && p[llen - 1] == '\r')
			llen--;
		if (only(p, p + llen, " \t"))
			continue;
		/* torn: the lines before it are read, and that is all */
		if ((rec = json_loadb(p, llen, JSON_LOAD_FLAGS, &je)) == NULL) {
			if ((rc = bad_line(r, line, &je, nl, end, e)) >= 0)
				return 0;
			if (!r->rq->skip_bad)
				return -1;
			mig_skipped(r, e);
			continue;
		}
		rc = each(r, arg, rec, line, e);
		json_decref(rec);
		if (rc < 0 && !r->rq->skip_bad)
			return -1;
		if (rc < 0)
			mig_skipped(r, e);
		mig_progress(r, line, nlines + 1);
	}
	return 0;
}

/* the source's bytes */

int
migrate_read(const char *file, size_t max, struct buf *b, struct error *e)
{
	struct stat sb;
	int fd, rc = -1;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return error_errno(e, "cannot open '%s'", file);
	if (fstat(fd, &sb) < 0)
		error_errno(e, "cannot stat '%s'", file);
	else if (max > 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
		error_set(e, "'%s' is %jd bytes, larger than the limit of %zu "
		    "bytes (the max_input_bytes setting)", file,
		    (intmax_t)sb.st_size, max);
	else if (max > 0)
		rc = buf_read_max(b, fd, file, max, "max_input_bytes", e);
	else
		rc = buf_read_fd(b, fd, file, e);
	close(fd);
	return rc;
}

/* s's bytes: the caller's (read before the store was locked), or the file's */
int
mig_source_text(const struct migrate_request *rq, const struct mig_source *s,
    struct buf *text, struct error *e)
{
	if (rq->data != NULL && strcmp(s->file, rq->path) == 0) {
		buf_add(text, rq->data, rq->len);
		return 0;
	}
	return migrate_read(s->file, rq->max_bytes, text, e);
}

/* a byte order mark (Windows editors write one) is not JSON */
void
mig_no_bom(struct buf *text)
{
	if (text->len >= 3 && memcmp(text->data, "\xef\xbb\xbf", 3) == 0) {
		memmove(text->data, text->data + 3, text->len - 2);
		text->len -= 3;
	}
}

int
mig_source_again(struct mig_reader *r, struct buf *text, struct error *e)
{
	if (mig_source_text(r->rq, r->src, text, e) < 0)
		return -1;
	mig_no_bom(text);
	return 0;
}
