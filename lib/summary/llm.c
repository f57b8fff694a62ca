/*
 * llm.c - one chat request to an LLM over HTTP (libcurl), done carefully.
 *
 * Two APIs: OpenAI's chat completions, which OpenAI, Ollama, llama.cpp's
 * server, vLLM, LM Studio and OpenRouter all speak, and Anthropic's Messages.
 * A request is retried on 429, 408, 5xx and transport hiccups such as a
 * timeout, with exponential backoff and jitter or the server's Retry-After;
 * never on 400, 401, 403 or 404, which another try cannot mend. Every failure
 * becomes one line: the HTTP status and the provider's own message.
 *
 * The API key travels only in a request header. It is never logged: the
 * --verbose lines are written from the header names, not the header values,
 * and any error text is scrubbed of it, in case a server echoes it back.
 *
 * TLS verification is always on; libcurl's proxy variables (http_proxy,
 * https_proxy, no_proxy, all_proxy) are honoured as libcurl honours them.
 *
 * libcurl is opened with dlopen by the first request, not linked: loading it
 * and the thirty libraries it needs (TLS, Kerberos, LDAP…) costs a few ms at
 * every start, and only a summary needs HTTP. curl.h still gives the types
 * and constants; the functions are called through struct curl_api.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "../internal.h"

#define MAX_REPLY (8 * 1024 * 1024)	/* a summary reply is a few hundred bytes */
#define BACKOFF_BASE 1.0		/* seconds before the first retry, doubled after */
#define MAX_WAIT 60.0			/* the longest Retry-After we sit through */
#define ANTHROPIC_VERSION "2023-06-01"
#define FIRST_MAX_TOKENS 512	/* the Messages API requires a bound */
#define RETRY_MAX_TOKENS 4096	/* the one retry of a reply cut at the bound */

#define LIBCURL_SONAME "libcurl.so.4"	/* the ABI of every libcurl since 7.16 */

