/*
 * fuzz_settings.c - libFuzzer harness for the config file and setting values.
 *
 * The input is written as the config file (CONVCTL_CONFIG names it) and
 * loaded; every setting is then read as a number the way commands read them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/convctl.h"

static char path[96];

static void
cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings s;
	struct error e;
	long l;
	double d;
	int fd, i;

	if (path[0] == '\0') {
		snprintf(path, sizeof(path), "%s/fuzz-config.XXXXXX",
		    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if ((fd = mkstemp(path)) < 0)
			abort();
		close(fd);
		atexit(cleanup);
		setenv("CONVCTL_CONFIG", path, 1);
		for (i = 0; i < SET_COUNT; i++)
			unsetenv(setting_env((enum setting)i));
		unsetenv("OPENAI_API_KEY");
	}
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
	if (settings_load(&s, &e) == 0) {
		for (i = 0; i < SET_COUNT; i++) {
			settings_long(&s, (enum setting)i, 0, 100000000, &l, &e);
			settings_double(&s, (enum setting)i, 0, 86400, &d, &e);
		}
	} else if (e.msg[0] == '\0')
		abort();
	settings_free(&s);
	return 0;
}
