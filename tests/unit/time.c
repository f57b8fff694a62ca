/*
 * time.c - ts_parse, ts_format and duration_parse.
 */
#include <stdint.h>
#include <stdlib.h>

#include "convctl.h"
#include "tap.h"

/* parses s and formats it back: it must come back as want */
static void
round_trip(const char *s, const char *want)
{
	char out[TS_LEN], name[128];
	int64_t ms = 0;
	int rc = ts_parse(s, &ms);

	snprintf(name, sizeof(name), "'%s' parses", s);
	is_int(rc, 0, name);
	ts_format(ms, out);
	snprintf(name, sizeof(name), "'%s' formats as %s", s, want);
	is_str(out, want, name);
}

static void
parses_as(const char *s, int64_t want)
{
	char name[128];
	int64_t ms = -12345;

	snprintf(name, sizeof(name), "'%s' parses", s);
	is_int(ts_parse(s, &ms), 0, name);
	snprintf(name, sizeof(name), "'%s' is %lld ms", s, (long long)want);
	is_int(ms, want, name);
}

static void
refused(const char *s)
{
	char name[128];
	int64_t ms = 777;

	snprintf(name, sizeof(name), "'%s' is refused", s);
	is_int(ts_parse(s, &ms), -1, name);
	snprintf(name, sizeof(name), "'%s' leaves the result alone", s);
	is_int(ms, 777, name);
}

static void
duration(const char *s, int64_t want)
{
	char name[128];
	int64_t ms = -1;
	int rc = duration_parse(s, &ms);

	snprintf(name, sizeof(name), "duration '%s'", s);
	if (want < 0)
		is_int(rc, -1, name);
	else {
		is_int(rc, 0, name);
		is_int(ms, want, name);
	}
}

