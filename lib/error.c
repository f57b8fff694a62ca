#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convctl.h"

int
error_set(struct error *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int
error_errno(struct error *e, const char *fmt, ...)
{
	int saved = errno;
	size_t n;
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(saved));
	errno = saved;
	return -1;
}