/* the libcurl functions llm.c calls, as curl.h declares them */
struct curl_api {
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	void (*easy_cleanup)(CURL *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
};

static void *libcurl;		/* dlopen's handle; NULL: not loaded yet */
static struct curl_api curl;	/* filled in by curl_start() */
static int curl_ready;		/* curl.global_init done */
static CURL *handle;	/* kept between requests: its connections are reused */

struct reply {
	struct buf body;
	int too_big;
};

static size_t
on_data(char *p, size_t size, size_t n, void *arg)
{
	struct reply *r = arg;

	if (r->body.len + size * n > MAX_REPLY) {
		r->too_big = 1;
		return 0;	/* makes libcurl stop with CURLE_WRITE_ERROR */
	}
	buf_add(&r->body, p, size * n);
	return size * n;
}

static void
say(const struct llm_config *cf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* a line for --verbose; the caller decides where it goes */
static void
say(const struct llm_config *cf, const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	if (cf->log == NULL)
		return;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	llm_redact(&b, cf->key);
	cf->log(cf->log_arg, b.data);
	buf_free(&b);
}

void
llm_redact(struct buf *b, const char *secret)
{
	static const char mark[] = "[redacted]";
	size_t slen, i;
	struct buf out = { 0 };
	char *hit;

	if (secret == NULL || (slen = strlen(secret)) == 0 || b->data == NULL ||
	    memmem(b->data, b->len, secret, slen) == NULL)
		return;
	for (i = 0; i < b->len;) {
		hit = memmem(b->data + i, b->len - i, secret, slen);
		if (hit == NULL) {
			buf_add(&out, b->data + i, b->len - i);
			break;
		}
		buf_add(&out, b->data + i, (size_t)(hit - (b->data + i)));
		buf_adds(&out, mark);
		i = (size_t)(hit - b->data) + slen;
	}
	buf_free(b);
	*b = out;
	if (b->data == NULL)
		buf_adds(b, "");
}

/*
 * s as one printable line of at most max bytes: what error_printable_n()
 * makes of it (control characters and bytes that are not UTF-8 as escapes,
 * never dropped), cut before an escape or a character, never inside one
 */
static void
one_line(struct buf *out, const char *s, size_t len, size_t max)
{
	char *line = xmalloc(4 * len + 1);	/* \xHH for every byte at most */
	size_t n = error_printable_n(line, 4 * len + 1, s, len);

	if (n > max) {
		n = error_printable_n(line, max + 1, s, len);
		buf_add(out, line, n);
		buf_adds(out, "...");
	} else
		buf_add(out, line, n);
	free(line);
}

/*
 * The provider's own words in an error reply: OpenAI, llama.cpp and vLLM say
 * {"error": {"message": …}}, Anthropic {"type": "error", "error": {"type": …,
 * "message": …}}, Ollama {"error": "…"}, others {"message"|"detail": "…"};
 * anything else is shown as its first line of text.
 */
char *
llm_error_message(const char *body, size_t len)
{
	struct buf out = { 0 };
	json_t *root, *err, *v = NULL;
	const char *p, *nl;

	root = json_loadb(body, len, 0, NULL);
	if (json_is_object(root)) {
		err = json_object_get(root, "error");
		if (json_is_string(err))
			v = err;
		else if (json_is_object(err)) {
			v = json_object_get(err, "message");
			if (!json_is_string(v))
				v = json_object_get(err, "type");
			if (!json_is_string(v))
				v = json_object_get(err, "code");
		}
		if (!json_is_string(v))
			v = json_object_get(root, "message");
		if (!json_is_string(v))
			v = json_object_get(root, "detail");
	}
	if (json_is_string(v))
		one_line(&out, json_string_value(v), json_string_length(v), 300);
	else {
		p = body;
		while (p < body + len && (*p == '\n' || *p == '\r' || *p == ' '))
			p++;
		nl = memchr(p, '\n', (size_t)(body + len - p));
		if (nl == NULL)
			nl = body + len;
		if (nl > p && nl[-1] == '\r')	/* a CRLF line end */
			nl--;
		one_line(&out, p, (size_t)(nl - p), 200);
	}
	json_decref(root);
	if (out.len == 0)
		buf_adds(&out, "no error message in the reply");
	return buf_detach(&out);
}

/*
 * max_tokens: the bound on the reply, which Anthropic requires; OpenAI's is
 * sent only when a reply came back cut (0: none, the server's own)
 */
static char *
request_body(const struct llm_config *cf, const char *system, const char *user,
    int max_tokens)
{
	struct buf b = { 0 };
	json_t *o;

	if (cf->api == LLM_ANTHROPIC)
		o = json_pack("{s:s, s:i, s:s, s:[{s:s, s:s}]}", "model", cf->model,
		    "max_tokens", max_tokens, "system", system,
		    "messages", "role", "user", "content", user);
	else
		o = json_pack("{s:s, s:[{s:s, s:s}, {s:s, s:s}], s:b}", "model",
		    cf->model, "messages", "role", "system", "content", system,
		    "role", "user", "content", user, "stream", 0);
	if (cf->api == LLM_OPENAI && max_tokens > 0)
		json_object_set_new(o, "max_tokens", json_integer(max_tokens));
	json_dump_buf(&b, o);
	json_decref(o);
	return buf_detach(&b);
}

/*
 * Why the model stopped, when it did not finish: OpenAI's
 * choices[0].finish_reason, Anthropic's stop_reason. -2: the reply was cut
 * at the token bound ("length", "max_tokens"); -1: a refusal ("refusal",
 * "content_filter"), named as the API named it; 0: it finished.
 */
static int
stop_reason(enum llm_api api, const char *url, json_t *root, struct error *e)
{
	json_t *choice = json_array_get(json_object_get(root, "choices"), 0);
	const char *field = api == LLM_ANTHROPIC ? "stop_reason" :
	    "finish_reason";
	const char *r = json_str(api == LLM_ANTHROPIC ? root : choice, field,
	    NULL);

	if (r == NULL)
		return 0;
	if (strcmp(r, "length") == 0 || strcmp(r, "max_tokens") == 0) {
		error_set(e, "the reply from '%s' was cut at the token limit "
		    "(%s '%s')", url, field, r);
		return -2;
	}
	if (strcmp(r, "refusal") == 0)
		return error_set(e, "the model at '%s' refused (%s '%s')", url,
		    field, r);
	if (strcmp(r, "content_filter") == 0)
		return error_set(e, "the model at '%s' refused: its content "
		    "filter withheld the reply (%s '%s')", url, field, r);
	return 0;
}

/*
 * The model's text in a successful reply: OpenAI's choices[0].message.content,
 * or Anthropic's "text" blocks of "content" joined by newlines. -2, the error
 * saying so, for a reply cut at the token limit.
 */
int
llm_reply_text(enum llm_api api, const char *url, const char *body, size_t len,
    char **text, struct error *e)
{
	json_error_t je;
	json_t *root, *v, *blk, *msg;
	struct buf out = { 0 }, why = { 0 };
	const char *type, *refusal;
	size_t i, rlen;
	int rc = -1, line, column;

	*text = NULL;
	root = json_loadb(body != NULL ? body : "", len, 0, &je);
	if (root == NULL) {
		json_error_place(body != NULL ? body : "", len, &je, &line,
		    &column);
		error_set(e, "malformed reply from '%s': not JSON (line %d, "
		    "column %d: %s)", url, line, column, je.text);
		return -1;
	}
	if ((rc = stop_reason(api, url, root, e)) < 0)
		goto out;
	rc = -1;
	if (api == LLM_ANTHROPIC) {
		v = json_object_get(root, "content");
		if (!json_is_array(v)) {
			error_set(e, "malformed reply from '%s': no 'content' array",
			    url);
			goto out;
		}
		json_array_foreach(v, i, blk) {
			type = json_str(blk, "type", NULL);
			if (type != NULL && strcmp(type, "text") == 0 &&
			    json_str(blk, "text", NULL) != NULL) {
				if (out.len > 0)
					buf_addc(&out, '\n');
				buf_adds(&out, json_str(blk, "text", NULL));
			}
		}
		if (out.data == NULL) {
			error_set(e, "malformed reply from '%s': no text in "
			    "'content'", url);
			goto out;
		}
	} else {
		msg = json_object_get(json_array_get(json_object_get(root,
		    "choices"), 0), "message");
		v = json_object_get(msg, "content");
		if (!json_is_string(v) && (refusal = json_str(msg, "refusal",
		    &rlen)) != NULL) {
			one_line(&why, refusal, rlen, 300);
			error_set(e, "the model at '%s' refused: %s", url,
			    why.data != NULL ? why.data : "");
			buf_free(&why);
			goto out;
		}
		if (!json_is_string(v)) {
			error_set(e, "malformed reply from '%s': no "
			    "'choices[0].message.content' string", url);
			goto out;
		}
		buf_add(&out, json_string_value(v), json_string_length(v));
	}
	*text = buf_detach(&out);
	rc = 0;
out:
	buf_free(&out);
	json_decref(root);
	return rc;
}

static double
jitter01(void)
{
	uint32_t r;

	if (os_random32(&r) < 0)
		r = (uint32_t)time(NULL) * 2654435761u;
	return r / 4294967296.0;
}

static void
nap(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * libcurl's words begin with a capital, ours do not; but its first word may
 * be a name ("SSL certificate problem", "OpenSSL SSL_read", "HTTP/2"), which
 * is quoted as libcurl wrote it: only ordinary words it starts with are
 * lowered.
 */
static void
lower_first_word(char *s)
{
	static const char *const words[] = {
		"Could", "Couldn't", "Failed", "Failure", "Operation",
		"Connection", "Connect", "Timeout", "Timed", "Recv", "Send",
		"Resolving", "Resolve", "Received", "Empty", "Unsupported",
		"Unknown", "Error", "Server", "Maximum", "The", "No",
	};
	size_t i, n = strcspn(s, " :,");

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0) {
			s[0] = (char)(s[0] - 'A' + 'a');
			return;
		}
}

static int
retryable_status(long status)
{
	return status == 408 || status == 429 || (status >= 500 && status <= 599);
}

static int
retryable_curl(CURLcode c)
{
	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_PARTIAL_FILE:
		return 1;
	default:
		return 0;
	}
}

/*
 * Loads libcurl the first time, then starts it (curl_global_init) if
 * llm_cleanup stopped it. Once loaded it stays until exit: the TLS libraries
 * it brought in may have left exit handlers behind.
 */
static int
curl_start(struct error *e)
{
	const char *missing = NULL;
	CURLcode c;

	if (curl_ready)
		return 0;
	if (libcurl == NULL) {
		if ((libcurl = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL)) ==
		    NULL)
			return error_set(e, "cannot load libcurl: %s", dlerror());
		/* POSIX lets dlsym's void * be converted to a function pointer */
#define CURL_FN(f) curl.f = dl_function(libcurl, "curl_" #f, &missing)
		CURL_FN(global_init);
		CURL_FN(global_cleanup);
		CURL_FN(easy_init);
		CURL_FN(easy_reset);
		CURL_FN(easy_setopt);
		CURL_FN(easy_perform);
		CURL_FN(easy_getinfo);
		CURL_FN(easy_strerror);
		CURL_FN(easy_cleanup);
		CURL_FN(slist_append);
		CURL_FN(slist_free_all);
#undef CURL_FN
		if (missing != NULL) {
			dlclose(libcurl);
			libcurl = NULL;
			return error_set(e, "cannot load libcurl: '%s' has no "
			    "function '%s'", LIBCURL_SONAME, missing);
		}
	}
	if ((c = curl.global_init(CURL_GLOBAL_DEFAULT)) != CURLE_OK)
		return error_set(e, "cannot start libcurl: %s",
		    curl.easy_strerror(c));
	curl_ready = 1;
	return 0;
}

