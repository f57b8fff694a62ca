/*
 * tap.h - the unit tests' few helpers: each check prints a TAP line.
 *   ok(cond, "name"), is_int(got, want, "name"), is_str(got, want, "name"),
 *   then return done();
 */
#ifndef CONVCTL_TAP_H
#define CONVCTL_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int
tap_ok(int cond, const char *name, const char *file, int line)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++tap_n, name);
	if (!cond) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return cond;
}

#define ok(cond, name) tap_ok((cond), (name), __FILE__, __LINE__)
#define is_int(got, want, name) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!ok(g_ == w_, name))					\
		printf("#   got %lld, want %lld\n", g_, w_);		\
} while (0)
#define is_str(got, want, name) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!ok(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_, name))	\
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",	\
		    w_ ? w_ : "(null)");				\
} while (0)

static int
done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
