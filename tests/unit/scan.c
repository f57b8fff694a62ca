/*
 * scan.c - the store scanner (lib/store/scan.c), and the JSON lexer it reads
 * with (lib/base/lex.c), agree with jansson and the shape checks: what it
 * accepts, what it refuses, the fields it keeps, the values lex_json() builds. Each case that the
 * differential fuzzer (fuzz/fuzz_scan.c) found is here too, marked "fuzz:".
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "store/scan.h"
#include "tap.h"

#define T0 "2026-02-04T17:26:40.000Z"
#define MSG "{\"role\":\"user\",\"content\":\"hi\",\"timestamp\":\"" T0 "\"}"
#define CONV(id, end) "{\"id\":\"" id "\",\"startedAt\":\"" T0 "\"," \
	"\"endedAt\":" end ",\"title\":null,\"summary\":null,\"messages\":[" MSG "]}"

/* scan_store() of s; jansson's verdict checked with it */
static int
scan(const char *s, size_t len)
{
	struct scan sc;
	json_error_t je;
	json_t *root;
	int rc;

	rc = scan_store(s, len, &sc);
	scan_free(&sc);
	/* whatever the scanner accepts, jansson must parse, but for the two
	 * kinds of valid JSON it refuses (see scan.c) */
	root = json_loadb(s, len, JSON_LOAD_FLAGS, &je);
	if (root == NULL && (json_error_code(&je) == json_error_null_byte_in_key ||
	    json_error_code(&je) == json_error_numeric_overflow))
		root = json_object();
	if (rc == 0 && root == NULL)
		printf("# accepted what jansson refuses: %s\n", je.text);
	json_decref(root);
	return rc == 0 && root == NULL ? -99 : rc;
}

#define accepts(s, name) is_int(scan(s, strlen(s)), 0, name)
#define refuses(s, name) is_int(scan(s, strlen(s)), SCAN_INVALID, name)
#define accepts_n(s, n, name) is_int(scan(s, n), 0, name)
#define refuses_n(s, n, name) is_int(scan(s, n), SCAN_INVALID, name)
/* a string literal that holds NUL bytes */
#define accepts_lit(s, name) accepts_n(s, sizeof(s) - 1, name)
#define refuses_lit(s, name) refuses_n(s, sizeof(s) - 1, name)

/* a store with one conversation whose title is the JSON text t */
static int
title(const char *t)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "{\"conversations\":[{\"id\":\"a\",\"startedAt\":"
	    "\"" T0 "\",\"title\":%s,\"messages\":[]}]}", t);
	return scan(buf, strlen(buf));
}

static void
syntax(void)
{
	accepts("{}", "an empty object is an empty store");
	accepts(" \t\r\n{ } \n", "whitespace around");
	refuses("", "nothing (store.c treats an empty file before scanning)");
	refuses("[]", "an array at the top");
	refuses("{} x", "text after the object");
	refuses("{\"a\":1,}", "a trailing comma in an object");
	refuses("{\"a\":[1,]}", "a trailing comma in an array");
	refuses("{\"a\" 1}", "a missing colon");
	refuses("{\"a\":1 \"b\":2}", "a missing comma");
	refuses("{\"a\":01}", "a leading zero");
	refuses("{\"a\":-}", "a lone minus");
	refuses("{\"a\":1.}", "a fraction without digits");
	refuses("{\"a\":1e}", "an exponent without digits");
	refuses("{\"a\":.5}", "a fraction without an integer");
	refuses("{\"a\":+1}", "a plus sign");
	accepts("{\"a\":[0,-0,1.5,-2e-3,3E+2,true,false,null,{}]}", "every kind of value");
	refuses("{\"a\":nul}", "a cut word");
	refuses("{\"a\":nullx}", "a longer word");
	refuses("{\"a\":True}", "a capital letter");
	refuses("{\"a\":\f1}", "a form feed is not whitespace");
	refuses("{\"a\":1}\xc3\xa9", "UTF-8 after the end");
}

