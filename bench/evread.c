// SPDX-License-Identifier: GPL-2.0
/*
 * evread: a reader of dmcore's events file, for `make bench`. Opens the
 * file without blocking, reads everything the event log holds in 64 KiB
 * reads, and prints "records=R bytes=B ns=T": records are the event
 * headers (lines starting "SEQNUM="), T the time spent reading. A static
 * user-space program, built on the host by scripts/bench.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t, records = 0, bytes = 0;
	static const char header[] = "SEQNUM=";
	int fd, m = 0;	/* chars of header matched at a line start, or -1 */
	ssize_t n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: evread EVENTS_FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	t = now_ns();
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (m >= 0 && buf[i] == header[m]) {
				if (++m == (int)sizeof(header) - 1) {
					records++;
					m = -1;
				}
			} else {
				m = -1;
			}
			if (buf[i] == '\n')
				m = 0;
		}
		bytes += n;
	}
	t = now_ns() - t;
	if (n < 0 && errno != EAGAIN) {
		perror("read");
		return 1;
	}
	printf("records=%llu bytes=%llu ns=%llu\n", records, bytes, t);
	close(fd);
	return 0;
}
