/*
 * engine.h - the store in memory and the storage engines under it, as git's
 * refs/refs-internal.h has its ref_storage_be: the lifecycle (lifecycle.c,
 * batch.c, migrate/) works on conversations held in a struct store and
 * never asks which engine loaded them or will write them back.
 *
 * An engine fills one constant struct store_engine: the file (file.c,
 * everything loaded at open, or by its index only what a command asks for,
 * written back whole) and PostgreSQL (pg.c,
 * only what a command asks for is read, only what it changed is written).
 * Only lib/store/ includes this header (and tests/unit/pgconnect.c, through
 * pg-session.h); open.c holds the table of engines.
 */
#ifndef CONVCTL_ENGINE_H
#define CONVCTL_ENGINE_H

#include "../internal.h"
#include "query.h"

struct conv {
	json_t *obj;		/* NULL until conv_json() parses raw */
	json_t *head;		/* loaded without its body: its own fields
				 * (messages []), for conv_head() */
	const char *raw;	/* its bytes as the engine read them; NULL: none */
	size_t rawlen;
	char *text;		/* raw when it is c's own (store_append_text()),
				 * freed once parsed; else NULL */
	int canonical;		/* raw is what json_dump_buf() would write */
	char *own[3];		/* id, title, summary when obj does not hold them */
	const char *id, *title, *summary;	/* point into obj or own */
	int64_t started, ended, last;
	int64_t newest;		/* the latest message time its bytes hold, as
				 * the file's scanner read them, for the index;
				 * INT64_MAX: not known (conv_new()) */
	size_t nmsg;
	int64_t pos;		/* the order conversations were stored in */
	int doomed;		/* to be freed by store_sweep() */
	void *be;		/* the engine's own record of it, or NULL */
};

/* what store_load() is asked to bring into memory */
struct store_query {
	enum {
		LOAD_ACTIVE,	/* the active conversation, whole */
		LOAD_ID,	/* the conversation id, whole, if there is one */
		LOAD_ENDED,	/* the newest limit ended ones (with bodies:
				 * whole, else what store_ended() shows) */
		LOAD_ALL,	/* every conversation, whole, in stored order */
	} what;
	const char *id;
	size_t limit;
	int bodies;
};

struct store;
struct store_engine {
	const char *name;			/* "file", "postgresql", "sqlite" */
	/* 1: path names a store of this engine (the last in open.c's table
	 * claims every path the others do not) */
	int (*claims)(const char *path);
	/* path as messages show it, a password masked; malloc'd */
	char *(*shown)(const char *path);
	/* 1: path holds a password (NULL: no name of this engine can) */
	int (*holds_password)(const char *path);
	/* opens the store at path for st->mode (the file: takes the lock and
	 * reads all of it, or with whole 0 perhaps its index; a database:
	 * connects and begins the transaction) */
	int (*open)(struct store *, const char *path, double wait, int whole,
	    struct error *);
	/*
	 * The next three are never called while open has loaded every
	 * conversation whole (LOADED_ALL), and may be NULL for an engine that
	 * always does; load_body may be NULL for one whose loads are whole.
	 * Brings what q asks for into st (store_push()); what st holds already
	 * is newer than what the engine has, and is kept.
	 */
	int (*load)(struct store *, const struct store_query *, struct error *);
	/* the whole of c, which was loaded without its body */
	int (*load_body)(struct store *, struct conv *, struct error *);
	/* how many ended conversations there are in all, loaded or not */
	int (*count_ended)(struct store *, size_t *, struct error *);
	/* store_query(): the messages that may match q, to sink: 1 done, 0
	 * not now, -1 e (NULL: the engine has no way but loading them all) */
	int (*search)(struct store *, const struct query *,
	    const struct query_sink *, struct error *);
	/* store_each(), called only with nothing loaded (NULL: the engine
	 * loads them all) */
	int (*each)(struct store *, store_each_fn, void *, struct error *);
	/* store_flush_new() (NULL: the engine writes only at commit) */
	int (*flush_new)(struct store *, struct error *);
	/* store_stats(): rq's conversations counted into the stats
	 * (stats_conv(), stats_role(), stats_tool(), the size): 1 done, 0
	 * not offered now (then every conversation is loaded and counted),
	 * -1 e (NULL: the engine has no way but loading them all) */
	int (*stats)(struct store *, const struct stats_request *,
	    struct store_stats *, struct error *);
	/* writes every change: 0, 1 (written, with a warning in e) or -1 */
	int (*commit)(struct store *, struct error *);
	void (*close)(struct store *);		/* frees st->be; rolls back */
	/* a directory on the store's filesystem for store_spool_open(),
	 * malloc'd; NULL (or no such op): the store has none */
	char *(*spool_dir)(struct store *);
	/* 1: store_text may copy each conversation's bytes as the engine read
	 * them, being a store file's; NULL: never */
	int (*bytes_are_text)(struct store *);
	/* 1: a conversation store_append_text() adds may stay its text until
	 * commit writes it (the file's); 0: it is parsed at once */
	int writes_text;
};
extern const struct store_engine store_file_engine;
extern const struct store_engine store_pg_engine;
extern const struct store_engine store_sqlite_engine;

