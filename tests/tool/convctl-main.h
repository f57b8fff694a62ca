/* convctl-main.h - cmd/main.c is compiled into the test tool with its main
 * renamed convctl_main (Makefile): its prototype, given by -include */
int convctl_main(int argc, char **argv);
