/*
 * spool.c - convctl run's spool knows, as the answer comes in parts, how
 * long chomp() will leave it: for every text of newlines, "\r" and a letter
 * up to 8 bytes, added in two parts cut at every place, and in bytes; and
 * a write that fails is said at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "convctl.h"
#include "tap.h"

/* the text number k of n bytes over "a\r\n" */
static void
text_of(unsigned k, size_t n, char *s)
{
	static const char abc[] = "a\r\n";
	size_t i;

	for (i = 0; i < n; i++, k /= 3)
		s[i] = abc[k % 3];
}

int
main(void)
{
	char s[8];
	size_t n, cut, i, bad = 0, tried = 0;
	unsigned k, total;
	struct spool sp;

	for (n = 0; n <= sizeof(s); n++) {
		for (total = 1, i = 0; i < n; i++)
			total *= 3;
		for (k = 0; k < total; k++) {
			text_of(k, n, s);
			for (cut = 0; cut <= n + 1; cut++) {
				memset(&sp, 0, sizeof(sp));
				sp.fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
				if (cut <= n) {
					spool_add(&sp, s, cut);
					spool_add(&sp, s + cut, n - cut);
				} else	/* a byte at a time */
					for (i = 0; i < n; i++)
						spool_add(&sp, s + i, 1);
				tried++;
				if (spool_chomped(&sp) != chomp(s, n) && !bad++)
					printf("#   text %u of %zu bytes, cut at %zu: "
					    "%zu, chomp says %zu\n", k, n, cut,
					    spool_chomped(&sp), chomp(s, n));
				spool_drop(&sp);
			}
		}
	}
	printf("# %zu texts and cuts\n", tried);
	ok(bad == 0, "the spool's length after chomp is chomp()'s");
	memset(&sp, 0, sizeof(sp));
	sp.fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	spool_add(&sp, "say \"hi\"\n", 9);
	is_int(sp.esc_len, 12, "its escaped length counts each escape");
	is_int(spool_end(&sp), 0, "and it is all written");
	spool_drop(&sp);
	/* a full disk: said at the end, with its errno, not lost */
	memset(&sp, 0, sizeof(sp));
	sp.fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	for (i = 0; i < 1000; i++)
		spool_add(&sp, "one line of an answer that fills the disk\n", 42);
	errno = 0;
	ok(spool_end(&sp) < 0 && errno == ENOSPC,
	    "a write that failed: spool_end says so, with ENOSPC");
	spool_drop(&sp);
	return done();
}