static void
numbers(void)
{
	accepts("{\"a\":9223372036854775807}", "the largest int64");
	accepts("{\"a\":-9223372036854775808}", "the smallest int64");
	/* jansson refuses these; they are valid JSON, kept as written */
	accepts("{\"a\":9223372036854775808}", "an int64 overflow");
	accepts("{\"a\":-9223372036854775809}", "an int64 underflow");
	accepts("{\"a\":123456789012345678901234567890}", "a huge integer");
	accepts("{\"a\":1e308}", "a large real");
	accepts("{\"a\":1e309}", "a real that overflows");
	accepts("{\"a\":-1e309}", "a negative real that overflows");
	accepts("{\"a\":1e400,\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0
	    "\",\"messages\":[],\"n\":[1e400,-1E+99999]}]}",
	    "1e400 at the top and in a conversation");
	refuses("{\"version\":99999999999999999999}", "but not as the version");
	accepts("{\"a\":1e-400}", "a real that underflows is zero");
	accepts("{\"a\":123456789012345678901234567890.0}", "a long real");
}

static void
strings(void)
{
	is_int(title("\"caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x99\x82\""), 0, "UTF-8 of 2, 3, 4 bytes");
	is_int(title("\"\xc0\x80\""), SCAN_INVALID, "an overlong NUL");
	is_int(title("\"\xc1\xbf\""), SCAN_INVALID, "an overlong 2-byte form");
	is_int(title("\"\xe0\x9f\xbf\""), SCAN_INVALID, "an overlong 3-byte form");
	is_int(title("\"\xf0\x8f\xbf\xbf\""), SCAN_INVALID, "an overlong 4-byte form");
	is_int(title("\"\xed\xa0\x80\""), SCAN_INVALID, "an encoded surrogate");
	is_int(title("\"\xf4\x90\x80\x80\""), SCAN_INVALID, "past U+10FFFF");
	is_int(title("\"\xf5\x80\x80\x80\""), SCAN_INVALID, "a byte never in UTF-8");
	is_int(title("\"\x80\""), SCAN_INVALID, "a lone continuation byte");
	is_int(title("\"\xe6\x97\""), SCAN_INVALID, "a cut sequence");
	is_int(title("\"a\tb\""), SCAN_INVALID, "a raw tab");
	is_int(title("\"a\nb\""), SCAN_INVALID, "a raw newline");
	is_int(title("\"\x7f\""), 0, "DEL as it is");
	is_int(title("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\""), 0, "every short escape");
	is_int(title("\"\\x\""), SCAN_INVALID, "an unknown escape");
	is_int(title("\"\\u00e9\\u00E9\""), 0, "\\u in either case");
	is_int(title("\"\\u00g9\""), SCAN_INVALID, "\\u with a non-hex digit");
	is_int(title("\"\\u00e\""), SCAN_INVALID, "\\u cut short");
	is_int(title("\"\\ud83d\\ude00\""), 0, "a surrogate pair");
	is_int(title("\"\\ud83d\""), SCAN_INVALID, "a lone high surrogate");
	is_int(title("\"\\ud83dx\""), SCAN_INVALID, "a high surrogate then text");
	is_int(title("\"\\ud83d\\n\""), SCAN_INVALID, "a high surrogate then an escape");
	is_int(title("\"\\ud83d\\ud83d\""), SCAN_INVALID, "two high surrogates");
	is_int(title("\"\\ude00\""), SCAN_INVALID, "a lone low surrogate");
	is_int(title("\"a\\u0000b\""), 0, "\\u0000 in a value");
	accepts("{\"a\\u0000\":1}", "\\u0000 in a key (jansson refuses it)");
	accepts("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\","
	    "\"messages\":[{\"role\":\"user\",\"content\":\"\",\"timestamp\":\"" T0
	    "\",\"\\u0000\":0}],\"\\u0000k\":1}]}", "\\u0000 in keys of a conversation "
	    "and a message");
	refuses("{\"a\\u0000\":1,\"a\\u0000\":2}", "a duplicate key with a NUL");
	refuses_lit("{\"a\":\"x\0\"}", "a raw NUL in a string");
	is_int(title("\"unterminated"), SCAN_INVALID, "an unterminated string");
}