#define NSPOOLED 2	/* the messages of an exchange: prompt and answer */
struct store {
	const struct store_engine *engine;
	void *be;		/* the engine's own state */
	char *path;		/* as the user named it, a password masked */
	enum store_mode mode;
	size_t max;		/* the largest store or message text read */
	json_t *root;		/* every top-level field but "conversations" */
	int root_dirty;		/* store_root() was asked for in a write */
	struct conv **conv;	/* those loaded, in stored order as loaded */
	size_t n, cap;
	struct conv **byid;	/* conv by the hash of its id (store.c), or NULL */
	size_t byidcap;		/* its slots: a power of two */
	char **removed;		/* ids store_remove() took out */
	size_t nremoved;
	int64_t next_pos;	/* for conversations store_append() adds */
	unsigned loaded;	/* LOADED_* */
	/*
	 * Messages whose content is still in a spool (convctl run's prompt
	 * from standard input, and its answer): value, its content, holds ""
	 * as a stand-in; the text is the len JSON-escaped bytes at the start
	 * of fd. The file engine copies them into the new file (file-save.c); an
	 * engine that writes from memory calls store_spool_fill() before it
	 * writes anything.
	 */
	struct spooled {
		json_t *value;		/* NULL: this one is not used */
		int fd;
		size_t len;
	} spooled[NSPOOLED];
};
enum {
	LOADED_ALL = 1,		/* st->conv holds every conversation */
	LOADED_ACTIVE = 2,
};

/* pg-uri.c: the URI with every secret as *** (libpq's parser read it, when
 * libpq is there; else its whole user information and query are ***) */
char *pg_uri_shown(const char *uri);
/* the URI holds a password (user:PASSWORD@, password=, sslpassword=) */
int pg_uri_has_password(const char *uri);

/* spool.c: the real text put into each st->spooled[].value, for an
 * engine that writes from memory; nothing when no message is spooled */
int store_spool_fill(struct store *, struct error *);

/* store.c, for the engines: a new conversation record, filled from obj (which
 * it takes) or, with obj NULL, by the caller; and put into st */
struct conv *conv_new(void);
void conv_free(struct conv *);
void store_push(struct store *, struct conv *);
/* the conversations marked doomed freed and taken out of st->conv */
void store_sweep(struct store *);
/* qsort's order of struct conv pointers: stored order (pos), as a whole
 * load keeps it */
int conv_by_pos(const void *, const void *);
/* the loaded conversation with this id, or NULL (no engine is asked) */
struct conv *store_loaded(struct store *, const char *id);
/* -1 and e: the writers' lock of the store called name not had within
 * wait seconds, ERROR_TEMPORARY (exit 75: another writer holds it) */
int store_locked(const char *name, double wait, struct error *);

/* stats.c, for the engines' stats op: 1 when c (id, started, ended set;
 * its head or bytes for tags and pinned) is one rq counts, then counted
 * (active or ended, pinned, its tags, its week, oldest and newest); 0 when
 * not. Its messages are then given by stats_role() and stats_tool(). */
int stats_conv(struct store_stats *, const struct stats_request *,
    struct conv *);
void stats_role(struct store_stats *, enum conv_role, uint64_t n);
/* a tool named name[0..len), used n times more */
void stats_tool(struct store_stats *, const char *name, size_t len,
    uint64_t n);
/* each string of a message's toolsUsed (NULL: none) */
void stats_tools(struct store_stats *, json_t *tools);

#endif
