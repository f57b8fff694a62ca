/*
 * fuzz_migrate_claude.c - libFuzzer harness for migrate's claude reader
 * (lib/migrate/claude.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CLAUDE
#define FUZZ_EXT "jsonl"
#include "fuzz_migrate.inc"
