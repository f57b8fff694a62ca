/*
 * fuzz_migrate_convctl.c - libFuzzer harness for migrate's convctl reader
 * (lib/migrate/convctl.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CONVCTL
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
