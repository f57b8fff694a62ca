/*
 * floor.c - the least a store command can cost, to measure convctl against.
 *   floor read STORE    reads the whole file (one buffer, read(2) to EOF)
 *   floor write STORE   reads it, writes it to a temporary file beside it,
 *                       fsyncs that, renames it over STORE, fsyncs the directory
 *   floor tight STORE   the same, the store mapped rather than read: the
 *                       least an add can do that writes every byte anew
 * Any real add or end does at least the write floor's work.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "floor: %s '%s': %s\n", what, path, strerror(errno));
	exit(1);
}

static char *
slurp(const char *path, size_t *len)
{
	struct stat sb;
	size_t cap, n = 0;
	ssize_t r;
	char *p;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) < 0)
		die("cannot open", path);
	cap = (size_t)sb.st_size + 1;
	if ((p = malloc(cap)) == NULL)
		die("out of memory for", path);
	while ((r = read(fd, p + n, cap - n)) > 0)
		n += (size_t)r;
	if (r < 0)
		die("cannot read", path);
	close(fd);
	*len = n;
	return p;
}

int
main(int argc, char **argv)
{
	char tmp[4096], dirbuf[4096], *dir;
	size_t len, off = 0;
	ssize_t w;
	char *p;
	int fd;

	if (argc != 3 || (strcmp(argv[1], "read") && strcmp(argv[1], "write") &&
	    strcmp(argv[1], "tight"))) {
		fprintf(stderr, "usage: floor read|write|tight STORE\n");
		return 2;
	}
	if (strcmp(argv[1], "tight") == 0) {
		struct stat sb;

		if ((fd = open(argv[2], O_RDONLY)) < 0 || fstat(fd, &sb) < 0)
			die("cannot open", argv[2]);
		len = (size_t)sb.st_size;
		p = mmap(NULL, len ? len : 1, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			die("cannot map", argv[2]);
		close(fd);
	} else
		p = slurp(argv[2], &len);
	if (strcmp(argv[1], "read") == 0)
		return p[len / 2] == 1;	/* touch it, so the read is not dead */
	snprintf(dirbuf, sizeof(dirbuf), "%s", argv[2]);
	dir = dirname(dirbuf);
	snprintf(tmp, sizeof(tmp), "%s/.floor.XXXXXX", dir);
	if ((fd = mkstemp(tmp)) < 0)
		die("cannot create", tmp);
	while (off < len) {
		if ((w = write(fd, p + off, len - off)) < 0)
			die("cannot write", tmp);
		off += (size_t)w;
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		die("cannot flush", tmp);
	if (rename(tmp, argv[2]) < 0)
		die("cannot rename over", argv[2]);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) < 0 || fsync(fd) < 0)
		die("cannot flush", dir);
	close(fd);
	if (strcmp(argv[1], "tight") != 0)
		free(p);
	return 0;
}
