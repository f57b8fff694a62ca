/*
 * fuzz_migrate_claudeai.c - libFuzzer harness for migrate's claudeai reader
 * (lib/migrate/claudeai.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CLAUDEAI
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
