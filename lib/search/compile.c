/*
 * compile.c - a query compiled once, into the description every executor
 * takes (struct query, lib/store/query.h) and what the matcher (match.c)
 * needs beyond it.
 *
 * One rule of case for both kinds of query, the C library's for the
 * current LC_CTYPE: an expression is compiled by regcomp() (REG_ICASE), a
 * plain query matched character by character as glibc's regexec() compares
 * them (towupper() of both), without regcomp()'s tree of some 200 bytes a
 * byte of the query (find_plain()); in a locale that is not UTF-8, or with
 * the prefilter off, it is escaped into an expression instead.
 *
 * The prefilter: a run of characters every match must hold (q.lit),
 * taken from the expression, with the characters beyond ASCII that fold
 * to its letters (q.fold). An executor skips what lacks it, as bytes,
 * escaped or not (the file's, lib/store/query-bytes.c), or in SQL
 * (query_spell()); it may only skip what cannot match, so whatever it
 * cannot be sure of (an alternation, a character whose case folding is not
 * known here) leaves it empty and every message to the matcher.
 */
#include <langinfo.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "match.h"

/* the characters a plain query's are escaped from */
#define ERE_SPECIAL "\\^$.[]|()*+?{}"


static unsigned char
ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* ends the run in cur: the longest so far kept in best */
static void
run_end(struct buf *cur, struct buf *best)
{
	if (cur->len > best->len) {
		best->len = 0;
		buf_add(best, cur->data, cur->len);
	}
	cur->len = 0;
}

/* past the bracket expression at p ('['); the expression compiled, so it
 * is well formed */
static const char *
bracket_end(const char *p)
{
	const char *q = p + 1, *x;

	if (*q == '^')
		q++;
	if (*q == ']')		/* first, it is a member */
		q++;
	while (*q != '\0' && *q != ']') {
		if (q[0] == '[' && (q[1] == ':' || q[1] == '=' || q[1] == '.')) {
			char close[3] = { q[1], ']', '\0' };

			if ((x = strstr(q + 2, close)) == NULL)
				return q + strlen(q);
			q = x + 2;
		} else
			q++;
	}
	return *q == ']' ? q + 1 : q;
}

/*
 * The longest run of ASCII characters that every match of the extended
 * regular expression re holds, one after the other: of those outside any
 * group, each once, not under *, ? or {}. None (best empty) when re has an
 * alternation. What it does not know ends a run: it may find too little,
 * never a run some match lacks.
 */
static void
required_run(const char *re, struct buf *best)
{
	struct buf cur = { 0 };
	const char *p = re;
	int depth = 0;
	unsigned char c;

	buf_add(best, "", 0);
	buf_add(&cur, "", 0);
	while (*p != '\0') {
		c = (unsigned char)*p;
		switch (c) {
		case '|':
			best->len = cur.len = 0;
			goto out;
		case '\\':
			/* \. is a dot, as search_compile escapes a plain
			 * query; \w, \<, \` and the like are GNU operators,
			 * and \1 a back-reference */
			c = (unsigned char)p[1];
			if (c != '\0' && strchr(ERE_SPECIAL, c) != NULL) {
				if (depth == 0)
					buf_addc(&cur, (char)c);
			} else
				run_end(&cur, best);
			p += c != '\0' ? 2 : 1;
			continue;
		case '[':
			run_end(&cur, best);
			p = bracket_end(p);
			continue;
		case '(':
			depth++;
			run_end(&cur, best);
			break;
		case ')':
			if (depth > 0)
				depth--;
			run_end(&cur, best);
			break;
		case '*':
		case '?':
		case '{':
			/* the character before may be missing: not in the run */
			if (cur.len > 0)
				cur.len--;
			run_end(&cur, best);
			if (c == '{') {
				while (*p != '\0' && *p != '}')
					p++;
				if (*p == '\0')
					goto out;
			}
			break;
		case '+':	/* the character before is there, once or more */
		case '.':
		case '^':
		case '$':
			run_end(&cur, best);
			break;
		default:
			if (c >= 0x80 || depth > 0)
				run_end(&cur, best);
			else
				buf_addc(&cur, (char)c);
		}
		p++;
	}
out:
	run_end(&cur, best);
	buf_free(&cur);
}

/*
 * The characters beyond ASCII that REG_ICASE may match with one of s's
 * letters. glibc compares characters by towupper() in a multibyte locale:
 * U+0131 dotless i matches i and U+017F long s matches s, while U+212A
 * Kelvin sign (whose towlower() is k) does not match k (t3010-search-prefilter.t
 * proves both). Every character with a case mapping lies below U+20000;
 * asking them all takes half a millisecond.
 * 0: the locale is not UTF-8, whose folding is not known here.
 */
static int
find_folds(struct search *s)
{
	unsigned long cp;
	wint_t u;

	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		return 0;
	for (cp = 0x80; cp < 0x20000; cp++) {
		if (cp >= 0xD800 && cp < 0xE000)
			continue;
		u = towupper((wint_t)cp);
		if (u >= 0x80 || memchr(s->q.lit, ascii_lower((unsigned char)u),
		    s->q.litlen) == NULL)
			continue;
		s->q.fold = xrealloc(s->q.fold, (s->q.nfold + 1) * sizeof(*s->q.fold));
		s->q.fold_of = xrealloc(s->q.fold_of, s->q.nfold + 1);
		s->q.fold_of[s->q.nfold] = (char)ascii_lower((unsigned char)u);
		utf8_put(s->q.fold[s->q.nfold++], cp);
	}
	return 1;
}

/* the position of lit's byte least likely in text, by English letter
 * frequencies: a rarer one stops the scan less often */
