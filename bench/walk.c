// SPDX-License-Identifier: GPL-2.0
/*
 * walk: a full walk of a sysfs-like tree, for `make bench` -- every
 * directory listed, every link read, every readable regular file read
 * (to the end, in 4 KiB reads), as `find DIR` plus a `cat` of every
 * attribute would, without a process per file. Files named "events" or
 * "control" (dmcore's root files: one blocks, one is write-only) are
 * skipped. Prints "dirs=D files=F links=L bytes=B errors=E ns=T".
 * Symbolic links are not followed. A static user-space program, built on
 * the host by scripts/bench.sh.
 *
 *   walk DIR...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static unsigned long long dirs, files, links, bytes, errors;
static char buf[4096];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void read_file(int dirfd, const char *name)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		if (errno != EACCES)
			errors++;
		return;
	}
	files++;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		bytes += n;
	if (n < 0)
		errors++;
	close(fd);
}

/* Iterative over an explicit stack of paths: the tree may be deep. */
static void walk(const char *top)
{
	size_t cap = 1024, sp = 0;
	char **stack = malloc(cap * sizeof(*stack));
	struct dirent *de;
	struct stat st;
	char *path;
	DIR *d;

	stack[sp++] = strdup(top);
	while (sp) {
		path = stack[--sp];
		d = opendir(path);
		if (!d) {
			errors++;
			free(path);
			continue;
		}
		dirs++;
		while ((de = readdir(d))) {
			char sub[PATH_MAX];

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
				errors++;
				continue;
			}
			if (S_ISLNK(st.st_mode)) {
				if (readlinkat(dirfd(d), de->d_name, sub, sizeof(sub)) < 0)
					errors++;
				links++;
			} else if (S_ISDIR(st.st_mode)) {
				if (sp == cap) {
					cap *= 2;
					stack = realloc(stack, cap * sizeof(*stack));
				}
				snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
				stack[sp++] = strdup(sub);
			} else if (S_ISREG(st.st_mode) && (st.st_mode & 0444) &&
				   strcmp(de->d_name, "events") && strcmp(de->d_name, "control")) {
				read_file(dirfd(d), de->d_name);
			}
		}
		closedir(d);
		free(path);
	}
	free(stack);
}

int main(int argc, char **argv)
{
	unsigned long long t;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: walk DIR...\n");
		return 2;
	}
	t = now_ns();
	for (i = 1; i < argc; i++)
		walk(argv[i]);
	t = now_ns() - t;
	printf("dirs=%llu files=%llu links=%llu bytes=%llu errors=%llu ns=%llu\n",
	       dirs, files, links, bytes, errors, t);
	return 0;
}