/* sets up the handle for one attempt at url (shown: as messages show it) */
static int
setup(const struct llm_config *cf, const char *url, const char *shown,
    const char *body, struct curl_slist *headers, struct reply *r,
    char *errbuf, struct error *e)
{
	CURL *h = handle;
	CURLcode c = CURLE_OK;

	curl.easy_reset(h);
	/*
	 * Through a pointer, setopt escapes the type checks gcc applies to
	 * curl_easy_setopt: numbers must be long, sizes curl_off_t. An option
	 * the libcurl found at run time is too old for fails here, clearly.
	 */
#define SET(opt, val) if (c == CURLE_OK) c = curl.easy_setopt(h, opt, val)
	SET(CURLOPT_URL, url);
	SET(CURLOPT_POST, 1L);
	SET(CURLOPT_POSTFIELDS, body);
	SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	SET(CURLOPT_HTTPHEADER, headers);
	SET(CURLOPT_USERAGENT, "convctl/" CONVCTL_VERSION);
	SET(CURLOPT_WRITEFUNCTION, on_data);
	SET(CURLOPT_WRITEDATA, r);
	SET(CURLOPT_ERRORBUFFER, errbuf);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_CONNECTTIMEOUT_MS, (long)(cf->connect_timeout * 1000));
	SET(CURLOPT_TIMEOUT_MS, (long)(cf->timeout * 1000));
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	/* a redirect would carry the key to wherever it points: not followed */
	SET(CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
#else
	SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	if (cf->ca_bundle != NULL)
		SET(CURLOPT_CAINFO, cf->ca_bundle);
#undef SET
	if (c != CURLE_OK)
		return error_set(e, "cannot set up the request to '%s': %s",
		    shown, curl.easy_strerror(c));
	return 0;
}

