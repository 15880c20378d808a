// SPDX-License-Identifier: GPL-2.0
/*
 * dmc-poll FILE TIMEOUT_MS -- wait for an attribute file of the tree to be
 * notified, as a sysfs poller does: open FILE, read it (from position 0),
 * poll() for POLLPRI|POLLERR up to TIMEOUT_MS, then lseek() to 0 and read
 * it again. Prints "before: VALUE", then "woke: pri|err" (or "timeout")
 * and, after a wake-up, "after: VALUE" or "after: error ERRNO-NAME".
 * Exit status: 0 woken, 1 timed out, 2 usage or a failing call.
 * A static binary for the busybox guest (scripts/build-guest-tools.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_value(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int main(int argc, char **argv)
{
	struct pollfd p;
	char buf[4096];
	int fd, err, n;

	if (argc != 3) {
		fprintf(stderr, "usage: dmc-poll FILE TIMEOUT_MS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "dmc-poll: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	err = read_value(fd, buf, sizeof(buf));
	if (err) {
		fprintf(stderr, "dmc-poll: read %s: %s\n", argv[1], strerror(-err));
		return 2;
	}
	printf("before: %s\n", buf);
	fflush(stdout);
	p.fd = fd;
	p.events = POLLPRI;
	n = poll(&p, 1, atoi(argv[2]));
	if (n < 0) {
		fprintf(stderr, "dmc-poll: poll: %s\n", strerror(errno));
		return 2;
	}
	if (!n) {
		printf("timeout\n");
		return 1;
	}
	printf("woke: %s%s%s\n", p.revents & POLLPRI ? "pri" : "",
	       (p.revents & (POLLPRI | POLLERR)) == (POLLPRI | POLLERR) ? "|" : "",
	       p.revents & POLLERR ? "err" : "");
	err = read_value(fd, buf, sizeof(buf));
	if (err)
		printf("after: error %s\n", strerror(-err));
	else
		printf("after: %s\n", buf);
	return 0;
}
