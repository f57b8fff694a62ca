/*
 * time.c - ISO 8601 times and durations to and from milliseconds since 1970,
 * and the clock (or CONVCTL_NOW); knows nothing of conversations or the store.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base.h"

/* days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's method) */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void
civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* exactly n digits at *p */
static int
digits(const char **p, int n, int *out)
{
	int v = 0;

	while (n-- > 0) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (*(*p)++ - '0');
	}
	*out = v;
	return 0;
}

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* YYYY-MM-DD, a day that exists: days since 1970-01-01 */
static int
parse_date(const char **p, int64_t *days)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d;

	if (digits(p, 4, &y) || *(*p)++ != '-' || digits(p, 2, &mo) ||
	    *(*p)++ != '-' || digits(p, 2, &d))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] + (mo == 2 && leap(y)))
		return -1;
	*days = days_from_civil(y, (unsigned)mo, (unsigned)d);
	return 0;
}

/* .fff…: milliseconds; finer digits are dropped */
static int
parse_fraction(const char **p, int *ms)
{
	int scale = 100;

	*ms = 0;
	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++) {
		*ms += (**p - '0') * scale;
		scale /= 10;
	}
	return 0;
}

/* HH:MM[:SS[.fff…]]: milliseconds since midnight; a leap second is held
 * at :59 */
static int
parse_clock(const char **p, int64_t *ms)
{
	int h, mi, sec = 0, frac = 0;

	if (digits(p, 2, &h) || *(*p)++ != ':' || digits(p, 2, &mi))
		return -1;
	if (**p == ':') {
		(*p)++;
		if (digits(p, 2, &sec))
			return -1;
		if (**p == '.' || **p == ',') {
			(*p)++;
			if (parse_fraction(p, &frac) < 0)
				return -1;
		}
	}
	if (h > 23 || mi > 59 || sec > 60)
		return -1;
	if (sec == 60)
		sec = 59;
	*ms = ((int64_t)h * 60 + mi) * 60000 + (int64_t)sec * 1000 + frac;
	return 0;
}

/* nothing or Z: UTC; ±HH[:]MM: milliseconds ahead of UTC */
static int
parse_zone(const char **p, int64_t *ms)
{
	int oh, om, sign;

	*ms = 0;
	if (**p == 'Z' || **p == 'z') {
		(*p)++;
		return 0;
	}
	if (**p != '+' && **p != '-')
		return 0;
	sign = *(*p)++ == '-' ? -1 : 1;
	if (digits(p, 2, &oh))
		return -1;
	if (**p == ':')
		(*p)++;
	if (digits(p, 2, &om) || oh > 23 || om > 59)
		return -1;
	*ms = (int64_t)sign * (oh * 60 + om) * 60000;
	return 0;
}

int
ts_parse(const char *s, int64_t *ms)
{
	const char *p = s;
	int64_t days, clock = 0, zone = 0, t;

	if (parse_date(&p, &days) < 0)
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (parse_clock(&p, &clock) < 0 || parse_zone(&p, &zone) < 0)
			return -1;
	}
	if (*p != '\0')
		return -1;
	t = days * 86400000 + clock - zone;
	/* negative times would read as "not ended" (-1) and as "no limit":
	 * a store written with one would be refused when read back */
	if (t < 0)
		return -1;
	*ms = t;
	return 0;
}

void
ts_format(int64_t ms, char out[TS_LEN])
{
	int64_t days = ms / 86400000, rem = ms % 86400000;
	char wide[64];
	unsigned m, d;
	int y, n;

	if (rem < 0) {
		rem += 86400000;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999) {	/* outside what the format can say */
		memcpy(out, y < 0 ? "0000-01-01T00:00:00.000Z" :
		    "9999-12-31T23:59:59.999Z", TS_LEN);
		return;
	}
	/* a roomy buffer: the compiler cannot see that every field fits; that
	 * they do (y, m, d and rem are in range here) is checked, not assumed */
	n = snprintf(wide, sizeof(wide), "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
	    y, m, d, (int)(rem / 3600000), (int)(rem / 60000 % 60),
	    (int)(rem / 1000 % 60), (int)(rem % 1000));
	if (n != (int)TS_LEN - 1)
		abort();
	memcpy(out, wide, TS_LEN);
}

int
ts_now(int64_t *ms, struct error *e)
{
	const char *env = getenv("CONVCTL_NOW");
	struct timespec ts;

	if (env != NULL && *env != '\0') {
		if (ts_parse(env, ms) < 0)
			return error_set(e, "CONVCTL_NOW is not an ISO 8601 time: '%s'", env);
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	*ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return 0;
}

int
duration_parse(const char *s, int64_t *ms)
{
	char *end;
	double v;
	int64_t unit;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtod(s, &end);
	switch (*end) {
	case 's': unit = 1000; break;
	case 'm': unit = 60000; break;
	case 'h': unit = 3600000; break;
	case '\0':
	case 'd': unit = 86400000; break;
	case 'w': unit = 7 * 86400000LL; break;
	default: return -1;
	}
	if (*end != '\0' && end[1] != '\0')
		return -1;
	if (v * (double)unit > 9e15)
		return -1;
	*ms = (int64_t)(v * (double)unit);
	return 0;
}

void
duration_format(int64_t ms, char out[DURATION_LEN])
{
	static const struct { int64_t ms; char unit; } units[] = {
		{ 86400000, 'd' }, { 3600000, 'h' }, { 60000, 'm' }, { 1000, 's' },
	};
	size_t i, len = 0;
	int shown = 0, w;
	int64_t n;

	if (ms < 1000) {
		/* at most "999ms" */
		w = snprintf(out, DURATION_LEN, "%lldms",
		    (long long)(ms < 0 ? 0 : ms));
		if (w < 0 || (size_t)w >= DURATION_LEN)
			abort();	/* DURATION_LEN is wrong: a bug */
		return;
	}
	out[0] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]) && shown < 2; i++) {
		n = ms / units[i].ms;
		ms %= units[i].ms;
		if (n == 0) {
			if (shown)	/* 1h, not 1h0m: the next unit is too small */
				break;
			continue;
		}
		w = snprintf(out + len, DURATION_LEN - len, "%lld%c",
		    (long long)n, units[i].unit);
		if (w < 0 || (size_t)w >= DURATION_LEN - len)
			abort();	/* DURATION_LEN is wrong: a bug */
		len += (size_t)w;
		shown++;
	}
}
