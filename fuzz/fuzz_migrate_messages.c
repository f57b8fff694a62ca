/*
 * fuzz_migrate_messages.c - libFuzzer harness for migrate's messages reader
 * (lib/migrate/messages.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_MESSAGES
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
