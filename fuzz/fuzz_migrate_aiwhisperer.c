/*
 * fuzz_migrate_aiwhisperer.c - libFuzzer harness for migrate's aiwhisperer reader
 * (lib/migrate/aiwhisperer.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_AIWHISPERER
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
