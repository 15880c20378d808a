// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's own files, at its root: events (the event log; a reader
 * blocks for new events and may poll), control (commands that build and
 * take down a model, control.c) and stats (live objects by type, events
 * sent, queued and dropped), shown at the root of the filesystem
 * (dmcfs.c); also the rules its attribute files follow at open and on an
 * error.
 */

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "base.h"
#include "control.h"
#include "tree_files.h"

/*
 * A kernel-internal errno (ERESTART*, EPROBE_DEFER, ...: 512..529) from a
 * show, store or command never reaches userspace: -EAGAIN for a deferral,
 * -EIO for the rest; a restart request stays when a signal is pending,
 * which is when the signal code turns it into a restart or -EINTR.
 */
ssize_t dmc_tree_errno(ssize_t ret, const char *what)
{
	if (ret > -512 || ret < -529)
		return ret;
	if ((ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	     ret == -ERESTARTNOHAND) && signal_pending(current))
		return ret;
	pr_warn_ratelimited("dmcore: tree: %s returned kernel-internal error %zd, reported as %d\n",
			    what, ret, ret == -EPROBE_DEFER ? -EAGAIN : -EIO);
	return ret == -EPROBE_DEFER ? -EAGAIN : -EIO;
}

/*
 * Refuse at open what the file's mode does not allow, as sysfs does
 * (kernfs_fop_open()): root passes the permission check of a 0444 file
 * opened for writing, so the mode is checked here.
 */
int dmc_tree_check_open(struct file *file, umode_t mode)
{
	if ((file->f_mode & FMODE_READ) && !(mode & 0444))
		return -EACCES;
	if ((file->f_mode & FMODE_WRITE) && !(mode & 0222))
		return -EACCES;
	return 0;
}

/* ---- events ---------------------------------------------------------------- */

/* What one reader of the events file has seen so far. */
struct dmc_events_reader {
	struct mutex lock;	/* one read at a time on this file */
	u64 pos;		/* next SEQNUM to read */
	char *rec;		/* the record being copied out */
	size_t len, off;
};

/*
 * A record: a header line "SEQNUM=n ACTION=a DEVPATH=p SUBSYSTEM=s", each
 * further variable on its own line, then a blank line. A reader that fell
 * behind the log first gets "MISSED=n" and a blank line.
 */
static char *dmc_events_format(const struct dmc_uevent *ev, u64 missed,
			       size_t *len)
{
	size_t size = ev->len + 64;
	const char *s = ev->buf;
	unsigned int i;
	char *rec;
	int n;

	rec = kmalloc(size, GFP_KERNEL);
	if (!rec)
		return NULL;
	n = 0;
	if (missed)
		n += scnprintf(rec, size, "MISSED=%llu\n\n", missed);
	n += scnprintf(rec + n, size - n, "SEQNUM=%llu ACTION=%s DEVPATH=%s SUBSYSTEM=%s\n",
		       ev->seqnum, dmc_kobject_action_name(ev->action),
		       ev->devpath, ev->subsystem);
	/* Skip the fixed four, already in the header. */
	for (i = 0; i < ev->nvars; i++) {
		if (i >= 4)
			n += scnprintf(rec + n, size - n, "%s\n", s);
		s += strlen(s) + 1;
	}
	n += scnprintf(rec + n, size - n, "\n");
	*len = n;
	return rec;
}

static int dmc_events_open(struct inode *inode, struct file *file)
{
	struct dmc_events_reader *r;
	int err;

	err = dmc_tree_check_open(file, 0444);
	if (err)
		return err;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	mutex_init(&r->lock);
	r->pos = 1;
	file->private_data = r;
	return nonseekable_open(inode, file);
}

/*
 * Copy out whole records while they fit. With nothing to read, block
 * until an event comes (or return -EAGAIN for O_NONBLOCK); once something
 * was copied, return it rather than wait for more.
 */
static ssize_t dmc_events_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct dmc_events_reader *r = file->private_data;
	struct dmc_uevent *ev;
	size_t done = 0, n;
	ssize_t ret = 0;
	u64 missed;

	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	while (done < count) {
		if (r->off == r->len) {
			kfree(r->rec);
			r->rec = NULL;
			r->len = 0;
			r->off = 0;
			ev = dmc_event_log_next(&r->pos, &missed);
			if (!ev) {
				if (done)
					break;
				if (file->f_flags & O_NONBLOCK) {
					ret = -EAGAIN;
					break;
				}
				ret = dmc_event_log_wait(r->pos);
				if (ret)
					break;
				continue;
			}
			r->rec = dmc_events_format(ev, missed, &r->len);
			dmc_uevent_put(ev);
			if (!r->rec) {
				ret = -ENOMEM;
				break;
			}
		}
		n = min(count - done, r->len - r->off);
		if (copy_to_user(buf + done, r->rec + r->off, n)) {
			ret = -EFAULT;
			break;
		}
		r->off += n;
		done += n;
	}
	mutex_unlock(&r->lock);
	return done ? done : ret;
}

static __poll_t dmc_events_poll(struct file *file, poll_table *wait)
{
	struct dmc_events_reader *r = file->private_data;

	if (r->off < r->len)
		return EPOLLIN | EPOLLRDNORM;
	return dmc_event_log_poll(file, wait, r->pos);
}

static int dmc_events_release(struct inode *inode, struct file *file)
{
	struct dmc_events_reader *r = file->private_data;

	kfree(r->rec);
	kfree(r);
	return 0;
}

static const struct file_operations dmc_events_fops = {
	.owner = THIS_MODULE,
	.open = dmc_events_open,
	.read = dmc_events_read,
	.poll = dmc_events_poll,
	.release = dmc_events_release,
	.llseek = no_llseek,
};