static struct curl_slist *
make_headers(const struct llm_config *cf, int *failed)
{
	struct curl_slist *l = NULL, *n;
	struct buf b = { 0 };
	int bad = 0;

#define ADD(s) do { if ((n = curl.slist_append(l, (s))) == NULL) bad = 1; \
	else l = n; } while (0)
	ADD("Content-Type: application/json");
	ADD("Accept: application/json");
	if (cf->api == LLM_ANTHROPIC) {
		ADD("anthropic-version: " ANTHROPIC_VERSION);
		if (cf->key != NULL) {
			buf_addf(&b, "x-api-key: %s", cf->key);
			ADD(b.data);
		}
	} else if (cf->key != NULL) {
		buf_addf(&b, "Authorization: Bearer %s", cf->key);
		ADD(b.data);
	}
	/* no "Expect: 100-continue" pause on large bodies */
	ADD("Expect:");
#undef ADD
	if (b.data != NULL)
		os_wipe(b.data, b.len);
	buf_free(&b);
	*failed = bad;
	return l;
}

static void
log_request(const struct llm_config *cf, const char *url, const char *body)
{
	say(cf, "> POST %s", url);
	say(cf, "> Content-Type: application/json");
	if (cf->api == LLM_ANTHROPIC) {
		say(cf, "> anthropic-version: %s", ANTHROPIC_VERSION);
		if (cf->key != NULL)
			say(cf, "> x-api-key: [redacted]");
	} else if (cf->key != NULL)
		say(cf, "> Authorization: Bearer [redacted]");
	say(cf, "> %s", body);
}

