/*
 * fuzz_migrate_gemini.c - libFuzzer harness for migrate's gemini reader
 * (lib/migrate/gemini.c, gemini-session.c, gemini-checkpoint.c), through
 * migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_GEMINI
#define FUZZ_EXT "jsonl"
#include "fuzz_migrate.inc"