/* every sequence at every offset of a 16-byte block, and near the end */
static void
blocks(void)
{
	static const struct {
		const char *seq;
		int ok;
	} seqs[] = {
		{ "\xc3\xa9", 1 }, { "\xe6\x97\xa5", 1 }, { "\xf0\x9f\x99\x82", 1 },
		{ "\xef\xbf\xbf", 1 }, { "\xf4\x8f\xbf\xbf", 1 },
		{ "\xc3", 0 }, { "\xe6\x97", 0 }, { "\xf0\x9f\x99", 0 },
		{ "\xc1\xbf", 0 }, { "\xe0\x9f\xbf", 0 }, { "\xed\xa0\x80", 0 },
		{ "\xf0\x8f\xbf\xbf", 0 }, { "\xf4\x90\x80\x80", 0 },
		{ "\xa9", 0 }, { "\xe6\x97\xa5\xa5", 0 }, { "\xff", 0 },
	};
	char buf[256], name[64];
	size_t i, off, bad = 0, n = 0;
	int want;

	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		for (off = 0; off < 40; off++) {
			/* the sequence at off, then padding so it lands anywhere */
			n = (size_t)snprintf(buf, sizeof(buf), "{\"a\":\"%.*s%s%.*s\"}",
			    (int)off, "........................................",
			    seqs[i].seq, (int)(off % 17), "zzzzzzzzzzzzzzzzz");
			want = seqs[i].ok ? 0 : SCAN_INVALID;
			if (scan(buf, n) != want) {
				printf("# sequence %zu at %zu: wrong\n", i, off);
				bad++;
			}
		}
	snprintf(name, sizeof(name), "%zu sequences at 40 offsets each",
	    sizeof(seqs) / sizeof(seqs[0]));
	is_int(bad, 0, name);
	/* a cut sequence as the last bytes of the file, every tail length */
	for (off = 0, bad = 0; off < 40; off++) {
		n = (size_t)snprintf(buf, sizeof(buf), "{\"a\":\"%.*s\"}  \xe6\x97",
		    (int)off, "........................................");
		if (scan(buf, n) != SCAN_INVALID)
			bad++;
	}
	is_int(bad, 0, "a sequence cut by the end of the file");
}

/* objects past MAX_KEYS (64) have their keys checked sorted */
static void
many_keys(void)
{
	struct buf b = { 0 };
	int i;

	buf_adds(&b, "{\"x\":{");
	for (i = 0; i < 200; i++)
		buf_addf(&b, "%s\"k%d\":%d", i ? "," : "", i, i);
	buf_adds(&b, "}}");
	accepts(b.data, "200 keys");
	b.len -= 2;
	buf_adds(&b, ",\"k\\u0031\":1}}");	/* k1 again, escaped */
	refuses(b.data, "200 keys and one of them again");
	b.len = 0;
	buf_adds(&b, "{");
	for (i = 0; i < 100; i++)
		buf_addf(&b, "\"k%d\":%d,", i, i);
	buf_adds(&b, "\"k99\":0}");
	refuses(b.data, "100 top-level keys and the last again");
	buf_free(&b);
}

static void
keys(void)
{
	accepts("{\"a\":1,\"b\":2}", "two keys");
	refuses("{\"a\":1,\"a\":2}", "a duplicate key");
	refuses("{\"a\":1,\"\\u0061\":2}", "a duplicate key, escaped");
	refuses("{\"x\":{\"a\":1,\"b\":{},\"a\":2}}", "a duplicate key, nested");
	accepts("{\"x\":{\"a\":1},\"y\":{\"a\":1}}", "the same key in two objects");
	refuses("{\"conversations\":[],\"conversations\":[]}", "conversations twice");
	refuses("{\"conversations\":[" CONV("a", "null") "],\"\\u0063onversations\":[]}",
	    "conversations twice, once escaped");
	refuses("{\"conversations\":[{\"id\":\"a\",\"id\":\"b\",\"startedAt\":\"" T0
	    "\",\"messages\":[]}]}", "a conversation's id twice");
	many_keys();
}

static void
depth(void)
{
	char buf[8192];
	size_t n, i;

	/* the top object is depth 1; jansson allows 2048 */
	n = 0;
	n += (size_t)sprintf(buf, "{\"a\":");
	for (i = 0; i < 2047; i++)
		buf[n++] = '[';
	for (i = 0; i < 2047; i++)
		buf[n++] = ']';
	buf[n++] = '}';
	accepts_n(buf, n, "an empty array at depth 2048");
	n = 0;
	n += (size_t)sprintf(buf, "{\"a\":");
	for (i = 0; i < 2047; i++)
		buf[n++] = '[';
	buf[n++] = '1';
	for (i = 0; i < 2047; i++)
		buf[n++] = ']';
	buf[n++] = '}';
	refuses_n(buf, n, "a number at depth 2049");
	n = 0;
	n += (size_t)sprintf(buf, "{\"a\":");
	for (i = 0; i < 2048; i++)
		buf[n++] = '[';
	for (i = 0; i < 2048; i++)
		buf[n++] = ']';
	buf[n++] = '}';
	refuses_n(buf, n, "an empty array at depth 2049");
}