static size_t
rarest(const char *lit, size_t len)
{
	static const char common[] = " etaoinsrhldcumfpgwybvkxjqz";
	size_t i, best = 0;
	long rank, best_rank = -1;
	const char *at;

	for (i = 0; i < len; i++) {
		at = memchr(common, ascii_lower((unsigned char)lit[i]),
		    sizeof(common) - 1);
		rank = at != NULL ? (long)(at - common) : (long)sizeof(common);
		if (rank > best_rank) {
			best_rank = rank;
			best = i;
		}
	}
	return best;
}

/* the one test switch: CONVCTL_SEARCH_NO_PREFILTER=1, every conversation
 * parsed and matched by the C library's matcher alone, for
 * t3010-search-prefilter.t to compare the other executors with */
static int
prefilter_off(void)
{
	const char *off = getenv("CONVCTL_SEARCH_NO_PREFILTER");

	return off != NULL && strcmp(off, "1") == 0;
}

/* the text every match holds, for pattern, the expression as compiled:
 * none when only the matcher is to look (q.parsed) */
static void
prefilter_make(struct search *s, const char *pattern, int icase)
{
	struct buf run = { 0 };
	size_t i;

	if (s->q.parsed)
		return;
	required_run(pattern, &run);
	if (run.len == 0) {
		buf_free(&run);
		return;
	}
	s->q.icase = icase;
	s->q.litlen = run.len;
	s->q.lit = buf_detach(&run);
	for (i = 0; i < s->q.litlen; i++) {
		if (icase)
			s->q.lit[i] = (char)ascii_lower((unsigned char)s->q.lit[i]);
		if (strchr("\"\\/", s->q.lit[i]) != NULL ||
		    (unsigned char)s->q.lit[i] < 0x20)
			s->q.any_escape = 1;
	}
	s->q.anchor = rarest(s->q.lit, s->q.litlen);
	if (icase && !find_folds(s)) {
		free(s->q.lit);
		s->q.lit = NULL;
		s->q.litlen = 0;
	}
}

/*
 * A plain query to be matched as the matcher would, without it: in a
 * UTF-8 locale (glibc compares characters, by towupper() when case is
 * ignored: U+017F long s matches s), of valid UTF-8, and not when the
 * prefilter is off (CONVCTL_SEARCH_NO_PREFILTER=1: the matcher answers
 * everything, for t3010-search-prefilter.t to compare with).
 */
static void
plain_make(struct search *s, const char *query, int icase)
{
	const unsigned char *p = (const unsigned char *)query, *end;
	size_t n = strlen(query), i, j;

	if (s->q.parsed || strcmp(nl_langinfo(CODESET), "UTF-8") != 0 ||
	    utf8_invalid_at(query, n) >= 0)
		return;
	end = p + n;
	s->wq = xmalloc(n * sizeof(*s->wq));
	while (p < end)
		s->wq[s->wm++] = char_key(char_next(&p, end), icase);
	s->kmp = xmalloc(s->wm * sizeof(*s->kmp));
	s->kmp[0] = 0;
	for (i = 1, j = 0; i < s->wm; i++) {
		while (j > 0 && s->wq[i] != s->wq[j])
			j = s->kmp[j - 1];
		if (s->wq[i] == s->wq[j])
			j++;
		s->kmp[i] = j;
	}
	s->plain = 1;
	s->q.icase = icase;
}

/* pattern compiled into s->re; for errors, query as the user wrote it */
static int
re_compile(struct search *s, const char *pattern, const char *query,
    int flags, struct error *e)
{
	char msg[256];
	int rc;

	if ((rc = regcomp(&s->re, pattern, flags)) != 0) {
		regerror(rc, &s->re, msg, sizeof(msg));
		return error_set(e, "invalid regular expression '%s': %s", query,
		    msg);
	}
	s->compiled = 1;
	return 0;
}

int
search_compile(struct search **out, const char *query, int regex,
    int match_case, struct error *e)
{
	struct search *s;
	struct buf pat = { 0 };
	size_t chars;
	const char *p;
	int flags = REG_EXTENDED;

	*out = NULL;
	if (*query == '\0')
		return error_set(e, "empty query");
	if ((chars = utf8_count(query, strlen(query))) > SEARCH_QUERY_MAX_CHARS)
		return error_set(e, "query is %zu characters long; at most %d "
		    "are taken", chars, SEARCH_QUERY_MAX_CHARS);
	if (!regex)
		for (p = query; *p; p++) {
			if (strchr(ERE_SPECIAL, *p) != NULL)
				buf_addc(&pat, '\\');
			buf_addc(&pat, *p);
		}
	else
		buf_adds(&pat, query);
	if (!match_case)
		flags |= REG_ICASE;
	s = xmalloc(sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->q.parsed = prefilter_off();
	/* the prefilter reads an expression known to be well formed */
	if (regex && re_compile(s, pat.data, query, flags, e) < 0)
		goto fail;
	prefilter_make(s, pat.data, !match_case);
	/* plain ASCII text: the run every match holds is the whole query,
	 * found by find_all() with no more than memchr() */
	s->literal = !regex && s->q.litlen == strlen(query);
	if (!regex)
		plain_make(s, query, !match_case);
	if (!regex && !s->plain &&
	    re_compile(s, pat.data, query, flags, e) < 0)
		goto fail;
	buf_free(&pat);
	*out = s;
	return 0;
fail:
	buf_free(&pat);
	search_free(s);
	return -1;
}

void
search_free(struct search *s)
{
	if (s == NULL)
		return;
	if (s->compiled)
		regfree(&s->re);
	query_clear(&s->q);
	free(s->wq);
	free(s->kmp);
	free(s);
}
