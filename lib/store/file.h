/*
 * file.h - what the files of the file engine share: its state, the
 * path (file-path.c), the lock (file-lock.c) and the atomic write (file-save.c).
 * Nothing outside them includes it; the rest of lib/ sees the store through
 * convctl.h and internal.h.
 */
#ifndef CONVCTL_STORE_FILE_H
#define CONVCTL_STORE_FILE_H

#include <sys/stat.h>
#include <sys/types.h>

#include "engine.h"
#include "file-index.h"

/*
 * the file engine's state: st->be. Loaded whole, data holds the file; with
 * an index that holds (file-index.h), nothing is read at open but the top-level
 * fields, and a load reads only its conversations' bytes.
 */
struct file_state {
	char *file;		/* what is read and replaced: path, links followed */
	int lockfd;		/* -1: opened for reading */
	char *data;		/* the file as loaded: raw conversations point here */
	size_t len;
	size_t mapped;		/* data is an anonymous mapping this long; 0: malloc */
	size_t filemap;		/* or a mapping of the file this long, */
	int mapfd;		/* under a read lease on mapfd (or -1) */
	char *ixpath;		/* where its index is; NULL: none is used */
	struct index *ix;	/* the index in use; NULL: loaded whole */
	int fd;			/* with ix: the store, open for reading */
	struct stat sb;		/* with ix: its identity at open */
	unsigned char *got;	/* with ix: record i was loaded into st */
};

/* with an index, a conversation's record: c->be (its bytes follow it) */
struct file_conv {
	size_t off;		/* where c->raw was in the file */
	char bytes[];
};

/*
 * file-path.c: the file the user's path names, every link followed (see
 * there), into *file (malloc'd). -2: path names something that cannot be a
 * store (standard input, a descriptor, a directory, a device, ...).
 */
int path_resolve(const char *path, char **file, struct error *);
/* the error for a store path that is a file of mode m, not a regular one: -2 */
int path_not_a_store(struct error *, const char *path, mode_t m);
/* makes the directories file will be in (0700), through no link put there */
int path_mkdirs_for(const char *file, struct error *);
/* the directory part of path, malloc'd */
char *path_dir(const char *path);

/*
 * file-lock.c: takes the exclusive lock FILE.lock beside file, waiting at most
 * wait seconds; the descriptor, which holds it until closed, or -1. name is
 * the store as the user named it, for errors.
 */
int lock_take(const char *file, const char *name, double wait, struct error *);

/* file-save.c: removes the temporary files killed writers left beside file; only
 * under the lock */
void save_sweep_temps(const char *file);
/* writes the store atomically (see store_save()), then its index */
int save_file(struct store *, struct error *);

/* file-rec.c (with file_map_leased() below): record i of fs->ix brought
 * into st, if it is not there */
int file_load_rec(struct store *, size_t i, struct error *);
/* the identity of the file open at fd is still sb's, else an error */
int file_unchanged(struct store *, int fd, const struct stat *sb,
    struct error *);
/* "store ... changed while it was read": -1 */
int file_changed(struct store *, struct error *);
/*
 * file-search.c: every conversation's bytes, in stored order, for a reader that
 * looks at them before it parses any (search, stats), valid while the
 * store is open: 1 and *v (malloc'd, the caller's) and *n; 0: none (a
 * file it could not map safely, or conversations loaded already): load
 * them instead; -1: an error. Checked only if *unchecked is 0: else the
 * caller checks those it reads with the scanner (scan_conv_each()), and
 * file_changed() is the error when one fails.
 */
struct store_span {
	const char *p;
	size_t len;
	int canonical;		/* the bytes are what json_dump_buf() writes */
	int64_t newest;		/* its latest message's time, as the scanner
				 * found it: INT64_MIN none, INT64_MAX not known */
};
int file_spans(struct store *, struct store_span **v, size_t *n,
    int *unchecked, struct error *);
/* file-search.c: store_query() on the file */
int file_search(struct store *, const struct query *,
    const struct query_sink *, struct error *);
/* the store file mapped under a read lease, for a reader (fs->data): 1;
 * 0 when it cannot be (the caller reads it) */
int file_map_leased(struct file_state *, int fd, const struct stat *sb);
/* len bytes at off of the store into p; all of them, or an error */
int file_read_at(struct store *, char *p, size_t len, size_t off,
    struct error *);

#endif
