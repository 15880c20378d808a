// SPDX-License-Identifier: GPL-2.0
/*
 * util.c -- dmctl's small helpers: allocation, reading a file of the
 * tree, messages and exit codes (1 a failure, 2 a usage error), numbers,
 * errno names and the snapshot's \xHH escapes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmctl.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "dmctl: out of memory\n");
		exit(1);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "dmctl: out of memory\n");
		exit(1);
	}
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *root_path(const char *name)
{
	size_t a = strlen(g_root), b = strlen(name);
	char *p = xmalloc(a + b + 2);

	memcpy(p, g_root, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/*
 * A whole file. Files of the tree are read with O_NONBLOCK so that a
 * file that would block (none but `events` should) ends the read.
 */
char *read_file(const char *path, size_t *len)
{
	size_t size = 8192, n = 0;
	char *buf;
	ssize_t r;
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xmalloc(size);
	for (;;) {
		if (n + 1 >= size) {
			size *= 2;
			buf = xrealloc(buf, size);
		}
		r = read(fd, buf + n, size - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && n)
				break;
			e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* "dmctl: MESSAGE" and @tail on stderr, then exit with @status. */
static void __noreturn die_with(int status, const char *tail, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("dmctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
	exit(status);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_with(2, " (dmctl --help)\n", fmt, ap);
}

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_with(1, "\n", fmt, ap);
}

unsigned long long parse_number(const char *opt, const char *s)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s < '0' || *s > '9')
		usage_error("bad number for %s: '%s'", opt, s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		usage_error("bad number for %s: '%s'", opt, s);
	return v;
}

static const char *const errnames[] = {
	NULL, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
	"ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT",
	"ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR",
	"EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
	"ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
	"ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", NULL,
	"ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST", "ELNRNG",
	"EUNATCH", "ENOCSI", "EL2HLT", "EBADE", "EBADR", "EXFULL", "ENOANO",
	"EBADRQC", "EBADSLT", NULL, "EBFONT", "ENOSTR", "ENODATA", "ETIME",
	"ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV", "ESRMNT",
	"ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW",
	"ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN",
	"ELIBMAX", "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS",
	"ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT",
	"EPROTONOSUPPORT", "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT",
	"EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN",
	"ENETUNREACH", "ENETRESET", "ECONNABORTED", "ECONNRESET", "ENOBUFS",
	"EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT",
	"ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS",
	"ESTALE", "EUCLEAN", "ENOTNAM", "ENAVAIL", "EISNAM", "EREMOTEIO",
	"EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE", "ECANCELED", "ENOKEY",
	"EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
	"ENOTRECOVERABLE", "ERFKILL", "EHWPOISON",
};

/* The kernel-internal ones (include/linux/errno.h). */
static const char *const kernnames[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
	"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	"EBADHANDLE", "ENOTSYNC", "EBADCOOKIE", "ENOTSUPP", "ETOOSMALL",
	"ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED", "ERECALLCONFLICT",
};

const char *errno_name(long e)
{
	if (e < 0)
		e = -e;
	if (e > 0 && e < (long)ARRAY_SIZE(errnames) && errnames[e])
		return errnames[e];
	if (e >= 512 && e < 512 + (long)ARRAY_SIZE(kernnames))
		return kernnames[e - 512];
	return "E?";
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	int h, l;

	while (*s) {
		h = s[0] == '\\' && s[1] == 'x' ? hexval(s[2]) : -1;
		l = h >= 0 ? hexval(s[3]) : -1;
		if (l >= 0) {
			*o++ = (char)(h * 16 + l);
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

int common_option(int argc, char **argv, int i, void (*help)(void))
{
	const char *a = argv[i];

	if (!strcmp(a, "--json")) {
		g_json = 1;
		return 1;
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		help();
		exit(0);
	}
	if (!strcmp(a, "--root")) {
		if (i + 1 >= argc)
			usage_error("option --root needs a directory");
		g_root = argv[i + 1];
		return 2;
	}
	if (!strncmp(a, "--root=", 7)) {
		g_root = a + 7;
		return 1;
	}
	return 0;
}

/*
 * A name for a line of text output: escaped as the snapshot escapes it
 * (a byte below 0x21 or above 0x7e, and '\', as \xHH), so a line never
 * holds a control character and its fields split at spaces. "-" for NULL.
 */
const char *esc(const char *s)
{
	const unsigned char *p;
	char *out, *o;

	if (!s)
		return "-";
	out = xmalloc(strlen(s) * 4 + 1);
	for (o = out, p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x21 || *p > 0x7e || *p == '\\')
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}
