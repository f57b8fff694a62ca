/*
 * pg-write.c - the PostgreSQL engine's write path: every change in memory
 * sent into the command's transaction (pg_flush()), then committed
 * (pg_commit()). Only what changed since it was read is written (rows.c
 * finds it): a conversation's row, and its messages from the first that
 * differs. A write that needs no answer travels with the next statement
 * (pg_run_later); many new conversations go by COPY (copy_new()).
 */
#include <stdlib.h>
#include <string.h>

#include "pg-session.h"
#include "pg.h"
#include "rows.h"

/* the fields of a message the messages' table keeps in columns of their
 * own (its doc holds them too) */
static const char *const msg_field[3] = { "id", "role", "timestamp" };

/* the \u0000 PostgreSQL's text cannot hold, in field of message i of c */
static int
nul_in(struct store *st, struct conv *c, size_t i, const char *field,
    struct error *e)
{
	return error_set(e, "store '%s': message %zu of '%s' has \\u0000 in its "
	    "%s, which PostgreSQL cannot hold", st->path, i + 1, c->id, field);
}

/* s (NULL: NULL) onto the array literal b, which "{" begins */
static void
array_add(struct buf *b, const char *s, size_t len)
{
	size_t i;

	if (b->len > 1)
		buf_addc(b, ',');
	if (s == NULL) {
		buf_adds(b, "NULL");
		return;
	}
	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			buf_addc(b, '\\');
		buf_addc(b, s[i]);
	}
	buf_addc(b, '"');
}

/*
 * The messages of c from the k-th on, as four array literals in col, and
 * the four parameters p that are them: ids, roles, times and documents
 * (INSERT_MESSAGES). The database is not asked to read them out of the
 * documents: its text cannot hold the \u0000 a message's JSON may.
 */
static int
messages_from(struct store *st, struct buf col[4], const char *p[4],
    struct conv *c, size_t k, struct error *e)
{
	json_t *msgs = json_object_get(c->obj, "messages"), *m;
	struct buf doc = { 0 };
	const char *s;
	size_t i, j, len;
	int rc = -1;

