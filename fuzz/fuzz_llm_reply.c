/*
 * fuzz_llm_reply.c - libFuzzer harness for what convctl makes of a model's
 * reply: summary_parse_reply() (lib/summary.c) on the text, and the provider
 * error extraction llm_error_message() and llm_redact() (lib/llm.c) on the
 * raw body. The JSON reply reader, reply_text(), is static in lib/llm.c and
 * is reached only through llm_chat() over HTTP, so it is not fuzzed here.
 *
 * Invariants: a title and a summary, when found, are one line, and valid
 * UTF-8 when the reply was (a reply reaches the parser from a JSON string,
 * which jansson has checked); the error message is never empty; a redacted
 * body no longer holds the secret.
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char secret[] = "sk-FUZZ-canary-7d1e";
	struct buf b = { 0 };
	char *text, *title, *summary, *msg;
	int valid;

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
