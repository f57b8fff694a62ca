/*
 * fuzz_llm_reply.c - libFuzzer harness for what convctl makes of a model's
 * reply: the JSON reply reader llm_reply_text() (lib/summary/llm.c) on the raw body
 * for both APIs, summary_parse_reply() (lib/summary/model.c) on the text,
 * and the provider error extraction llm_error_message() and llm_redact() on
 * the body.
 *
 * Invariants: the reply reader gives text, or NULL and an error that names
 * the URL in one printable line (the fuzzer found jansson's error text
 * quoting a raw newline from the reply); a title and a summary, when found,
 * are one line, and valid UTF-8 when the reply was (a reply reaches the
 * parser from a JSON string, which jansson has checked); the error message
 * is never empty; a redacted body no longer holds the secret.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/convctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_line(const char *s, int valid)
{
	if (s == NULL)
		return;
	if (strchr(s, '\n') != NULL ||
	    (valid && utf8_invalid_at(s, strlen(s)) >= 0))
		abort();
}

/* one line, no control character: what every error must be */
static int
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static void
check_reply(enum llm_api api, const uint8_t *data, size_t size)
{
	static const char url[] = "http://fuzz.invalid/v1";
	struct error e = { .msg = { 0 } };
	char *text = (char *)data;	/* must be replaced */

	if (llm_reply_text(api, url, (const char *)data, size, &text, &e) == 0) {
		if (text == NULL)
			abort();
		free(text);
	} else if (text != NULL || strstr(e.msg, url) == NULL ||
	    !printable(e.msg))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char secret[] = "sk-FUZZ-canary-7d1e";
	struct buf b = { 0 };
	char *text, *title, *summary, *msg;
	int valid;

	check_reply(LLM_OPENAI, data, size);
	check_reply(LLM_ANTHROPIC, data, size);

	/* the reply text as a C string: everything up to a NUL */
	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	summary_parse_reply(text, &title, &summary);
	valid = utf8_invalid_at(text, strlen(text)) < 0;
	check_line(title, valid);
	check_line(summary, valid);
	free(title);
	free(summary);
	free(text);

	msg = llm_error_message((const char *)data, size);
	if (msg == NULL || msg[0] == '\0')
		abort();
	free(msg);

	buf_add(&b, (const char *)data, size);
	buf_adds(&b, secret);
	llm_redact(&b, secret);
	if (memmem(b.data, b.len, secret, sizeof(secret) - 1) != NULL)
		abort();
	buf_free(&b);
	return 0;
}
