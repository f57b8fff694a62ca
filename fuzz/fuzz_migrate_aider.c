/*
 * fuzz_migrate_aider.c - libFuzzer harness for migrate's aider reader
 * (lib/migrate/aider.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_AIDER
#define FUZZ_EXT "md"
#include "fuzz_migrate.inc"
