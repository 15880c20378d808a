// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs mirror of the model, /sys/kernel/debug/dmcore. It plays
 * the part fs/sysfs/ plays for Linux's kobjects, with one difference
 * the seed article asks for: sysfs here is only a view. The core never
 * calls into this file; the export is a dmc_listener, told of every object
 * entering, leaving, renamed or moved in the tree, and it reads the event
 * log through the core's public calls. With export=0 none of it exists and
 * the core runs the same.
 *
 * Every kobject becomes a directory nested as in the tree. The export
 * keeps its own index from kobject to dentry; it never holds a reference
 * on a kobject, so it cannot keep one alive.
 *
 * Top-level files:
 *   events	the event log, one record per event (see dmc_events_format())
 *   stats	live objects, events sent, queued and dropped, misuse reports
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "base.h"

/* One exported object: its directory. */
struct dmc_export_node {
	struct rhash_head hnode;
	const struct dmc_kobject *kobj;
	struct dentry *dir;
};

static const struct rhashtable_params dmc_export_params = {
	.head_offset = offsetof(struct dmc_export_node, hnode),
	.key_offset = offsetof(struct dmc_export_node, kobj),
	.key_len = sizeof(const struct dmc_kobject *),
	.automatic_shrinking = true,
};

static struct rhashtable dmc_export_index;
static struct dentry *dmc_export_root;

/* Tree callbacks are serialized by the core's tree lock. */
static struct dmc_export_node *dmc_export_lookup(const struct dmc_kobject *kobj)
{
	return rhashtable_lookup_fast(&dmc_export_index, &kobj, dmc_export_params);
}

static struct dentry *dmc_export_dir_of(const struct dmc_kobject *kobj)
{
	struct dmc_export_node *node;

	if (!kobj)
		return dmc_export_root;
	node = dmc_export_lookup(kobj);
	return node ? node->dir : NULL;
}

static void dmc_export_kobj_added(struct dmc_listener *l,
				  struct dmc_kobject *kobj)
{
	struct dmc_export_node *node;
	struct dentry *parent, *dir;

	parent = dmc_export_dir_of(kobj->parent);
	if (!parent)
		return;		/* the parent could not be exported */
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		goto err;
	dir = debugfs_create_dir(kobj->name, parent);
	if (IS_ERR(dir))
		goto err_free;
	node->kobj = kobj;
	node->dir = dir;
	if (rhashtable_insert_fast(&dmc_export_index, &node->hnode,
				   dmc_export_params))
		goto err_remove;
	return;

err_remove:
	debugfs_remove(dir);
err_free:
	kfree(node);
err:
	pr_warn_ratelimited("dmcore: export: cannot mirror '%s'\n", kobj->name);
}

static void dmc_export_kobj_removed(struct dmc_listener *l,
				    struct dmc_kobject *kobj)
{
	struct dmc_export_node *node = dmc_export_lookup(kobj);

	if (!node)
		return;
	rhashtable_remove_fast(&dmc_export_index, &node->hnode, dmc_export_params);
	debugfs_remove(node->dir);
	kfree(node);
}

static void dmc_export_move(struct dmc_kobject *kobj,
			    struct dmc_kobject *old_parent)
{
	struct dmc_export_node *node = dmc_export_lookup(kobj);
	struct dentry *old_dir, *new_dir, *d;

	if (!node)
		return;
	old_dir = dmc_export_dir_of(old_parent);
	new_dir = dmc_export_dir_of(kobj->parent);
	if (!old_dir || !new_dir)
		return;
	d = debugfs_rename(old_dir, node->dir, new_dir, kobj->name);
	if (IS_ERR(d))
		pr_warn_ratelimited("dmcore: export: cannot rename '%s': %ld\n",
				    kobj->name, PTR_ERR(d));
}

static void dmc_export_kobj_renamed(struct dmc_listener *l,
				    struct dmc_kobject *kobj,
				    const char *old_name)
{
	dmc_export_move(kobj, kobj->parent);
}

static void dmc_export_kobj_moved(struct dmc_listener *l,
				  struct dmc_kobject *kobj,
				  struct dmc_kobject *old_parent)
{
	dmc_export_move(kobj, old_parent);
}

static struct dmc_listener dmc_export_listener = {
	.kobj_added = dmc_export_kobj_added,
	.kobj_removed = dmc_export_kobj_removed,
	.kobj_renamed = dmc_export_kobj_renamed,
	.kobj_moved = dmc_export_kobj_moved,
};

/* ---- events ---------------------------------------------------------------- */

/* What one reader of the events file has seen so far. */
struct dmc_events_reader {
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

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->pos = 1;
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static ssize_t dmc_events_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct dmc_events_reader *r = file->private_data;
	struct dmc_uevent *ev;
	size_t done = 0, n;
	u64 missed;

	while (done < count) {
		if (r->off == r->len) {
			kfree(r->rec);
			r->rec = NULL;
			r->len = 0;
			r->off = 0;
			ev = dmc_event_log_next(&r->pos, &missed);
			if (!ev)
				break;
			r->rec = dmc_events_format(ev, missed, &r->len);
			dmc_uevent_put(ev);
			if (!r->rec)
				return done ? done : -ENOMEM;
		}
		n = min(count - done, r->len - r->off);
		if (copy_to_user(buf + done, r->rec + r->off, n))
			return done ? done : -EFAULT;
		r->off += n;
		done += n;
	}
	return done;
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
	.release = dmc_events_release,
	.llseek = no_llseek,
};

/* ---- stats ----------------------------------------------------------------- */

static int dmc_stats_show(struct seq_file *m, void *v)
{
	struct dmc_event_stats es;

	dmc_event_log_stats(&es);
	seq_printf(m, "objects_live %lu\n", dmc_kobject_live_count());
	seq_printf(m, "events_sent %llu\n", es.sent);
	seq_printf(m, "events_dropped %llu\n", es.dropped);
	seq_printf(m, "events_queued %u\n", es.queued);
	seq_printf(m, "event_log_capacity %u\n", es.capacity);
	seq_printf(m, "last_seqnum %llu\n", es.last_seqnum);
	seq_printf(m, "misuse_reports %lu\n", dmc_misuse_count());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dmc_stats);

/* ---- setup ----------------------------------------------------------------- */

/*
 * Start the mirror. A failure to create the debugfs root is logged and
 * leaves the export off: the model works without its view.
 */
int dmc_export_init(void)
{
	struct dentry *root;
	int err;

	err = rhashtable_init(&dmc_export_index, &dmc_export_params);
	if (err)
		return err;
	root = debugfs_create_dir("dmcore", NULL);
	if (IS_ERR(root)) {
		pr_warn("dmcore: export off: cannot create debugfs root: %ld\n",
			PTR_ERR(root));
		rhashtable_destroy(&dmc_export_index);
		return 0;
	}
	dmc_export_root = root;
	debugfs_create_file("events", 0444, root, NULL, &dmc_events_fops);
	debugfs_create_file("stats", 0444, root, NULL, &dmc_stats_fops);
	return dmc_listener_register(&dmc_export_listener);
}

static void dmc_export_free_node(void *ptr, void *arg)
{
	kfree(ptr);
}

void dmc_export_exit(void)
{
	if (!dmc_export_root)
		return;
	dmc_listener_unregister(&dmc_export_listener);
	debugfs_remove(dmc_export_root);
	dmc_export_root = NULL;
	rhashtable_free_and_destroy(&dmc_export_index, dmc_export_free_node,
				    NULL);
}
