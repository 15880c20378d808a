// SPDX-License-Identifier: GPL-2.0
/*
 * dmc_bench: dmcore against the kernel's own driver core, in one boot.
 *
 * The guest drives it through one debugfs file, /sys/kernel/debug/
 * dmc_bench/run: write a command, read back one result line.
 *
 *	devices real|dmc N	register N devices on a bus without
 *				drivers, then unregister them
 *	bind real|dmc N		100 drivers, N devices each matching one
 *	bindkey dmc N		the same on a bus with a match index
 *				(match.c): each device's probe asks the
 *				one driver its key names
 *	lookup real|dmc N L	L lookups by name among N devices
 *	chain real|dmc N	N devices, each deferring until the
 *				previous one is bound
 *	events real|dmc N	N "add"/"remove" events on min(N, 100)
 *				devices; on dmcore the event log is resized
 *				to hold exactly them and the devices'
 *				"remove" events, for a reader of
 *				dmcore/events
 *	evlog CAPACITY		resize dmcore's event log
 *	floor N			raw debugfs: the mirror's entries for N
 *				devices, created and removed
 *	hold N | release	leave N dmcore devices registered / remove them
 *	holdreal N		leave N real devices registered (release: both)
 *	phases devices|bind|bindkey N
 *				dmcore's side of that scenario with the
 *				core's phase clocks on; the line also
 *				gives each phase's total ("ph_<name>=
 *				cycles/calls") and the clock's rate
 *				("tsc_khz=")
 *	sample on|off		sample the writing task's time in the
 *				kernel from now on (the shell's commands
 *				that follow) / stop; dmc_bench/samples
 *				then lists one function per sample
 *				(sample.c)
 *
 * A result line is "cmd=... side=... n=... ns0=... ns1=... ns2=...
 * count=... probes=... ops=... mem=... entries=... err=...": phase totals
 * in ns (see scripts/bench.sh for which phase is which), what was counted,
 * slab bytes per device. Commands run one at a time, in the writer.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mm.h>
#include <dmcore/device.h>
#include <dmcore/phase.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "dmc_bench.h"

static DEFINE_MUTEX(dmc_bench_lock);	/* one command at a time; the result */
static char dmc_bench_out[1536];
static char dmc_bench_extra[1024];	/* the phases' part of the line */
static struct dentry *dmc_bench_dir;

s64 dmc_bench_slab_bytes(void)
{
	return (s64)(global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B) +
		     global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B))
		<< PAGE_SHIFT;
}

static int dmc_bench_run(const char *cmd, const char *side, unsigned int n,
			 unsigned int l, struct dmc_bench_result *r)
{
	bool real = !strcmp(side, "real");

	if (!real && strcmp(side, "dmc"))
		return -EINVAL;
	if (!n)
		return -EINVAL;
	if (!strcmp(cmd, "devices"))
		return real ? dmc_bench_real_devices(n, r) :
			      dmc_bench_dmc_devices(n, r);
	if (!strcmp(cmd, "bind"))
		return real ? dmc_bench_real_bind(n, r) : dmc_bench_dmc_bind(n, false, r);
	if (!strcmp(cmd, "bindkey"))	/* Linux has no match index */
		return real ? -EINVAL : dmc_bench_dmc_bind(n, true, r);
	if (!strcmp(cmd, "lookup")) {
		if (!l || l > n)
			return -EINVAL;
		return real ? dmc_bench_real_lookup(n, l, r) :
			      dmc_bench_dmc_lookup(n, l, r);
	}
	if (!strcmp(cmd, "chain"))
		return real ? dmc_bench_real_chain(n, r) : dmc_bench_dmc_chain(n, r);
	if (!strcmp(cmd, "events")) {
		if (real)
			return dmc_bench_real_events(n, r);
		/* The log then holds the n events and the teardown's removes. */
		if (n + min(n, 100U) <= DMC_EVENT_LOG_MAX) {
			int err = dmc_event_log_set_capacity(n + min(n, 100U));

			if (err)
				return err;
		}
		return dmc_bench_dmc_events(n, r);
	}
	return -EINVAL;
}

/*
 * dmcore's devices or bind scenario with the phase clocks on, their
 * totals appended to @out.
 */
static int dmc_bench_phases(const char *scen, unsigned int n,
			    struct dmc_bench_result *r, char *out, size_t size)
{
	struct dmc_phase_stats st;
	unsigned int khz = 0;
	size_t len = 0;
	int err, i;

