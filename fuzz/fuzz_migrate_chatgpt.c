/*
 * fuzz_migrate_chatgpt.c - libFuzzer harness for migrate's chatgpt reader
 * (lib/migrate/chatgpt.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_CHATGPT
#define FUZZ_EXT "json"
#include "fuzz_migrate.inc"
