/*
 * fuzz_settings.c - libFuzzer harness for the config file and setting values.
 *
 * The input is written as the config file (CONVCTL_CONFIG names it) and
 * loaded; every setting is then checked against its row of the settings
 * table (as a whole number, a number or a name, its bounds) the way commands
 * read them, and every computed default is asked for.
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
	const char *why;
	int fd, i;

	if (path[0] == '\0') {
		snprintf(path, sizeof(path), "%s/fuzz-config.XXXXXX",
		    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if ((fd = mkstemp(path)) < 0)
			abort();
		close(fd);
		atexit(cleanup);
		setenv("CONVCTL_CONFIG", path, 1);
		for (i = 0; i < SET_COUNT; i++) {
			unsetenv(setting_table[i].env);
			if (setting_table[i].env2 != NULL)
				unsetenv(setting_table[i].env2);
		}
	}
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
	if (settings_load(&s, &e) == 0) {
		for (i = 0; i < SET_COUNT; i++) {
			settings_effective(&s, (enum setting)i, &why);
			if (settings_check(&s, (enum setting)i, &e) < 0 &&
			    e.msg[0] == '\0')
				abort();
		}
	} else if (e.msg[0] == '\0')
		abort();
	settings_free(&s);
	return 0;
}
