/*
 * shape.c - the store's shape as tables, and the check of a jansson tree
 * against them: what a store, a conversation and a message must hold. A
 * rule is one row here; scan.c reads the same rows on its fast path, so
 * adding or changing a field is one edit. The rules across conversations
 * (at most one active, ids unique) are the store's: store.c and scan.c.
 *
 * It knows JSON values and the shape only: not files, not the lock, not the
 * scanner, not how a conversation is cached.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "shape.h"

/* a message's roles, which the shape checks (store.h) */
static const struct name_table conv_roles[] = {
	{ "user", ROLE_USER },
	{ "assistant", ROLE_ASSISTANT },
	{ "system", ROLE_SYSTEM },
	{ "tool", ROLE_TOOL },
	{ NULL, 0 },
};

const char *
role_name(enum conv_role r)
{
	return enum_name(conv_roles, (int)r);
}

int
role_parse(const char *s, enum conv_role *out)
{
	int v;

	if (enum_parse(conv_roles, s, &v) < 0)
		return -1;
	*out = (enum conv_role)v;
	return 0;
}

static void
role_listed(struct buf *b, const char *name, size_t i, size_t n)
{
	buf_addf(b, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", name);
}

void
role_unknown(struct buf *b, const char *s, const char *const *also)
{
	const struct name_table *p;
	size_t i, k = 0, n = 0;

	for (p = conv_roles; p->name != NULL; p++)
		n++;
	for (i = 0; also != NULL && also[i] != NULL; i++)
		n++;
	buf_addf(b, "unknown role '%s' (expected ", s);
	for (p = conv_roles; p->name != NULL; p++)
		role_listed(b, p->name, k++, n);
	for (i = 0; also != NULL && also[i] != NULL; i++)
		role_listed(b, also[i], k++, n);
	buf_adds(b, ")");
}

const char *
role_list(void)
{
	static struct buf list;

	if (list.len == 0)
		enum_list(&list, conv_roles);
	return list.data;
}

#define ROW(name, type, flags, of) { name, sizeof(name) - 1, type, flags, of }

static const struct shape_field message_fields[MSG_FIELDS] = {
	[MSG_ROLE] = ROW("role", SHAPE_ROLE, SHAPE_REQUIRED, NULL),
	[MSG_CONTENT] = ROW("content", SHAPE_STRING, SHAPE_REQUIRED, NULL),
	[MSG_TIMESTAMP] = ROW("timestamp", SHAPE_TIME, SHAPE_REQUIRED, NULL),
	[MSG_ID] = ROW("id", SHAPE_STRING, 0, NULL),
	[MSG_TOOLS] = ROW("toolsUsed", SHAPE_STRINGS, SHAPE_NULLABLE, NULL),
};
const struct shape shape_message = { message_fields, MSG_FIELDS };

static const struct shape_field conv_fields[CONV_FIELDS] = {
	[CONV_ID] = ROW("id", SHAPE_STRING, SHAPE_REQUIRED | SHAPE_NONEMPTY, NULL),
	[CONV_STARTED] = ROW("startedAt", SHAPE_TIME, SHAPE_REQUIRED, NULL),
	[CONV_ENDED] = ROW("endedAt", SHAPE_TIME, SHAPE_NULLABLE, NULL),
	[CONV_TITLE] = ROW("title", SHAPE_STRING, SHAPE_NULLABLE, NULL),
	[CONV_SUMMARY] = ROW("summary", SHAPE_STRING, SHAPE_NULLABLE, NULL),
	[CONV_MESSAGES] = ROW("messages", SHAPE_OBJECTS, SHAPE_REQUIRED,
	    &shape_message),
};
const struct shape shape_conv = { conv_fields, CONV_FIELDS };

static const struct shape_field store_fields[TOP_FIELDS] = {
	[TOP_VERSION] = ROW("version", SHAPE_VERSION, 0, NULL),
	[TOP_LAST_MIGRATED] = ROW("lastMigrated", SHAPE_STRING, SHAPE_NULLABLE,
	    NULL),
	[TOP_CONVERSATIONS] = ROW("conversations", SHAPE_OBJECTS, 0, &shape_conv),
};
const struct shape shape_store = { store_fields, TOP_FIELDS };

/* "WHERE.NAME" and then fmt's text, or "NAME..." at the top; -1 */
__attribute__((format(printf, 4, 5))) static int
field_error(struct error *e, const char *where, const char *name,
    const char *fmt, ...)
{
	struct buf msg = { 0 };
	va_list ap;

	if (where != NULL)
		buf_addf(&msg, "%s.", where);
	buf_adds(&msg, name);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_set(e, "%s", msg.data);
	buf_free(&msg);
	return -1;
}

/* each element of v, an array, against f->of; their paths WHERE.NAME[i] */
static int
check_elements(const struct shape_field *f, json_t *v, const char *where,
    struct error *e)
{
	struct buf at = { 0 };
	json_t *el;
	size_t i;
	int rc = 0;

	json_array_foreach(v, i, el) {
		at.len = 0;
		if (where != NULL)
			buf_addf(&at, "%s.", where);
		buf_addf(&at, "%s[%zu]", f->name, i);
		if ((rc = shape_check(f->of, el, at.data, 1, e)) < 0)
			break;
	}
	buf_free(&at);
	return rc;
}

/* v, there and not a null the row allows, against row f */
static int
check_value(const struct shape_field *f, json_t *v, const char *where,
    int deep, struct error *e)
{
	const char *nul = f->flags & SHAPE_NULLABLE ? " or null" : "";
	struct buf what = { 0 };
	json_t *t;
	int64_t ms;
	size_t i;
	int rc;

	switch (f->type) {
	case SHAPE_STRING:
	case SHAPE_TIME:
	case SHAPE_ROLE:
		if (!json_is_text(v) || (f->flags & SHAPE_NONEMPTY &&
		    json_string_length(v) == 0))
			return field_error(e, where, f->name, ": expected a %s%s%s",
			    f->flags & SHAPE_NONEMPTY ? "non-empty " : "",
			    f->type == SHAPE_TIME ? "time string" : "string", nul);
		if (shape_text(f, json_string_value(v), &ms) == 0)
			return 0;
		if (f->type == SHAPE_ROLE) {
			role_unknown(&what, json_string_value(v), NULL);
			rc = field_error(e, where, f->name, ": %s", what.data);
			buf_free(&what);
			return rc;
		}
		return field_error(e, where, f->name, ": not an ISO 8601 time "
		    "from 1970 on: '%s'", json_string_value(v));
	case SHAPE_STRINGS:
		if (!json_is_array(v))
			return field_error(e, where, f->name, ": expected an array");
		json_array_foreach(v, i, t)
			if (!json_is_text(t))
				return field_error(e, where, f->name,
				    "[%zu]: expected a string", i);
		return 0;
	case SHAPE_VERSION:
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return field_error(e, where, f->name,
			    ": expected a whole number from 1");
		if (json_integer_value(v) > STORE_VERSION)
			return error_set(e, "store version %lld is newer than this "
			    "convctl knows (%d); upgrade convctl",
			    (long long)json_integer_value(v), STORE_VERSION);
		return 0;
	case SHAPE_OBJECTS:
		if (!json_is_array(v))
			return field_error(e, where, f->name, ": expected an array");
		return deep ? check_elements(f, v, where, e) : 0;
	}
	return 0;
}

int
shape_check(const struct shape *sh, json_t *v, const char *where, int deep,
    struct error *e)
{
	const struct shape_field *f;
	json_t *fv;

	if (!json_is_object(v))
		return where != NULL ? error_set(e, "%s: expected an object", where) :
		    error_set(e, "expected a JSON object at the top");
	for (f = sh->field; f < sh->field + sh->n; f++) {
		fv = json_object_get(v, f->name);
		if (fv == NULL && f->flags & SHAPE_REQUIRED)
			return error_set(e, "%s: missing '%s'",
			    where != NULL ? where : "the store", f->name);
		if (fv == NULL || (f->flags & SHAPE_NULLABLE && json_is_null(fv)))
			continue;
		if (check_value(f, fv, where, deep, e) < 0)
			return -1;
	}
	return 0;
}

int
conv_validate(json_t *c, const char *where, struct error *e)
{
	return shape_check(&shape_conv, c, where, 1, e);
}