/*
 * The chat endpoint under cf->base. Anthropic's SDKs take the base without
 * its /v1 and convctl's pages with it: a user copies either, so /v1 is
 * added when it is not there.
 */
static void
chat_url(struct buf *url, const struct llm_config *cf)
{
	buf_adds(url, cf->base);
	while (url->len > 0 && url->data[url->len - 1] == '/')
		url->data[--url->len] = '\0';
	if (cf->api == LLM_ANTHROPIC && (url->len < 3 ||
	    strcmp(url->data + url->len - 3, "/v1") != 0))
		buf_adds(url, "/v1");
	buf_adds(url, cf->api == LLM_ANTHROPIC ? "/messages" :
	    "/chat/completions");
}

/* what an attempt that got an HTTP reply leads to */
enum attempt {
	ATTEMPT_REPLY,		/* a 2xx: the answer is in its body */
	ATTEMPT_RETRY,		/* why says what failed; another try may mend it */
	ATTEMPT_FINAL,		/* why says what failed; no try will mend it */
};

/* reads the status (and any Retry-After) of the reply r from url */
static enum attempt
http_reply(const struct llm_config *cf, const char *url, const struct reply *r,
    struct buf *why, curl_off_t *after)
{
	long status = 0;
	char *msg;

	curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
#if LIBCURL_VERSION_NUM >= 0x074200
	curl.easy_getinfo(handle, CURLINFO_RETRY_AFTER, after);
#endif
	say(cf, "< HTTP %ld (%zu bytes)", status, r->body.len);
	if (r->body.len > 0)
		say(cf, "< %s", r->body.data);
	if (status >= 200 && status <= 299)
		return ATTEMPT_REPLY;
	msg = llm_error_message(r->body.data ? r->body.data : "", r->body.len);
	buf_addf(why, "HTTP %ld from '%s': %s", status, url, msg);
	/* OpenAI's "model_not_found", Anthropic's "model: NAME" */
	if (status == 404 && cf->model_hint != NULL && r->body.data != NULL &&
	    strcasestr(r->body.data, "model") != NULL)
		buf_addf(why, " (the model '%s' was asked; %s)", cf->model,
		    cf->model_hint);
	free(msg);
	return retryable_status(status) ? ATTEMPT_RETRY : ATTEMPT_FINAL;
}

/*
 * sleeps before attempt i + 1 of attempts: as long as the server's
 * Retry-After asks, else backs off; -1, with why saying so, when the server
 * asks for longer than MAX_WAIT
 */
static int
pause_before_retry(const struct llm_config *cf, long i, long attempts,
    curl_off_t after, struct buf *why)
{
	double wait;

	/* libcurl says 0 for no Retry-After (and "0" asks for no wait:
	 * backing off is the kinder reading of both) */
	if (after > 0) {
		wait = (double)after;
		if (wait > MAX_WAIT) {
			buf_addf(why, " (the server asks to wait %.0f seconds; "
			    "try again later)", wait);
			return -1;
		}
	} else {
		/* 1, 2, 4 seconds, each somewhere in its upper half */
		wait = BACKOFF_BASE * (double)(1L << (i - 1));
		wait = wait / 2 + wait / 2 * jitter01();
	}
	say(cf, "retrying in %.1f seconds (attempt %ld of %ld)", wait, i + 1,
	    attempts);
	nap(wait);
	return 0;
}

