/*
 * file-index.c - the file engine's index (file-index.h): one file per store under
 * $XDG_CACHE_HOME/convctl/index/, named by the SHA-256 of the store's path.
 *
 * Layout, in the machine's byte order (a cache, never copied elsewhere):
 * the head (struct head), the records (struct index_rec), the members
 * (struct index_member), the store's path, the strings, zeros to a multiple
 * of 8, and a checksum of all that before it. What it says is trusted only
 * while the store's identity is the one it names, and the index was written
 * strictly after the store's last change (git's racy rule): a change made
 * later moves the store's mtime or ctime.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "file-index.h"
#include "file.h"

#define MAGIC "CVIDX002"	/* 002: a record's newest */
#define MAX_INDEX (1u << 30)
#define TEMP_AGE 60		/* seconds after which a temporary is a killed one's */

struct head {
	char magic[8];
	uint64_t dev, ino, size, mtime_s, mtime_ns, ctime_s, ctime_ns;
	uint64_t n, nmember, active, nended, pathlen, nstr;
};

/* a checksum for damage, not for an adversary: four lanes, 8 bytes a step */
static uint64_t
checksum(const unsigned char *p, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h[4] = { k, k ^ 1, k ^ 2, k ^ (uint64_t)n }, w;
	size_t i;

	for (; n >= 32; p += 32, n -= 32)
		for (i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			h[i] = (h[i] ^ w) * 0xff51afd7ed558ccdull;
			h[i] ^= h[i] >> 31;
		}
	for (i = 0; n > 0; p++, n--, i++)
		h[i & 3] = (h[i & 3] ^ *p) * 0xc4ceb9fe1a85ec53ull;
	w = h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7);
	w ^= w >> 33;
	w *= 0xff51afd7ed558ccdull;
	return w ^ (w >> 33);
}

static size_t
round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int
index_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size &&
	    a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	    a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	    a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static int