static void
shape(void)
{
	accepts("{\"version\":1,\"conversations\":[],\"lastMigrated\":null}", "the top fields");
	refuses("{\"version\":2}", "a newer version");
	refuses("{\"version\":0}", "version 0");
	refuses("{\"version\":1.0}", "a real version");
	refuses("{\"version\":\"1\"}", "a string version");
	refuses("{\"lastMigrated\":1}", "lastMigrated a number");
	refuses("{\"lastMigrated\":1e400}", "lastMigrated a number jansson refuses");
	refuses("{\"conversations\":{}}", "conversations an object");
	accepts("{\"conversations\":[" CONV("a", "\"" T0 "\"") "," CONV("b", "null") "]}",
	    "an ended and an active conversation");
	refuses("{\"conversations\":[" CONV("a", "null") "," CONV("b", "null") "]}",
	    "two active conversations");
	refuses("{\"conversations\":[" CONV("a", "\"" T0 "\"") "," CONV("a", "null") "]}",
	    "two conversations with one id");
	/* fuzz: an end before 1970 is -1 to conv_refresh(), so the conversation
	 * counts as active (jansson's path does the same) */
	refuses("{\"conversations\":[" CONV("a", "\"1013-01-02\"") "," CONV("b", "null") "]}",
	    "fuzz: an end before 1970 is a second active conversation");
	refuses("{\"conversations\":[1]}", "a conversation not an object");
	refuses("{\"conversations\":[{\"startedAt\":\"" T0 "\",\"messages\":[]}]}", "no id");
	refuses("{\"conversations\":[{\"id\":\"\",\"startedAt\":\"" T0 "\",\"messages\":[]}]}",
	    "an empty id");
	accepts("{\"conversations\":[{\"id\":\"\\u0000\",\"startedAt\":\"" T0 "\",\"messages\":[]}]}",
	    "an id of one NUL is not empty");
	refuses("{\"conversations\":[{\"id\":\"a\",\"messages\":[]}]}", "no startedAt");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"soon\",\"messages\":[]}]}",
	    "a startedAt that is no time");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\"}]}", "no messages");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":{}}]}",
	    "messages an object");
	is_int(title("1"), SCAN_INVALID, "a title that is a number");
	is_int(title("0.5"), SCAN_INVALID, "a title that is a real");
	is_int(title("1e400"), SCAN_INVALID, "a title that is 1e400");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"robot\",\"content\":\"\",\"timestamp\":\"" T0 "\"}]}]}", "an unknown role");
	accepts("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"tool\\u0000x\",\"content\":\"\",\"timestamp\":\"" T0 "\"}]}]}",
	    "a role read as a C string, as jansson's path reads it");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"user\",\"timestamp\":\"" T0 "\"}]}]}", "a message without content");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"user\",\"content\":\"\",\"timestamp\":\"" T0 "\",\"id\":null}]}]}",
	    "a message id that is null");
	refuses("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"user\",\"content\":\"\",\"timestamp\":\"" T0 "\",\"toolsUsed\":[1]}]}]}",
	    "a tool that is not a string");
	accepts("{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"" T0 "\",\"messages\":["
	    "{\"role\":\"user\",\"content\":\"\",\"timestamp\":\"" T0 "\",\"toolsUsed\":null}]}]}",
	    "toolsUsed null");
}

static void
quirks(void)
{
	/* fuzz: jansson's reader puts back the byte after a number or word,
	 * and loses it when it is NUL: one such NUL is skipped, two are not */
	accepts_lit("{\"a\":null\0}", "fuzz: a NUL after null is skipped");
	accepts_lit("{\"a\":1\0,\"b\":true\0}", "fuzz: a NUL after a number or true");
	refuses_lit("{\"a\":null\0\0}", "fuzz: but not two");
	refuses_lit("{\"a\":\0null}", "fuzz: nor one before a value");
	accepts_lit("{\"version\":1\0,\"lastMigrated\":null\0}",
	    "fuzz: the top fields with the NUL too");
}