int
main(void)
{
	char out[TS_LEN];
	int64_t ms, back, v;
	int bad = 0;

	/* the epoch and SmartHole's own example */
	parses_as("1970-01-01T00:00:00Z", 0);
	parses_as("1970-01-01T00:00:00.000Z", 0);
	parses_as("2026-02-04T17:26:40.000Z", 1770226000000LL);
	/* before the epoch is refused: a negative time would read as "no time" */
	refused("1969-12-31T23:59:59.999Z");
	refused("1970-01-01T00:30:00+01:00");

	/* round trips, formats always with milliseconds and Z */
	round_trip("2026-02-04T17:26:40.000Z", "2026-02-04T17:26:40.000Z");
	round_trip("2026-02-04T17:26:40Z", "2026-02-04T17:26:40.000Z");
	round_trip("2026-02-04T17:26", "2026-02-04T17:26:00.000Z");
	round_trip("2026-02-04", "2026-02-04T00:00:00.000Z");
	round_trip("2026-02-04 17:26:40.5", "2026-02-04T17:26:40.500Z");
	round_trip("2026-02-04t17:26:40,25z", "2026-02-04T17:26:40.250Z");
	round_trip("2026-02-04T17:26:40.123456789Z", "2026-02-04T17:26:40.123Z");
	round_trip("1970-01-01T00:00:00.001Z", "1970-01-01T00:00:00.001Z");
	round_trip("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z");
	/* a leap second is held at :59 */
	round_trip("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.000Z");

	/* leap years: every 4th, not every 100th, but every 400th */
	round_trip("2024-02-29T12:00:00Z", "2024-02-29T12:00:00.000Z");
	round_trip("2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000Z");
	round_trip("2400-02-29T00:00:00Z", "2400-02-29T00:00:00.000Z");
	refused("2023-02-29T00:00:00Z");
	refused("1900-02-29T00:00:00Z");
	refused("2100-02-29");
	parses_as("2024-03-01T00:00:00Z", 1709251200000LL);
	parses_as("2024-02-28T00:00:00Z", 1709251200000LL - 2 * 86400000LL);
	round_trip("2024-12-31T23:59:59.999Z", "2024-12-31T23:59:59.999Z");
	parses_as("2025-01-01T00:00:00Z", 1735689600000LL);
	parses_as("2024-01-01T00:00:00Z", 1735689600000LL - 366 * 86400000LL);

	/* offsets move the time to UTC */
	round_trip("2026-02-04T19:26:40+02:00", "2026-02-04T17:26:40.000Z");
	round_trip("2026-02-04T19:26:40.000+0200", "2026-02-04T17:26:40.000Z");
	round_trip("2026-02-04T11:56:40-05:30", "2026-02-04T17:26:40.000Z");
	round_trip("2026-01-01T01:00:00+01:00", "2026-01-01T00:00:00.000Z");
	round_trip("2025-12-31T23:30:00-00:30", "2026-01-01T00:00:00.000Z");
	round_trip("2024-03-01T00:30:00+01:00", "2024-02-29T23:30:00.000Z");

	/* every millisecond count formats and parses back to itself */
	for (v = 0; v < 253402300800000LL; v += 7919LL * 86400000 + 12345) {
		ts_format(v, out);
		if (ts_parse(out, &back) != 0 || back != v)
			bad++;
	}
	is_int(bad, 0, "format then parse gives the same time across years 1970-9999");

	/* bad inputs */
	refused("");
	refused("2026");
	refused("2026-02");
	refused("26-02-04");
	refused("2026-2-04");
	refused("2026-02-4");
	refused("2026/02/04");
	refused("2026-13-01");
	refused("2026-00-10");
	refused("2026-01-00");
	refused("2026-01-32");
	refused("2026-04-31");
	refused("2026-01-01T24:00:00Z");
	refused("2026-01-01T12:60:00Z");
	refused("2026-01-01T12:00:61Z");
	refused("2026-01-01T1:00");
	refused("2026-01-01T12");
	refused("2026-01-01T12:00:00.Z");
	refused("2026-01-01T12:00:00Zjunk");
	refused("2026-01-01T12:00:00Z ");
	refused(" 2026-01-01");
	refused("2026-01-01T12:00:00+25:00");
	refused("2026-01-01T12:00:00+02:60");
	refused("2026-01-01T12:00:00+2:00");
	refused("2026-01-01T12:00:00+02");
	refused("yesterday");
	refused("2026-02-04T17:26:40.000ZZ");

	/* the clock: CONVCTL_NOW replaces it */
	setenv("CONVCTL_NOW", "2026-02-04T17:26:40Z", 1);
	{
		struct error e;

		is_int(ts_now(&ms, &e), 0, "ts_now reads CONVCTL_NOW");
		is_int(ms, 1770226000000LL, "ts_now gives CONVCTL_NOW's time");
		setenv("CONVCTL_NOW", "noon", 1);
		is_int(ts_now(&ms, &e), -1, "a bad CONVCTL_NOW is an error");
		is_str(e.msg, "CONVCTL_NOW is not an ISO 8601 time: 'noon'",
		    "which names it");
		unsetenv("CONVCTL_NOW");
		is_int(ts_now(&ms, &e), 0, "without CONVCTL_NOW, the clock");
		ok(ms > 1700000000000LL, "and the clock is after 2023");
	}

	duration("90s", 90000);
	duration("45m", 45 * 60000);
	duration("12h", 12 * 3600000LL);
	duration("30d", 30 * 86400000LL);
	duration("2w", 14 * 86400000LL);
	duration("7", 7 * 86400000LL);
	duration("1.5h", 5400000);
	duration("0s", 0);
	duration("", -1);
	duration("d", -1);
	duration("-1d", -1);
	duration("3y", -1);
	duration("1dd", -1);
	duration("1 d", -1);
	duration("99999999999999w", -1);

	{
		static const struct { int64_t ms; const char *s; } f[] = {
			{ 0, "0ms" }, { 250, "250ms" }, { 1000, "1s" },
			{ 301000, "5m1s" }, { 3600000, "1h" }, { 3900000, "1h5m" },
			{ 3600000 + 59999, "1h" }, { 90000000, "1d1h" },
			{ 86400000 + 60000, "1d" }, { INT64_MAX, "106751991167d7h" },
		};
		char text[DURATION_LEN];
		size_t i;

		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			duration_format(f[i].ms, text);
			is_str(text, f[i].s, "duration_format: its two largest units");
		}
	}
	return done();
}