	if (strcmp(scen, "devices") && strcmp(scen, "bind") && strcmp(scen, "bindkey"))
		return -EINVAL;
	dmc_phase_clocks(true);
	if (!strcmp(scen, "devices"))
		err = dmc_bench_dmc_devices(n, r);
	else
		err = dmc_bench_dmc_bind(n, !strcmp(scen, "bindkey"), r);
	dmc_phase_read(&st);
	dmc_phase_clocks(false);
#ifdef CONFIG_X86
	khz = tsc_khz;
#endif
	len += scnprintf(out + len, size - len, " tsc_khz=%u", khz);
	for (i = 0; i < DMC_PHASE_NR; i++)
		len += scnprintf(out + len, size - len, " ph_%s=%llu/%llu",
				 dmc_phase_name(i), st.cycles[i], st.calls[i]);
	return err;
}

static ssize_t dmc_bench_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct dmc_bench_result r = {};
	char buf[80], cmd[16], side[8] = "-";
	unsigned int n = 0, l = 0;
	int err, args;

	if (count >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	args = sscanf(buf, "%15s %7s %u %u", cmd, side, &n, &l);
	if (args < 1)
		return -EINVAL;

	mutex_lock(&dmc_bench_lock);
	dmc_bench_extra[0] = '\0';
	if (!strcmp(cmd, "floor") && args >= 2 && !kstrtouint(side, 10, &n) && n) {
		err = dmc_bench_floor(n, &r);
		strscpy(side, "debugfs", sizeof(side));
	} else if (!strcmp(cmd, "hold") && args >= 2 && !kstrtouint(side, 10, &n) && n) {
		err = dmc_bench_dmc_hold(n);
		strscpy(side, "dmc", sizeof(side));
	} else if (!strcmp(cmd, "holdreal") && args >= 2 && !kstrtouint(side, 10, &n) && n) {
		err = dmc_bench_real_hold(n);
		strscpy(side, "real", sizeof(side));
	} else if (!strcmp(cmd, "release")) {
		dmc_bench_dmc_release_held();
		dmc_bench_real_release_held();
		err = 0;
	} else if (!strcmp(cmd, "phases") && args >= 3 && n) {
		err = dmc_bench_phases(side, n, &r, dmc_bench_extra,
				       sizeof(dmc_bench_extra));
	} else if (!strcmp(cmd, "sample") && args >= 2) {
		err = -EINVAL;
		if (!strcmp(side, "on"))
			err = dmc_bench_sample_start();
		if (!strcmp(side, "off")) {
			dmc_bench_sample_stop();
			n = dmc_bench_samples(&l);
			r.count = n;
			r.ops = l;
			err = 0;
		}
	} else if (!strcmp(cmd, "evlog") && args >= 2 && !kstrtouint(side, 10, &n)) {
		err = dmc_event_log_set_capacity(n);
	} else if (args >= 3) {
		if (args == 3)
			l = n;
		err = dmc_bench_run(cmd, side, n, l, &r);
	} else {
		err = -EINVAL;
	}
	snprintf(dmc_bench_out, sizeof(dmc_bench_out),
		 "cmd=%s side=%s n=%u ns0=%llu ns1=%llu ns2=%llu count=%llu probes=%llu ops=%llu mem=%lld entries=%llu err=%d%s\n",
		 cmd, side, n, r.ns[0], r.ns[1], r.ns[2], r.count, r.probes,
		 r.ops, r.mem, r.entries, err, dmc_bench_extra);
	mutex_unlock(&dmc_bench_lock);
	return err ? err : count;
}

static ssize_t dmc_bench_read(struct file *file, char __user *buf, size_t count,
			      loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&dmc_bench_lock);
	ret = simple_read_from_buffer(buf, count, ppos, dmc_bench_out,
				      strlen(dmc_bench_out));
	mutex_unlock(&dmc_bench_lock);
	return ret;
}

static const struct file_operations dmc_bench_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = dmc_bench_read,
	.write = dmc_bench_write,
	.llseek = default_llseek,
};

static int dmc_bench_samples_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &dmc_bench_sample_seq_ops);
}

static const struct file_operations dmc_bench_samples_fops = {
	.owner = THIS_MODULE,
	.open = dmc_bench_samples_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static int __init dmc_bench_init(void)
{
	int err;

	err = dmc_bench_real_init();
	if (err)
		return err;
	err = dmc_bench_dmc_init();
	if (err)
		goto err_real;
	dmc_bench_dir = debugfs_create_dir("dmc_bench", NULL);
	debugfs_create_file("run", 0600, dmc_bench_dir, NULL, &dmc_bench_fops);
	debugfs_create_file("samples", 0400, dmc_bench_dir, NULL,
			    &dmc_bench_samples_fops);
	return 0;
err_real:
	dmc_bench_real_exit();
	return err;
}

static void __exit dmc_bench_exit(void)
{
	debugfs_remove(dmc_bench_dir);
	dmc_bench_sample_free();
	dmc_bench_dmc_exit();
	dmc_bench_real_exit();
}

module_init(dmc_bench_init);
module_exit(dmc_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore against the kernel's driver core: benchmark scenarios");