/* messages out of time order: the last is not the newest */
static void
newest(void)
{
	const char *s = "{\"version\":1,\"conversations\":[{\"id\":\"c\","
	    "\"startedAt\":\"2026-02-04T17:00:00.000Z\",\"messages\":["
	    "{\"role\":\"user\",\"content\":\"a\",\"timestamp\":"
	    "\"2026-02-04T18:00:00.000Z\"},{\"role\":\"user\",\"content\":"
	    "\"b\",\"timestamp\":\"2026-02-04T17:30:00.000Z\"}]}]}";
	struct scan sc;
	int64_t ms;

	is_int(scan_store(s, strlen(s), &sc), 0, "messages out of time order");
	ts_parse("2026-02-04T17:30:00.000Z", &ms);
	is_int(sc.conv[0].last, ms, "last: the last message's time");
	ts_parse("2026-02-04T18:00:00.000Z", &ms);
	is_int(sc.conv[0].newest, ms, "newest: the latest, the first message's");
	scan_free(&sc);
}

static void
fields(void)
{
	const char *s = "{\"version\":1,\"conversations\":[\n    "
	    "{\"id\":\"c\xc3\xa9\",\"startedAt\":\"2026-02-04T17:26:40.000Z\","
	    "\"endedAt\":\"2026-02-04T18:00:00.000Z\",\"title\":\"T\\n\","
	    "\"summary\":null,\"messages\":[" MSG ",{\"role\":\"assistant\","
	    "\"content\":\"ok\",\"timestamp\":\"2026-02-04T17:30:00.000Z\"}]},\n    "
	    "{ \"id\":\"d\",\"startedAt\":\"2026-02-05T00:00:00.000Z\",\"messages\":[]},"
	    "{\"id\":\"e\",\"startedAt\":\"2026-02-05T00:00:00.000Z\",\"endedAt\":"
	    "\"2026-02-06T00:00:00Z\",\"messages\":[],\"x\":\"\\/\"}"
	    "],\"lastMigrated\":\"2026\",\"zz\":[1]}";
	struct scan sc;
	int64_t ms;

	is_int(scan_store(s, strlen(s), &sc), 0, "a store with three conversations");
	is_int(sc.n, 3, "three conversations");
	is_str(sc.conv[0].id, "c\xc3\xa9", "the id decoded");
	is_str(sc.conv[0].title, "T\n", "the title decoded");
	ok(sc.conv[0].summary == NULL, "a null summary is NULL");
	is_int(sc.conv[0].nmsg, 2, "two messages");
	ts_parse("2026-02-04T17:30:00.000Z", &ms);
	is_int(sc.conv[0].last, ms, "the last message's time");
	is_int(sc.conv[0].newest, ms, "the newest message's time");
	ts_parse("2026-02-04T18:00:00.000Z", &ms);
	is_int(sc.conv[0].ended, ms, "the end");
	ok(sc.conv[0].canonical, "jansson's own text is canonical");
	is_int(sc.conv[1].ended, -1, "no endedAt is active");
	is_int(sc.conv[1].last, sc.conv[1].started, "no messages: last is the start");
	is_int(sc.conv[1].newest, INT64_MIN, "no messages: no newest");
	ok(!sc.conv[1].canonical, "whitespace inside is not canonical");
	ok(!sc.conv[2].canonical, "an escaped slash is not canonical");
	ok(memcmp(s + sc.conv[1].off, "{ \"id\":\"d\"", 10) == 0 &&
	    s[sc.conv[1].off + sc.conv[1].len - 1] == '}', "the range of a conversation");
	is_int(sc.nmember, 3, "three other top-level members");
	is_str(sc.member[1].key, "lastMigrated", "their keys, in order");
	ok(sc.member[2].len == 3 && memcmp(s + sc.member[2].off, "[1]", 3) == 0,
	    "their values' bytes");
	scan_free(&sc);
}

