/*
 * tool.h - what the test tool's subcommands share (tests/tool/test-tool.c):
 * convctl's commands run in this process, files read and written whole.
 */
#ifndef CONVCTL_TEST_TOOL_H
#define CONVCTL_TEST_TOOL_H

#include <stdio.h>

#include "base/base.h"

/* cmd/main.c's main(), compiled as this name into the tool (Makefile) */
int convctl_main(int argc, char **argv);

/* where a subcommand reports: the tool's own standard output (fd 1 is
 * /dev/null while convctl's commands run) */
extern FILE *tool_out;

/* `convctl ARGV...` (argv[0] is the command's name, NULL-ended) in this
 * process: its exit status; what it wrote on stderr in *err (NUL-ended),
 * what it wrote on stdout thrown away, stdin /dev/null */
int tool_convctl(const char *const *argv, struct buf *err);
/* the same, its standard output written to out_fd */
int tool_convctl_out(const char *const *argv, int out_fd, struct buf *err);

/* the case being run, named when a signal kills the tool */
void tool_case(const char *what);

/* the whole of path into *b (NUL-ended); -1 when it cannot be read */
int tool_read(const char *path, struct buf *b);
/* len bytes as the whole of path; exits 2 when it cannot */
void tool_write(const char *path, const void *s, size_t len);

int tool_badinput(int argc, char **argv);
int tool_table(int argc, char **argv);
int tool_run(int argc, char **argv);
int tool_serve(int argc, char **argv);

#endif
