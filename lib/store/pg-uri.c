/*
 * pg-uri.c - a PostgreSQL store's URI: convctl's own parameter (schema=)
 * taken out, the rest read by libpq's own parser (PQconninfoParse), and
 * every secret in it (password, sslpassword), as written and as decoded,
 * kept aside so that no message convctl prints shows it, libpq's included.
 * It connects to nothing (pg-session.c does).
 */
#include <stdlib.h>
#include <string.h>

#include "pg-session.h"

#define PG_DEFAULT_SCHEMA "convctl"
#define MASK "***"

/* the connection parameters whose values are secrets */
static const char *const secret_keys[] = { "password", "sslpassword", NULL };

static int
is_secret_key(const char *key)
{
	size_t i;

	for (i = 0; secret_keys[i] != NULL; i++)
		if (strcmp(key, secret_keys[i]) == 0)
			return 1;
	return 0;
}

/* s[0..n) percent-decoded as libpq decodes a URI's parts; NULL: it cannot */
static char *
decode(const char *s, size_t n)
{
	struct buf b = { 0 };

	if (buf_add_percent_decoded(&b, s, n) < 0) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/* s[0..n) into the list, once */
static void
keep(struct pg_strings *l, const char *s, size_t n)
{
	char *d;
	size_t i;

	if (n == 0)
		return;
	d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], d) == 0) {
			free(d);
			return;
		}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = d;
}

/* a value as written, and as libpq will decode it */
static void
keep_written(struct pg_strings *l, const char *s, size_t n)
{
	char *d = decode(s, n);

	keep(l, s, n);
	if (d != NULL)
		keep(l, d, strlen(d));
	free(d);
}

