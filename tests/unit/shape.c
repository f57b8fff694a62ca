/*
 * shape.c - the store's shape has one definition (lib/store/shape.c's tables):
 * for every row of every table and a set of values of each JSON kind, the
 * scanner (scan_store()) and the jansson path (shape_check()) agree on what
 * is a store, and the rows say what each field may hold.
 */
#include <string.h>

#include "internal.h"
#include "store/scan.h"
#include "store/shape.h"
#include "tap.h"

#define T0 "2026-02-04T17:26:40.000Z"
#define STORE "{\"version\":1,\"lastMigrated\":null,\"conversations\":[" \
	"{\"id\":\"c\",\"startedAt\":\"" T0 "\",\"endedAt\":\"" T0 "\"," \
	"\"title\":\"t\",\"summary\":null,\"messages\":[{\"id\":\"m\"," \
	"\"role\":\"user\",\"content\":\"hi\",\"timestamp\":\"" T0 "\"," \
	"\"toolsUsed\":[\"x\"]}]}]}"

/* the values every field is tried with; NULL: the field removed */
static const char *const values[] = {
	NULL, "null", "1", "-1", "2", "1.5", "true", "\"\"", "\"x\"", "\"user\"",
	"\"" T0 "\"", "\"1969-12-31T23:59:59.000Z\"", "[]", "[\"a\"]", "[1]",
	"[null]", "{}",
};

static json_t *
parse(const char *s)
{
	return lex_json(s, strlen(s));
}

/* both verdicts on text: 1 the scanner's, 2 jansson's with the shape's */
static void
verdicts(const char *text, int *scanner, int *tree)
{
	struct scan sc;
	struct error e;
	json_t *root;

	*scanner = scan_store(text, strlen(text), &sc) == 0;
	scan_free(&sc);
	root = lex_json(text, strlen(text));
	*tree = root != NULL && shape_check(&shape_store, root, NULL, 1, &e) == 0;
	json_decref(root);
}

/* the object of the valid store that table sh describes */
static json_t *
object_of(json_t *root, const struct shape *sh)
{
	json_t *c = json_array_get(json_object_get(root, "conversations"), 0);

	if (sh == &shape_store)
		return root;
	if (sh == &shape_conv)
		return c;
	return json_array_get(json_object_get(c, "messages"), 0);
}

/* each row of sh with each value: 1 when the two paths agreed on all */
static int
agree(const struct shape *sh, const char *name, int *accepted, int *refused)
{
	size_t i, k;
	int all = 1, a, b;

	for (i = 0; i < sh->n; i++)
		for (k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			json_t *root = parse(STORE);
			json_t *obj = object_of(root, sh);
			struct buf text = { 0 };

			if (values[k] == NULL)
				json_object_del(obj, sh->field[i].name);
			else
				json_object_set_new(obj, sh->field[i].name,
				    parse(values[k]));
			json_dump_buf(&text, root);
			verdicts(text.data, &a, &b);
			if (a != b) {
				printf("# scanner %s, jansson path %s: %s.%s = %s\n",
				    a ? "accepts" : "refuses",
				    b ? "accepts" : "refuses", name,
				    sh->field[i].name, values[k] ? values[k] :
				    "(missing)");
				all = 0;
			}
			*accepted += a;
			*refused += !a;
			buf_free(&text);
			json_decref(root);
		}
	return all;
}

int
main(void)
{
	int a, b, accepted = 0, refused = 0;
	struct error e;
	json_t *v;

	verdicts(STORE, &a, &b);
	ok(a && b, "the valid store is a store to both paths");
	ok(agree(&shape_store, "store", &accepted, &refused),
	    "the store's rows: the scanner and the jansson path agree");
	ok(agree(&shape_conv, "conversation", &accepted, &refused),
	    "a conversation's rows: the scanner and the jansson path agree");
	ok(agree(&shape_message, "message", &accepted, &refused),
	    "a message's rows: the scanner and the jansson path agree");
	ok(accepted > 20 && refused > 100, "both verdicts were seen");

	/* the rows' words in the jansson path's messages */
	v = parse("{\"id\":\"\",\"startedAt\":\"" T0 "\",\"messages\":[]}");
	ok(v != NULL && conv_validate(v, "c", &e) < 0, "an empty id is refused");
	is_str(e.msg, "c.id: expected a non-empty string", "and says so");
	json_decref(v);
	v = parse("{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":[{"
	    "\"role\":\"user\",\"content\":\"\",\"timestamp\":\"" T0 "\","
	    "\"toolsUsed\":[\"a\",2]}]}");
	ok(v != NULL && conv_validate(v, "c", &e) < 0, "a tool that is a number");
	is_str(e.msg, "c.messages[0].toolsUsed[1]: expected a string",
	    "is named by its path");
	json_decref(v);
	return done();
}
