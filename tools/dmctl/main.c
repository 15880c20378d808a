// SPDX-License-Identifier: GPL-2.0
/*
 * dmctl -- look at dmcore's model: the device tree, events, the graph of
 * devices, buses, drivers, classes and links, why a device is or is not
 * bound, a device's record and files, and the probe statistics. Reads the
 * files of /sys/kernel/debug/dmcore (or --root DIR); never writes.
 *
 * Exit status: 0 ok, 1 a failure (an unknown device, a file that cannot
 * be read, a bad snapshot), 2 a usage error. Messages are one line on
 * stderr, starting with "dmctl: ".
 */
#include <stdlib.h>
#include <string.h>

#include "dmctl.h"

const char *g_root = DMCTL_DEFAULT_ROOT;
int g_json;

void help_main(void)
{
	static const char text[] =
"usage: dmctl [--root DIR] [--json] COMMAND [ARGS]\n"
"\n"
"Look at dmcore's device model through the files of its tree.\n"
"\n"
"Commands:\n"
"  tree [PATH]         the device hierarchy (bus, class, driver, power)\n"
"  monitor [OPTIONS]   print events as they come (like udevadm monitor)\n"
"  graph [--dot]       devices, buses, drivers, classes and their edges\n"
"  why DEVICE          why DEVICE is or is not bound to a driver\n"
"  info DEVICE         DEVICE's snapshot record and its attribute files\n"
"  stats               the stats file, with per-driver probe histograms\n"
"  help [COMMAND]      this text, or a command's\n"
"\n"
"Global options (before or after the command):\n"
"  --root DIR          the tree's root (default " DMCTL_DEFAULT_ROOT ",\n"
"                      or $DMCTL_ROOT when set)\n"
"  --json              JSON output (every command)\n"
"  -h, --help          help\n"
"\n"
"DEVICE is a DEVPATH (/devices/soc0/uart0), a tree path (devices/soc0/uart0)\n"
"or a device name (uart0) when no other device has it.\n"
"Exit status: 0 ok, 1 failure (unknown device, unreadable file, bad\n"
"snapshot), 2 usage error.\n";

	fputs(text, stdout);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*help)(void);
} cmds[] = {
	{ "tree", cmd_tree, help_tree },
	{ "monitor", cmd_monitor, help_monitor },
	{ "graph", cmd_graph, help_graph },
	{ "why", cmd_why, help_why },
	{ "info", cmd_info, help_info },
	{ "stats", cmd_stats, help_stats },
};

#define NCMDS ((int)ARRAY_SIZE(cmds))

static int find_cmd(const char *name)
{
	int i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	const char *env = getenv("DMCTL_ROOT");
	int i = 1, n, c;

	if (env && *env)
		g_root = env;
	while (i < argc && argv[i][0] == '-') {
		n = common_option(argc, argv, i, help_main);
		if (!n)
			usage_error("unknown option '%s'", argv[i]);
		i += n;
	}
	if (i >= argc)
		usage_error("no command given");
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			help_main();
			return 0;
		}
		c = find_cmd(argv[i + 1]);
		if (c < 0)
			usage_error("unknown command '%s'", argv[i + 1]);
		cmds[c].help();
		return 0;
	}
	c = find_cmd(argv[i]);
	if (c < 0)
		usage_error("unknown command '%s'", argv[i]);
	if (!*g_root)
		usage_error("--root needs a directory");
	/* The command parses its own arguments: argv[0] is its name. */
	return cmds[c].fn(argc - i, argv + i);
}