static void
strings_free(struct pg_strings *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/*
 * The parts of the URI: after "://", the user information (up to the first
 * '@' before any '/', as libpq reads it), the rest up to the first '?',
 * and the query. A password holding an unencoded '@', '/' or '?' is read
 * otherwise by libpq than its writer meant, and would be shown in part: it
 * is refused, as is an '@' anywhere before the query.
 */
struct parts {
	const char *scheme_end;	/* after "://" */
	const char *user, *colon, *at;	/* at: NULL when no user information */
	const char *rest, *query;	/* query: at its '?', or NULL */
	int ambiguous;
};

static void
split(const char *uri, struct parts *p)
{
	const char *a = strstr(uri, "://"), *s, *q;

	memset(p, 0, sizeof(*p));
	a = a != NULL ? a + 3 : uri;
	p->scheme_end = a;
	s = a + strcspn(a, "@/");
	if (*s == '@') {
		p->user = a;
		p->at = s;
		p->colon = memchr(a, ':', (size_t)(s - a));
		p->rest = s + 1;
		if (memchr(a, '?', (size_t)(s - a)) != NULL)
			p->ambiguous = 1;
	} else
		p->rest = a;
	q = strchr(p->rest, '?');
	p->query = q;
	if (memchr(p->rest, '@', q != NULL ? (size_t)(q - p->rest) :
	    strlen(p->rest)) != NULL)
		p->ambiguous = 1;
}

/*
 * The URI as no one can misread it for a secret: the whole user
 * information (up to the last '@') and the whole query as ***; for a URI
 * libpq cannot read, or convctl refuses.
 */
static char *
shown_blind(const char *uri)
{
	struct buf b = { 0 };
	const char *a = strstr(uri, "://"), *at, *q;

	a = a != NULL ? a + 3 : uri;
	buf_add(&b, uri, (size_t)(a - uri));
	if ((at = strrchr(a, '@')) != NULL) {
		buf_adds(&b, MASK "@");
		a = at + 1;
	}
	q = strchr(a, '?');
	buf_add(&b, a, q != NULL ? (size_t)(q - a) : strlen(a));
	if (q != NULL)
		buf_adds(&b, "?" MASK);
	return buf_detach(&b);
}

/* each key=value of the query, secret values as ***; schema= set aside */
static void
walk_query(struct pg_uri *u, const struct parts *p, struct buf *shown,
    struct buf *conninfo)
{
	const char *s, *end, *eq;
	char *key;
	size_t n;

	for (s = p->query; s != NULL && *s != '\0'; s = end) {
		s++;
		end = strchr(s, '&');
		n = end != NULL ? (size_t)(end - s) : strlen(s);
		eq = memchr(s, '=', n);
		key = decode(s, eq != NULL ? (size_t)(eq - s) : n);
		buf_addc(shown, s == p->query + 1 ? '?' : '&');
		if (eq != NULL && key != NULL && is_secret_key(key)) {
			buf_add(shown, s, (size_t)(eq + 1 - s));
			buf_adds(shown, MASK);
			keep_written(&u->secret, eq + 1, n - (size_t)(eq + 1 - s));
			u->has_password = 1;
		} else
			buf_add(shown, s, n);
		/* what libpq quotes when it cannot read the URI: any value */
		if (eq != NULL)
			keep_written(&u->values, eq + 1, n - (size_t)(eq + 1 - s));
		if (n >= 7 && strncmp(s, "schema=", 7) == 0) {
			free(u->schema);
			u->schema = xmalloc(n - 6);
			memcpy(u->schema, s + 7, n - 7);
			u->schema[n - 7] = '\0';
		} else {
			buf_addc(conninfo, strchr(conninfo->data, '?') != NULL ?
			    '&' : '?');
			buf_add(conninfo, s, n);
		}
		free(key);
	}
}

/* schemas PostgreSQL keeps for itself: never a store's */
static int
reserved_schema(const char *name)
{
	return strcmp(name, "information_schema") == 0 ||
	    strncmp(name, "pg_", 3) == 0;
}

static int
check_schema(const struct pg_uri *u, struct error *e)
{
	const char *s = u->schema;
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	/* a plain SQL name: nothing to escape, nothing to misread */
	if (*s == '\0' || n != strlen(s) || n > 63 || (*s >= '0' && *s <= '9'))
		return error_set(e, "store '%s': schema '%s' is not a name of "
		    "lower-case letters, digits and _ (at most 63, not starting "
		    "with a digit)", u->shown, s);
	if (reserved_schema(s))
		return error_set(e, "store '%s': schema '%s' is PostgreSQL's own "
		    "(information_schema and pg_*); name another with schema=",
		    u->shown, s);
	return 0;
}

/* reads the secrets libpq decodes; 0, or -1 (it cannot read conninfo) */
static int
libpq_read(struct pg_uri *u, char **errmsg)
{
	PQconninfoOption *opts, *o;

	*errmsg = NULL;
	if ((opts = pq.conninfo_parse(u->conninfo, errmsg)) == NULL)
		return -1;
	for (o = opts; o->keyword != NULL; o++)
		if (o->val != NULL && is_secret_key(o->keyword))
			keep(&u->secret, o->val, strlen(o->val));
	pq.conninfo_free(opts);
	return 0;
}

int
pg_uri_read(struct pg_uri *u, const char *uri, int libpq, struct error *e)
{
	struct parts p;
	struct buf shown = { 0 }, conninfo = { 0 }, m = { 0 };
	char *errmsg = NULL;
	size_t i;
	int rc = -2;

	memset(u, 0, sizeof(*u));
	u->uri = xstrdup(uri);
	split(uri, &p);
	buf_add(&shown, uri, (size_t)(p.scheme_end - uri));
	if (p.at != NULL) {
		buf_add(&shown, p.user, p.colon != NULL ?
		    (size_t)(p.colon + 1 - p.user) : (size_t)(p.at - p.user));
		if (p.colon != NULL) {
			buf_adds(&shown, MASK);
			keep_written(&u->secret, p.colon + 1,
			    (size_t)(p.at - p.colon - 1));
			u->has_password = 1;
		}
		buf_addc(&shown, '@');
	}
	buf_add(&shown, p.rest, p.query != NULL ? (size_t)(p.query - p.rest) :
	    strlen(p.rest));
	buf_add(&conninfo, uri, p.query != NULL ? (size_t)(p.query - uri) :
	    strlen(uri));
	walk_query(u, &p, &shown, &conninfo);
	u->conninfo = buf_detach(&conninfo);
	if (u->schema == NULL)
		u->schema = xstrdup(PG_DEFAULT_SCHEMA);
	if (p.ambiguous) {
		u->has_password = 1;	/* it may well be one, misread */
		u->shown = shown_blind(uri);
		buf_free(&shown);
		error_set(e, "store '%s': the URI has an '@' that is not the "
		    "one after the user name and password; write '@', '/' and '?' "
		    "in a password (or '@' in a name) as %%40, %%2F and %%3F",
		    u->shown);
		goto out;
	}
	if (libpq && libpq_read(u, &errmsg) < 0) {
		u->shown = shown_blind(uri);
		buf_free(&shown);
		for (i = 0; i < u->values.n; i++)
			keep(&u->secret, u->values.v[i], strlen(u->values.v[i]));
		pg_uri_mask(u, &m, errmsg != NULL ? errmsg : "cannot read it");
		while (m.len > 0 && m.data[m.len - 1] == '\n')
			m.data[--m.len] = '\0';
		error_set(e, "store '%s': the URI is not one libpq reads: %s",
		    u->shown, m.data);
		goto out;
	}
	u->parsed = libpq;
	u->shown = libpq ? buf_detach(&shown) : shown_blind(uri);
	buf_free(&shown);
	if (check_schema(u, e) < 0)
		goto out;
	rc = 0;
out:
	if (errmsg != NULL)
		pq.freemem(errmsg);
	buf_free(&m);
	return rc;
}

/* s with every occurrence of from as to */
static void
replace(struct buf *out, const char *s, const char *from, const char *to)
{
	size_t n = strlen(from);
	const char *hit;

	buf_adds(out, "");
	if (n == 0) {
		buf_adds(out, s);
		return;
	}
	while ((hit = strstr(s, from)) != NULL) {
		buf_add(out, s, (size_t)(hit - s));
		buf_adds(out, to);
		s = hit + n;
	}
	buf_adds(out, s);
}

/* s[0..n) is a part of a secret */
static int
in_a_secret(const struct pg_uri *u, const char *s, size_t n)
{
	size_t i, k, len;

	for (i = 0; n > 0 && i < u->secret.n; i++)
		for (k = 0, len = strlen(u->secret.v[i]); k + n <= len; k++)
			if (memcmp(u->secret.v[i] + k, s, n) == 0)
				return 1;
	return 0;
}

/*
 * msg as it may be printed: the URI (or what libpq was given) as shown, a
 * quoted "..." part of any secret as "***", and each secret of four or
 * more characters wherever it is (a shorter one only where quoted: masking
 * every "a" would leave nothing to read).
 */
void
pg_uri_mask(const struct pg_uri *u, struct buf *out, const char *msg)
{
	struct buf a = { 0 }, b = { 0 };
	const char *s, *q, *end;
	size_t i;

	replace(&a, msg, u->uri, u->shown != NULL ? u->shown : MASK);
	replace(&b, a.data, u->conninfo, u->shown != NULL ? u->shown : MASK);
	a.len = 0;
	buf_adds(&a, "");
	for (s = b.data; (q = strchr(s, '"')) != NULL; s = end + 1) {
		if ((end = strchr(q + 1, '"')) == NULL)
			break;
		buf_add(&a, s, (size_t)(q + 1 - s));
		if (in_a_secret(u, q + 1, (size_t)(end - q - 1)))
			buf_adds(&a, MASK);
		else
			buf_add(&a, q + 1, (size_t)(end - q - 1));
		buf_addc(&a, '"');
	}
	buf_adds(&a, s);
	for (i = 0; i < u->secret.n; i++) {
		if (strlen(u->secret.v[i]) < 4)
			continue;
		b.len = 0;
		replace(&b, a.data, u->secret.v[i], MASK);
		a.len = 0;
		buf_adds(&a, b.data);
	}
	buf_adds(out, a.data);
	buf_free(&a);
	buf_free(&b);
}

void
pg_uri_free(struct pg_uri *u)
{
	strings_free(&u->secret);
	strings_free(&u->values);
	free(u->uri);
	free(u->conninfo);
	free(u->schema);
	free(u->shown);
	memset(u, 0, sizeof(*u));
}

/* the URI with every secret as ***, read by libpq when it is there */
char *
pg_uri_shown(const char *uri)
{
	struct pg_uri u;
	struct error e;
	char *shown;

	pg_uri_read(&u, uri, pq_load(&e) == 0, &e);
	shown = u.shown;
	u.shown = NULL;
	pg_uri_free(&u);
	return shown;
}

int
pg_uri_has_password(const char *uri)
{
	struct pg_uri u;
	struct error e;
	int has;

	pg_uri_read(&u, uri, 0, &e);
	has = u.has_password;
	pg_uri_free(&u);
	return has;
}
