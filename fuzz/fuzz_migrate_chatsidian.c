/*
 * fuzz_migrate_chatsidian.c - libFuzzer harness for migrate's chatsidian reader
 * (lib/migrate/chatsidian.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CHATSIDIAN
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
