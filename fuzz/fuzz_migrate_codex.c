/*
 * fuzz_migrate_codex.c - libFuzzer harness for migrate's codex reader
 * (lib/migrate/codex.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CODEX
#define FUZZ_EXT "jsonl"
#include "fuzz_migrate.inc"
