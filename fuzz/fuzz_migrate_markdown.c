/*
 * fuzz_migrate_markdown.c - libFuzzer harness for migrate's markdown reader
 * (lib/migrate/markdown.c), through migrate_run(); see fuzz_migrate.inc.
 */
#define FUZZ_FORMAT MIGRATE_MARKDOWN
#define FUZZ_EXT "md"
#include "fuzz_migrate.inc"