/* scan_conv(): one conversation's bytes, by the whole store's rules */
static void
one(void)
{
	const char *c = "{\"id\":\"a\",\"startedAt\":\"2026-02-04T17:26:40.000Z\","
	    "\"endedAt\":null,\"title\":\"T\",\"messages\":[" MSG "]}";
	struct scan_conv sc;
	char buf[512];
	size_t n = strlen(c);

	is_int(scan_conv(c, n, &sc), 0, "one conversation's bytes");
	is_str(sc.id, "a", "its id");
	is_str(sc.title, "T", "its title");
	is_int(sc.ended, -1, "active");
	is_int(sc.nmsg, 1, "one message");
	ok(sc.canonical && sc.off == 0 && sc.len == n, "canonical, all of it");
	scan_conv_clear(&sc);
	ok(sc.id == NULL, "cleared");
	snprintf(buf, sizeof(buf), "%s ", c);
	is_int(scan_conv(buf, n + 1, &sc), SCAN_INVALID, "nothing may follow it");
	is_int(scan_conv(c, n - 1, &sc), SCAN_INVALID, "nor may it be cut short");
	snprintf(buf, sizeof(buf), "%.*s,\"x\":1,\"x\":2}", (int)n - 1, c);
	is_int(scan_conv(buf, strlen(buf), &sc), SCAN_INVALID,
	    "a duplicate key is refused as in a store");
	is_int(scan_conv("{\"id\":\"a\"}", 10, &sc), SCAN_INVALID,
	    "so is a conversation without its required fields");
	is_int(scan_conv("[]", 2, &sc), SCAN_INVALID, "and what is not an object");
}

/* lex_json(): numbers as their text, the rest as jansson's values */
static void
build(void)
{
	const char *s = "{\"i\":-12,\"r\":[0.1,1e400,-0,1.0,"
	    "123456789012345678901234567890,1E+2],\"k\\u0000\":\"\\u0000\","
	    "\"t\":true,\"n\":null}";
	struct buf b = { 0 };
	json_t *v = lex_json(s, strlen(s)), *r;
	size_t n;

	if (!ok(v != NULL, "lex_json builds a value"))
		return;
	ok(json_is_integer(json_object_get(v, "i")) &&
	    json_integer_value(json_object_get(v, "i")) == -12,
	    "an integer that fits is an integer");
	r = json_object_get(v, "r");
	is_str(json_number_text_of(json_array_get(r, 0), &n), "0.1",
	    "a real is its text");
	ok(json_number_text_of(json_array_get(r, 2), &n) != NULL && n == 2,
	    "-0 is its text");
	ok(!json_is_text(json_array_get(r, 1)) && json_str(v, "r", NULL) == NULL,
	    "a number text is no string to the accessors");
	ok(json_string_length(json_object_getn(v, "k\0", 2)) == 1,
	    "a key and a string with NUL");
	json_dump_buf(&b, v);
	is_str(b.data, s, "json_dump_buf writes each number as it was");
	ok(lex_json("{\"a\":1,\"a\":2}", 13) == NULL, "a duplicate key is no value");
	ok(lex_json("[1,]", 4) == NULL, "nor broken JSON");
	json_decref(v);
	buf_free(&b);
}

/* through store_open(): what the scanner refuses still fails as before */
static void
store(void)
{
	char path[] = "/tmp/convctl-scan-XXXXXX";
	const char *bad = "{\"conversations\": [\n  {\"id\": 1}\n]}\n";
	const char *broken = "{\"conversations\": [\n  {\"id\": \"a\",,}\n]}\n";
	const char *bad1e400 = "{\"n\": 1e400, \"conversations\": [{\"id\": 0.5}]}";
	struct store *st = NULL;
	struct error e;
	int fd;

	if ((fd = mkstemp(path)) < 0)
		return;
	if (write(fd, bad, strlen(bad)) < 0)
		return;
	close(fd);
	is_int(store_open(&st, path, STORE_READ, 0, &e), -1, "a bad shape is refused");
	ok(strstr(e.msg, "conversations[0].id: expected a non-empty string") != NULL,
	    "with the shape check's message");
	fd = open(path, O_WRONLY | O_TRUNC);
	if (write(fd, broken, strlen(broken)) < 0)
		return;
	close(fd);
	is_int(store_open(&st, path, STORE_READ, 0, &e), -1, "broken JSON is refused");
	ok(strstr(e.msg, ":2:14: ") != NULL, "with jansson's line and column");
	printf("# %s\n", e.msg);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (write(fd, bad1e400, strlen(bad1e400)) < 0)
		return;
	close(fd);
	is_int(store_open(&st, path, STORE_READ, 0, &e), -1,
	    "a bad shape beside 1e400 is refused");
	ok(strstr(e.msg, "conversations[0].id: expected a non-empty string") != NULL,
	    "for its shape, not for the number jansson cannot read");
	printf("# %s\n", e.msg);
	unlink(path);
}

int
main(void)
{
	syntax();
	numbers();
	strings();
	blocks();
	keys();
	depth();
	shape();
	quirks();
	fields();
	newest();
	one();
	build();
	store();
	return done();
}
