/*
 * fuzz_migrate_jsonl.c - libFuzzer harness for migrate's jsonl reader
 * (lib/migrate/jsonl.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_JSONL
#define FUZZ_EXT "jsonl"
#include "fuzz_migrate.inc"
