// SPDX-License-Identifier: GPL-2.0
/*
 * The floor under an eager tree: the entries dmcore's tree shows for an
 * unbound device on a bus, created directly as debugfs entries (what the
 * old eager mirror made), with nothing else. Per device:
 *
 *	devices/<dev>/			directory
 *	devices/<dev>/uevent		file
 *	devices/<dev>/devres		file (since devres, 7 December 2026)
 *	devices/<dev>/driver_override	file (since issue 15's driver_override)
 *	devices/<dev>/state_synced	file (since managed links' sync_state)
 *	devices/<dev>/power/		directory (the "power" group)
 *	devices/<dev>/power/state	file
 *	devices/<dev>/power/{runtime_status,control,runtime_usage,
 *	  runtime_active_kids,runtime_enabled,autosuspend_delay_ms}
 *					files (since runtime PM)
 *	devices/<dev>/subsystem		symlink to the bus
 *	bus/dmcbench/devices/<dev>	symlink to the device
 *
 * Whatever an eager tree costs beyond this is its own bookkeeping; dmcfs
 * makes none of it until someone looks.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/vmalloc.h>

#include "dmc_bench.h"

#define FLOOR_ENTRIES_PER_DEVICE	15

static ssize_t floor_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "on\n", 3);
}

static const struct file_operations floor_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = floor_read,
	.llseek = default_llseek,
};

struct floor_dev {
	struct dentry *dir;
	struct dentry *link;
};

static int floor_add(struct floor_dev *fd, unsigned int i, struct dentry *devices,
		     struct dentry *busdevs)
{
	static const char * const floor_runtime_files[] = {
		"runtime_status", "control", "runtime_usage",
		"runtime_active_kids", "runtime_enabled", "autosuspend_delay_ms",
		NULL
	};
	const char * const *r;
	struct dentry *power;
	char name[16], target[48];

	snprintf(name, sizeof(name), "d%u", i);
	fd->dir = debugfs_create_dir(name, devices);
	if (IS_ERR(fd->dir))
		return PTR_ERR(fd->dir);
	debugfs_create_file("uevent", 0644, fd->dir, fd, &floor_fops);
	debugfs_create_file("devres", 0444, fd->dir, fd, &floor_fops);
	debugfs_create_file("driver_override", 0644, fd->dir, fd, &floor_fops);
	debugfs_create_file("state_synced", 0444, fd->dir, fd, &floor_fops);
	power = debugfs_create_dir("power", fd->dir);
	debugfs_create_file("state", 0644, power, fd, &floor_fops);
	for (r = floor_runtime_files; *r; r++)
		debugfs_create_file(*r, 0644, power, fd, &floor_fops);
	debugfs_create_symlink("subsystem", fd->dir, "../../bus/dmcbench");
	snprintf(target, sizeof(target), "../../../devices/%s", name);
	fd->link = debugfs_create_symlink(name, busdevs, target);
	return 0;
}

/**
 * dmc_bench_floor() - create and remove the mirror's entries of @n devices
 * @n: devices
 * @r: ns[0] creation, ns[1] removal; entries per device; slab bytes per
 *	device while they existed
 *
 * Context: process; the bench's debugfs directory "floor" must not exist.
 * Return: 0 or a negative errno.
 */
int dmc_bench_floor(unsigned int n, struct dmc_bench_result *r)
{
	struct dentry *top, *devices, *busdevs;
	struct floor_dev *fds;
	unsigned int i, made = 0;
	s64 before;
	u64 t;
	int err = 0;

	fds = vcalloc(n, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	before = dmc_bench_slab_bytes();
	top = debugfs_create_dir("dmc_bench_floor", NULL);
	devices = debugfs_create_dir("devices", top);
	busdevs = debugfs_create_dir("dmcbench", debugfs_create_dir("bus", top));
	busdevs = debugfs_create_dir("devices", busdevs);
	if (IS_ERR(busdevs)) {
		err = PTR_ERR(busdevs);
		goto out;
	}
	t = ktime_get_ns();
	for (i = 0; i < n && !err; i++) {
		err = floor_add(&fds[i], i, devices, busdevs);
		made += !err;
	}
	r->ns[0] = ktime_get_ns() - t;
	if (!err) {
		r->mem = div_s64(dmc_bench_slab_bytes() - before, n);
		r->count = made;
		r->entries = FLOOR_ENTRIES_PER_DEVICE;
	}
	t = ktime_get_ns();
	while (made--) {
		debugfs_remove(fds[made].link);
		debugfs_remove(fds[made].dir);
	}
	r->ns[1] = ktime_get_ns() - t;
out:
	debugfs_remove(top);
	vfree(fds);
	return err;
}
