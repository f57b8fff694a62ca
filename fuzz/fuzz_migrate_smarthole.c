/*
 * fuzz_migrate_smarthole.c - libFuzzer harness for migrate's smarthole reader
 * (lib/migrate/smarthole.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_SMARTHOLE
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