before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	    (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

int
index_settled(const struct stat *sb, const struct stat *now,
    const struct timespec *t0)
{
	return index_same_file(sb, now) && before(&sb->st_mtim, t0) &&
	    before(&sb->st_ctim, t0);
}

char *
index_path(const char *file)
{
	char hex[SHA256_HEX_LEN], *dir, *path;
	struct buf b = { 0 };

	sha256_hex(file, strlen(file), hex);
	dir = home_path("XDG_CACHE_HOME", ".cache", "convctl/index");
	if (*dir != '/') {	/* no $HOME: no place that is surely the user's */
		free(dir);
		return NULL;
	}
	buf_addf(&b, "%s/%s", dir, hex);
	free(dir);
	path = buf_detach(&b);
	return path;
}

/* the parts after the head fit in size bytes exactly, each in bounds */
static int
check(struct index *ix, const struct head *h, size_t size, const char *file,
    const struct stat *sb)
{
	size_t fixed = sizeof(*h), i, nended = 0;
	const char *path;

	if (h->n > size / sizeof(struct index_rec) ||
	    h->nmember > size / sizeof(struct index_member) ||
	    h->pathlen > size || h->nstr > size)
		return -1;
	fixed += h->n * sizeof(struct index_rec) +
	    h->nmember * sizeof(struct index_member);
	if (fixed > size || round8(h->pathlen + h->nstr) + 8 != size - fixed)
		return -1;
	ix->rec = (const struct index_rec *)(ix->buf + sizeof(*h));
	ix->n = h->n;
	ix->member = (const struct index_member *)(ix->rec + h->n);
	ix->nmember = h->nmember;
	path = (const char *)(ix->member + h->nmember);
	ix->str = path + h->pathlen;
	if (h->pathlen != strlen(file) || memcmp(path, file, h->pathlen) != 0)
		return -1;
	for (i = 0; i < ix->n; i++) {
		const struct index_rec *r = &ix->rec[i];

		if (r->off > (uint64_t)sb->st_size ||
		    r->len > (uint64_t)sb->st_size - r->off ||
		    r->id >= h->nstr || r->idlen >= h->nstr - r->id ||
		    ix->str[r->id + r->idlen] != '\0')
			return -1;
		nended += r->ended >= 0;
	}
	for (i = 0; i < ix->nmember; i++) {
		const struct index_member *m = &ix->member[i];

		if (m->off > (uint64_t)sb->st_size ||
		    m->len > (uint64_t)sb->st_size - m->off ||
		    m->key > h->nstr || m->klen > h->nstr - m->key)
			return -1;
	}
	if ((h->active != INDEX_NONE && (h->active >= h->n ||
	    ix->rec[h->active].ended >= 0)) || h->nended != nended)
		return -1;
	ix->active = h->active;
	ix->nended = nended;
	return 0;
}

int
index_read(const char *path, const char *file, const struct stat *sb,
    struct index *ix)
{
	struct stat isb;
	struct head h;
	uint64_t sum;
	size_t size;
	int fd;

	memset(ix, 0, sizeof(*ix));
	if (path == NULL ||
	    (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &isb) < 0 || !S_ISREG(isb.st_mode) ||
	    isb.st_uid != geteuid() || isb.st_size < (off_t)(sizeof(h) + 8) ||
	    isb.st_size > (off_t)MAX_INDEX ||
	    !before(&sb->st_mtim, &isb.st_mtim))	/* racy: not to be trusted */
		goto no;
	size = (size_t)isb.st_size;
	/*
	 * Mapped, its pages made present at once: faulting in a fresh buffer
	 * to read it into costs more than the rest of a prompt. Like git's
	 * index, it is only ever replaced by a rename, never cut short in place.
	 */
	ix->buf = mmap(NULL, size, PROT_READ, MAP_PRIVATE | os_map_populate(), fd, 0);
	if (ix->buf == MAP_FAILED) {
		ix->buf = NULL;
		goto no;
	}
	ix->size = size;
	memcpy(&h, ix->buf, sizeof(h));
	memcpy(&sum, ix->buf + size - 8, 8);
	if (memcmp(h.magic, MAGIC, 8) != 0 || size % 8 != 0 ||
	    sum != checksum((unsigned char *)ix->buf, size - 8) ||
	    h.dev != (uint64_t)sb->st_dev || h.ino != (uint64_t)sb->st_ino ||
	    h.size != (uint64_t)sb->st_size ||
	    h.mtime_s != (uint64_t)sb->st_mtim.tv_sec ||
	    h.mtime_ns != (uint64_t)sb->st_mtim.tv_nsec ||
	    h.ctime_s != (uint64_t)sb->st_ctim.tv_sec ||
	    h.ctime_ns != (uint64_t)sb->st_ctim.tv_nsec ||
	    check(ix, &h, size, file, sb) < 0)
		goto no;
	close(fd);
	return 1;
no:
	close(fd);
	index_free(ix);
	return 0;
}

void
index_free(struct index *ix)
{
	if (ix->buf != NULL)
		munmap(ix->buf, ix->size);
	memset(ix, 0, sizeof(*ix));
}

int64_t
index_find(const struct index *ix, const char *id)
{
	size_t i, len = strlen(id);

	for (i = 0; i < ix->n; i++)
		if (ix->rec[i].idlen == len &&
		    memcmp(ix->str + ix->rec[i].id, id, len) == 0)
			return (int64_t)i;
	return -1;
}

static uint32_t
add_string(struct index_build *b, const char *s, size_t len)
{
	uint32_t at = (uint32_t)b->str.len;

	buf_add(&b->str, s, len);
	buf_addc(&b->str, '\0');
	return at;
}

void
index_add_conv(struct index_build *b, uint64_t off, uint64_t len,
    const char *id, int64_t started, int64_t ended, int64_t last,
    int64_t newest, uint64_t nmsg, unsigned flags)
{
	struct index_rec r;

	if (b->n == 0 && b->rec.len == 0)
		b->active = INDEX_NONE;
	memset(&r, 0, sizeof(r));
	r.off = off;
	r.len = len;
	r.started = started;
	r.ended = ended;
	r.last = last;
	r.newest = newest;
	r.nmsg = nmsg;
	r.idlen = (uint32_t)strlen(id);
	r.id = add_string(b, id, r.idlen);
	r.flags = flags;
	if (ended < 0)
		b->active = b->n;
	else
		b->nended++;
	buf_add(&b->rec, &r, sizeof(r));
	b->n++;
}

void
index_add_member(struct index_build *b, const char *key, size_t klen,
    uint64_t off, uint64_t len)
{
	struct index_member m;

	memset(&m, 0, sizeof(m));
	m.off = off;
	m.len = len;
	m.klen = (uint32_t)klen;
	m.key = add_string(b, key, klen);
	buf_add(&b->member, &m, sizeof(m));
	b->nmember++;
}

void
index_build_free(struct index_build *b)
{
	buf_free(&b->rec);
	buf_free(&b->member);
	buf_free(&b->str);
	memset(b, 0, sizeof(*b));
}

/* the temporaries of this index that killed writers left, a minute on */
static void
sweep(const char *dir, const char *name)
{
	size_t len = strlen(name);
	struct dirent *d;
	struct stat sb;
	time_t now = time(NULL);
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL)
		if (d->d_name[0] == '.' && strncmp(d->d_name + 1, name, len) == 0 &&
		    d->d_name[len + 1] == '.' &&
		    fstatat(dirfd(dp), d->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(sb.st_mode) && sb.st_mtime + TEMP_AGE < now)
			unlinkat(dirfd(dp), d->d_name, 0);
	closedir(dp);
}

void
index_write(const char *path, const char *file, const struct stat *sb,
    struct index_build *b)
{
	static const char zero[8];
	struct head h;
	struct buf all = { 0 }, tmp = { 0 };
	struct error e;
	char *dir, *name;
	uint64_t sum;
	size_t plen = strlen(file);
	ssize_t w;
	int fd;

	if (path == NULL || b->str.len > UINT32_MAX || path_mkdirs_for(path, &e) < 0)
		return;
	if (b->n == 0)
		b->active = INDEX_NONE;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, 8);
	h.dev = (uint64_t)sb->st_dev;
	h.ino = (uint64_t)sb->st_ino;
	h.size = (uint64_t)sb->st_size;
	h.mtime_s = (uint64_t)sb->st_mtim.tv_sec;
	h.mtime_ns = (uint64_t)sb->st_mtim.tv_nsec;
	h.ctime_s = (uint64_t)sb->st_ctim.tv_sec;
	h.ctime_ns = (uint64_t)sb->st_ctim.tv_nsec;
	h.n = b->n;
	h.nmember = b->nmember;
	h.active = b->active;
	h.nended = b->nended;
	h.pathlen = plen;
	h.nstr = b->str.len;
	buf_add(&all, &h, sizeof(h));
	buf_add(&all, b->rec.data, b->rec.len);
	buf_add(&all, b->member.data, b->member.len);
	buf_add(&all, file, plen);
	buf_add(&all, b->str.data, b->str.len);
	buf_add(&all, zero, round8(all.len) - all.len);
	sum = checksum((unsigned char *)all.data, all.len);
	buf_add(&all, &sum, 8);

	dir = path_dir(path);
	name = strrchr(path, '/') + 1;
	buf_addf(&tmp, "%s/.%s.XXXXXX", dir, name);
	if ((fd = mkstemp(tmp.data)) < 0)
		goto out;
	w = write(fd, all.data, all.len);
	if (close(fd) < 0 || w != (ssize_t)all.len || rename(tmp.data, path) < 0) {
		unlink(tmp.data);
		goto out;
	}
	sweep(dir, name);
out:
	free(dir);
	buf_free(&tmp);
	buf_free(&all);
}
