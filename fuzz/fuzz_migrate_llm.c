/*
 * fuzz_migrate_llm.c - libFuzzer harness for migrate's llm reader
 * (lib/migrate/llm.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_LLM
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