	for (j = 0; j < 4; j++)
		buf_addc(&col[j], '{');
	for (i = k; i < json_array_size(msgs); i++) {
		m = json_array_get(msgs, i);
		for (j = 0; j < 3; j++) {
			s = json_str(m, msg_field[j], &len);
			if (s != NULL && memchr(s, '\0', len) != NULL) {
				nul_in(st, c, i, msg_field[j], e);
				goto out;
			}
			array_add(&col[j], s, len);
		}
		doc.len = 0;
		json_dump_buf(&doc, m);
		array_add(&col[3], doc.data, doc.len);
	}
	for (j = 0; j < 4; j++) {
		buf_addc(&col[j], '}');
		p[j] = col[j].data;
	}
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/* conversation $1's messages from the parameters ID, ROLE, AT and DOC
 * (messages_from()), numbered from SEQ on */
#define INSERT_MESSAGES(SEQ, ID, ROLE, AT, DOC) "INSERT INTO @.messages " \
	"(conversation, seq, id, role, at, doc) SELECT $1, " SEQ " + " \
	"t.n::integer - 1, t.id, t.role, t.at::timestamptz, t.doc FROM " \
	"unnest(" ID "::text[], " ROLE "::text[], " AT "::text[], " DOC \
	"::json[]) WITH ORDINALITY AS t(id, role, at, doc, n)"

/*
 * c's row and its messages from the first that changed, when anything did:
 * new, its doc or its messages not what was read. Found by comparing, so a
 * change is written whether or not its maker called conv_refresh(): pg_flush()
 * calls it.
 */
static int
sync_conv(struct store *st, struct conv *c, struct error *e)
{
	struct buf doc = { 0 }, count = { 0 }, from = { 0 }, col[4] = { 0 };
	struct row_conv *pc = c->be;
	char started[TS_LEN], ended[TS_LEN];
	const char *p[12];
	size_t k = 0;
	PGresult *r;
	int rc = -1;

	if (c->obj == NULL)	/* listed, never read whole: unchanged */
		return 0;
	row_doc_text(c, &doc);
	if (!row_changed(c, &doc, &k)) {
		rc = 0;
		goto out;
	}
	buf_addf(&count, "%zu", c->nmsg);
	p[0] = c->id;
	p[1] = pg_ts_param(c->started, started);
	p[2] = pg_ts_param(c->ended, ended);
	p[3] = c->title;
	p[4] = c->summary;
	p[5] = count.data;
	p[6] = doc.data;
	if (pc == NULL) {
		/* the row and its messages in one statement: add's new one
		 * (from COPY_FROM new ones on, copy_new() writes them) */
		if (messages_from(st, col, &p[7], c, 0, e) < 0)
			goto out;
		if ((r = pg_run(st, "cannot store a conversation", "WITH c AS ("
		    "INSERT INTO @.conversations (id, started_at, ended_at, "
		    "title, summary, message_count, doc) VALUES ($1, $2, $3, $4, "
		    "$5, $6, $7) RETURNING pos), m AS (" INSERT_MESSAGES("0",
		    "$8", "$9", "$10", "$11") ") SELECT pos FROM c", 11, p,
		    e)) == NULL)
			goto out;
		c->pos = strtoll(pq.getvalue(r, 0, 0), NULL, 10);
		pq.clear(r);
		k = c->nmsg;	/* all stored */
	} else if (k == pc->nmsg && k < c->nmsg) {
		/* messages after those stored (add): the row and them in one
		 * statement too */
		buf_addf(&from, "%zu", k);
		p[7] = from.data;
		if (messages_from(st, col, &p[8], c, k, e) < 0)
			goto out;
		if (pg_run_later(st, "cannot store a conversation", "WITH c AS ("
		    "UPDATE @.conversations SET started_at = $2, ended_at = $3, "
		    "title = $4, summary = $5, message_count = $6, doc = $7 "
		    "WHERE id = $1) " INSERT_MESSAGES("$8::integer", "$9",
		    "$10", "$11", "$12"), 12, p, e) < 0)
			goto out;
		k = c->nmsg;	/* all stored */
	} else {
		if (pg_run_later(st, "cannot store a conversation", "UPDATE "
		    "@.conversations SET started_at = $2, ended_at = $3, "
		    "title = $4, summary = $5, message_count = $6, doc = $7 "
		    "WHERE id = $1", 7, p, e) < 0)
			goto out;
		buf_addf(&from, "%zu", k);
		p[1] = from.data;
		if (k < pc->nmsg && pg_run_later(st, "cannot store messages",
		    "DELETE FROM @.messages WHERE conversation = $1 AND "
		    "seq >= $2", 2, p, e) < 0)
			goto out;
	}
	if (k < c->nmsg) {
		from.len = 0;
		buf_addf(&from, "%zu", k);
		p[1] = from.data;
		if (messages_from(st, col, &p[2], c, k, e) < 0)
			goto out;
		if (pg_run_later(st, "cannot store messages",
		    INSERT_MESSAGES("$2::integer", "$3", "$4", "$5", "$6"), 6,
		    p, e) < 0)
			goto out;
	}
	row_remember(c, &doc);
	rc = 0;
out:
	buf_free(&doc);
	buf_free(&count);
	buf_free(&from);
	for (k = 0; k < 4; k++)
		buf_free(&col[k]);
	return rc;
}

/*
 * From this many new conversations on, a flush loads them with COPY (a
 * copy, a migrate): three statements whatever their number, where one
 * INSERT each would take a round trip each. Below it, add's one new
 * conversation is the one INSERT of sync_conv().
 */
#define COPY_FROM 2

/*
 * The n new conversations in memory (no row yet), in the store's order, by
 * COPY into both tables, streamed a chunk at a time: memory holds one
 * conversation's rows and a chunk. Their pos are reserved first, n at
 * once from the table's sequence, under the writers' lock, so that each
 * is known without reading it back.
 */
static int
copy_new(struct store *st, size_t n, struct error *e)
{
	struct buf rows = { 0 }, doc = { 0 }, num = { 0 };
	struct conv **fresh = xmalloc(n * sizeof(*fresh)), *c;
	char ts[TS_LEN];
	const char *p[1], *s, *abort = NULL;
	struct row_conv *pc;
	long long first;
	size_t i, j, k, len;
	json_t *msgs, *m;
	PGresult *r;
	int rc = -1;

	for (i = j = 0; i < st->n && j < n; i++)
		if (row_is_new(st->conv[i]))
			fresh[j++] = st->conv[i];
	buf_addf(&num, "%zu", n);
	p[0] = num.data;
	if ((r = pg_run(st, "cannot store conversations", "SELECT setval(s, "
	    "nextval(s) + $1::bigint - 1) - $1::bigint + 1 FROM "
	    "pg_get_serial_sequence('@.conversations', 'pos') AS s", 1, p,
	    e)) == NULL)
		goto out;
	first = strtoll(pq.getvalue(r, 0, 0), NULL, 10);
	pq.clear(r);
	if (pg_copy_begin(st, "cannot store conversations", "COPY "
	    "@.conversations (id, pos, started_at, ended_at, title, summary, "
	    "message_count, doc) FROM STDIN", e) < 0)
		goto out;
	for (i = 0; i < n && abort == NULL; i++) {
		c = fresh[i];
		doc.len = 0;
		row_doc_text(c, &doc);
		c->pos = first + (long long)i;
		c->be = row_conv_new(&doc, c->nmsg);	/* hashes: below */
		pg_copy_field(&rows, c->id, strlen(c->id));
		buf_addf(&rows, "\t%lld\t", (long long)c->pos);
		s = pg_ts_param(c->started, ts);
		pg_copy_field(&rows, s, s ? strlen(s) : 0);
		buf_addc(&rows, '\t');
		s = pg_ts_param(c->ended, ts);
		pg_copy_field(&rows, s, s ? strlen(s) : 0);
		buf_addc(&rows, '\t');
		pg_copy_field(&rows, c->title, c->title ? strlen(c->title) : 0);
		buf_addc(&rows, '\t');
		pg_copy_field(&rows, c->summary, c->summary ?
		    strlen(c->summary) : 0);
		buf_addf(&rows, "\t%zu\t", c->nmsg);
		pg_copy_field(&rows, doc.data, doc.len);
		buf_addc(&rows, '\n');
		if (pg_copy_put(st, &rows, "cannot store conversations", e) < 0)
			abort = "convctl could not send every row";
	}
	if (pg_copy_end(st, &rows, "cannot store conversations", abort, e) < 0)
		goto out;
	if (pg_copy_begin(st, "cannot store messages", "COPY @.messages "
	    "(conversation, seq, id, role, at, doc) FROM STDIN", e) < 0)
		goto out;
	for (i = 0; i < n && abort == NULL; i++) {
		c = fresh[i];
		pc = c->be;
		msgs = json_object_get(c->obj, "messages");
		json_array_foreach(msgs, j, m) {
			pg_copy_field(&rows, c->id, strlen(c->id));
			buf_addf(&rows, "\t%zu", j);
			for (k = 0; k < 3; k++) {
				s = json_str(m, msg_field[k], &len);
				if (s != NULL && memchr(s, '\0', len) != NULL) {
					nul_in(st, c, j, msg_field[k], e);
					abort = "a message convctl cannot store";
					break;
				}
				buf_addc(&rows, '\t');
				pg_copy_field(&rows, s, len);
			}
			if (abort != NULL)
				break;
			doc.len = 0;
			json_dump_buf(&doc, m);
			sha256(doc.data, doc.len, pc->hash[j]);
			buf_addc(&rows, '\t');
			pg_copy_field(&rows, doc.data, doc.len);
			buf_addc(&rows, '\n');
			if (pg_copy_put(st, &rows, "cannot store messages", e) < 0) {
				abort = "convctl could not send every row";
				break;
			}
		}
	}
	if (pg_copy_end(st, &rows, "cannot store messages", abort, e) < 0)
		goto out;
	rc = 0;
out:
	free(fresh);
	buf_free(&rows);
	buf_free(&doc);
	buf_free(&num);
	return rc;
}

/* every change in memory into the transaction, not yet committed */
int
pg_flush(struct store *st, struct error *e)
{
	struct buf doc = { 0 };
	const char *p[1];
	struct conv *c;
	size_t i, fresh = 0;
	int later, bulk, rc = -1;

	/* rows are written from memory: a spooled answer is read in first */
	if (store_spool_fill(st, e) < 0)
		return -1;
	for (i = 0; i < st->nremoved; i++) {
		p[0] = st->removed[i];
		if (pg_run_later(st, "cannot remove a conversation", "DELETE FROM "
		    "@.conversations WHERE id = $1", 1, p, e) < 0)
			goto out;
	}
	for (i = 0; i < st->nremoved; i++)
		free(st->removed[i]);
	st->nremoved = 0;
	if (row_refresh(st, e) < 0)
		goto out;
	/* rows that are ended first, then the rest in the store's order (a
	 * new row's pos is its place): when resume ends one conversation and
	 * reopens another, two are never active at once, not even between
	 * two statements (the index conversations_one_active) */
	for (i = 0; i < st->n; i++)
		fresh += row_is_new(st->conv[i]);
	bulk = fresh >= COPY_FROM;
	for (later = 0; later <= 1; later++)
		for (i = 0; i < st->n; i++) {
			c = st->conv[i];
			if ((c->be != NULL && c->ended >= 0) != later &&
			    (!bulk || c->be != NULL) && sync_conv(st, c, e) < 0)
				goto out;
		}
	/* after the rest, as their pos is after every stored one's */
	if (bulk && copy_new(st, fresh, e) < 0)
		goto out;
	if (st->root_dirty) {
		json_dump_buf(&doc, st->root);
		p[0] = doc.data;
		if (pg_run_later(st, "cannot store the store's fields", "UPDATE "
		    "@.root SET doc = $1", 1, p, e) < 0)
			goto out;
		st->root_dirty = 0;
	}
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/* the new conversations (no row yet) written, then freed: st keeps the
 * rest (rows.c) */
int
pg_flush_new(struct store *st, struct error *e)
{
	return row_flush_new(st, pg_flush, e);
}

/* pg_flush(), then the commit */
int
pg_commit(struct store *st, struct error *e)
{
	if (pg_flush(st, e) < 0)
		return -1;
	return pg_session_commit(st, e);
}