/* ---- control --------------------------------------------------------------- */

static ssize_t dmc_control_write(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	char *kbuf;
	int err;

	if (count > PAGE_SIZE) {
		pr_err_ratelimited("dmcore: control: a command is at most %lu bytes\n",
				   PAGE_SIZE);
		return -E2BIG;
	}
	kbuf = memdup_user_nul(buf, count);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);
	err = dmc_control_exec(kbuf, count);
	kfree(kbuf);
	return err ? dmc_tree_errno(err, "control") : count;
}

static int dmc_control_open(struct inode *inode, struct file *file)
{
	int err = dmc_tree_check_open(file, 0200);

	return err ?: nonseekable_open(inode, file);
}

static const struct file_operations dmc_control_fops = {
	.owner = THIS_MODULE,
	.open = dmc_control_open,
	.write = dmc_control_write,
	.llseek = no_llseek,
};

/* ---- stats ----------------------------------------------------------------- */

#define DMC_STATS_TYPES	16

static int dmc_stats_show(struct seq_file *m, void *v)
{
	unsigned long counts[DMC_STATS_TYPES] = { 0 };
	const char *names[DMC_STATS_TYPES];
	struct dmc_event_stats es;
	unsigned int i, n;

	n = dmc_kobject_live_by_type(names, counts, DMC_STATS_TYPES);
	dmc_event_log_stats(&es);
	seq_printf(m, "objects_live %lu\n", dmc_kobject_live_count());
	for (i = 0; i < n; i++)
		seq_printf(m, "objects_%s %lu\n", names[i], counts[i]);
	seq_printf(m, "events_sent %llu\n", es.sent);
	seq_printf(m, "events_dropped %llu\n", es.dropped);
	seq_printf(m, "events_queued %u\n", es.queued);
	seq_printf(m, "event_log_capacity %u\n", es.capacity);
	seq_printf(m, "last_seqnum %llu\n", es.last_seqnum);
	seq_printf(m, "probe_calls %lu\n", dmc_probe_count());
	seq_printf(m, "misuse_reports %lu\n", dmc_misuse_count());
	return 0;
}

static int dmc_stats_open(struct inode *inode, struct file *file)
{
	int err = dmc_tree_check_open(file, 0444);

	return err ?: single_open(file, dmc_stats_show, NULL);
}

static const struct file_operations dmc_stats_fops = {
	.owner = THIS_MODULE,
	.open = dmc_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- devices_deferred ------------------------------------------------------- */

static int dmc_deferred_file_show(struct seq_file *m, void *v)
{
	dmc_deferred_show(m);
	return 0;
}

static int dmc_deferred_file_open(struct inode *inode, struct file *file)
{
	int err = dmc_tree_check_open(file, 0444);

	return err ?: single_open(file, dmc_deferred_file_show, NULL);
}

static const struct file_operations dmc_deferred_fops = {
	.owner = THIS_MODULE,
	.open = dmc_deferred_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- device_links ---------------------------------------------------------- */

static int dmc_links_file_show(struct seq_file *m, void *v)
{
	dmc_device_links_show(m);
	return 0;
}

static int dmc_links_file_open(struct inode *inode, struct file *file)
{
	int err = dmc_tree_check_open(file, 0444);

	return err ?: single_open(file, dmc_links_file_show, NULL);
}

static const struct file_operations dmc_links_fops = {
	.owner = THIS_MODULE,
	.open = dmc_links_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- snapshot ------------------------------------------------------------ */

/* The text, built once at open (snapshot.c): every read sees one state. */
struct dmc_snapshot_file {
	char *text;
	size_t len;
};

static int dmc_snapshot_open(struct inode *inode, struct file *file)
{
	struct dmc_snapshot_file *sf;
	int err = dmc_tree_check_open(file, 0444);

	if (err)
		return err;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	sf->text = dmc_model_snapshot(&sf->len);
	if (IS_ERR(sf->text)) {
		err = PTR_ERR(sf->text);
		kfree(sf);
		return err;
	}
	file->private_data = sf;
	return 0;
}

static ssize_t dmc_snapshot_read(struct file *file, char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct dmc_snapshot_file *sf = file->private_data;

	return simple_read_from_buffer(buf, count, ppos, sf->text, sf->len);
}

static int dmc_snapshot_release(struct inode *inode, struct file *file)
{
	struct dmc_snapshot_file *sf = file->private_data;

	kvfree(sf->text);
	kfree(sf);
	return 0;
}

static const struct file_operations dmc_snapshot_fops = {
	.owner = THIS_MODULE,
	.open = dmc_snapshot_open,
	.read = dmc_snapshot_read,
	.llseek = default_llseek,
	.release = dmc_snapshot_release,
};

/* The root's files, in the order a directory listing shows them. */
const struct dmc_tree_file dmc_tree_files[] = {
	{ "events", 0444, &dmc_events_fops },
	{ "control", 0200, &dmc_control_fops },
	{ "stats", 0444, &dmc_stats_fops },
	{ "devices_deferred", 0444, &dmc_deferred_fops },
	{ "device_links", 0444, &dmc_links_fops },
	{ "snapshot", 0444, &dmc_snapshot_fops },
	{ }
};

/**
 * dmc_tree_file_find() - the root file called @name
 * @name: a name
 *
 * Return: its entry in dmc_tree_files, or NULL.
 */
const struct dmc_tree_file *dmc_tree_file_find(const char *name)
{
	const struct dmc_tree_file *tf;

	for (tf = dmc_tree_files; tf->name; tf++)
		if (!strcmp(tf->name, name))
			return tf;
	return NULL;
}
