#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convctl.h"

/* fmt into e, then ": " and strerror(*err) unless err is NULL; e may be NULL */
static int
vset(struct error *e, const int *err, const char *fmt, va_list ap)
{
	size_t n;

	if (e == NULL)
		return -1;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	if (err != NULL) {
		n = strlen(e->msg);
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(*err));
	}
	return -1;
}

int
error_set(struct error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(e, NULL, fmt, ap);
	va_end(ap);
	return -1;
}

int
error_errno(struct error *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vset(e, &saved, fmt, ap);
	va_end(ap);
	errno = saved;
	return -1;
}