/*
 * One request to url, tried again on a failure another try may mend: 0 with
 * *text, -2 for a reply cut at the token limit, else -1; e says why, naming
 * the URL as shown (its password hidden, buf_add_url()).
 */
static int
exchange(const struct llm_config *cf, const char *url, const char *shown,
    const char *body, struct curl_slist *headers, char **text,
    struct error *e)
{
	char errbuf[CURL_ERROR_SIZE];
	struct buf why = { 0 };
	struct reply r = { { 0 }, 0 };
	long attempts = cf->retries + 1, i;
	curl_off_t after;
	enum attempt next;
	CURLcode c;
	int rc = -1;

	log_request(cf, shown, body);
	for (i = 1; i <= attempts; i++) {
		buf_free(&r.body);
		r.too_big = 0;
		errbuf[0] = '\0';
		why.len = 0;
		after = -1;
		if (setup(cf, url, shown, body, headers, &r, errbuf, e) < 0)
			goto out;
		c = curl.easy_perform(handle);
		if (c == CURLE_OK) {
			next = http_reply(cf, shown, &r, &why, &after);
			if (next == ATTEMPT_REPLY) {
				rc = llm_reply_text(cf->api, shown, r.body.data,
				    r.body.len, text, e);
				goto out;
			}
			if (next == ATTEMPT_FINAL)
				break;
		} else {
			if (r.too_big)
				buf_addf(&why, "reply from '%s' is larger than "
				    "%d bytes", shown, MAX_REPLY);
			else {
				lower_first_word(errbuf);
				buf_addf(&why, "request to '%s' failed: %s",
				    shown, *errbuf ? errbuf :
				    curl.easy_strerror(c));
			}
			say(cf, "< %s", why.data);
			if (!retryable_curl(c))
				break;
		}
		if (i == attempts ||
		    pause_before_retry(cf, i, attempts, after, &why) < 0)
			break;
	}
	if (i > 1)	/* the loop only ends by break: i attempts were made */
		buf_addf(&why, " (gave up after %ld attempts)", i);
	llm_redact(&why, cf->key);
	error_set(e, "%s", why.data);
out:
	buf_free(&r.body);
	buf_free(&why);
	return rc;
}

/*
 * A reply cut at the token limit is no summary: asked once more with a
 * larger limit; cut again, it is an error (the summary stays pending).
 */
int
llm_chat(const struct llm_config *cf, const char *system, const char *user,
    char **text, struct error *e)
{
	struct buf url = { 0 }, shown = { 0 };
	struct curl_slist *headers = NULL;
	char *body = NULL, first[sizeof(e->msg)];
	int rc = -1, bad;

	*text = NULL;
	if (curl_start(e) < 0)
		return -1;
	if (handle == NULL && (handle = curl.easy_init()) == NULL)
		return error_set(e, "cannot start libcurl: out of memory");
	chat_url(&url, cf);
	buf_add_url(&shown, url.data);
	headers = make_headers(cf, &bad);
	if (bad) {
		error_set(e, "cannot set up the request to '%s': out of memory",
		    shown.data);
		goto out;
	}
	body = request_body(cf, system, user,
	    cf->api == LLM_ANTHROPIC ? FIRST_MAX_TOKENS : 0);
	if ((rc = exchange(cf, url.data, shown.data, body, headers, text, e)) != -2)
		goto out;
	say(cf, "the reply was cut at the token limit: asking again with "
	    "max_tokens %d", RETRY_MAX_TOKENS);
	free(body);
	body = request_body(cf, system, user, RETRY_MAX_TOKENS);
	memcpy(first, e->msg, sizeof(first));
	if ((rc = exchange(cf, url.data, shown.data, body, headers, text, e)) == -2)
		error_set(e, "%s, and again when asked with max_tokens %d",
		    first, RETRY_MAX_TOKENS);
out:
	if (headers != NULL)
		curl.slist_free_all(headers);
	buf_free(&url);
	buf_free(&shown);
	free(body);
	return rc < 0 ? -1 : 0;
}

void
llm_cleanup(void)
{
	if (handle != NULL)
		curl.easy_cleanup(handle);
	handle = NULL;
	if (curl_ready)
		curl.global_cleanup();
	curl_ready = 0;
}
