// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs mirror of the model, /sys/kernel/debug/dmcore. It plays
 * the part fs/sysfs/ plays for Linux's kobjects, with one difference
 * the seed article asks for: sysfs here is only a view. The core never
 * calls into this file; the export is a dmc_listener, told of every object
 * entering, leaving, renamed or moved in the tree and of every link, and
 * it reads attributes and the event log through the core's calls. With
 * export=0 none of it exists and the core runs the same.
 *
 *   <object>/		a directory per kobject, nested as in the tree
 *   <object>/<attr>	each attribute of each of its groups (a named group
 *			is a subdirectory, e.g. power/state), read and
 *			written through the type's show/store, with its mode
 *   <object>/<link>	relative symlinks: a device's "driver" and
 *			"subsystem", bus/<bus>/devices/<dev>,
 *			bus/<bus>/drivers/<drv>/<dev>, class/<class>/<dev>
 *   events		the event log; a reader blocks for new events
 *   control		commands that build and take down a model (control.c)
 *   stats		live objects by type, events sent, queued and dropped
 *
 * Lifetime. The export never holds a reference on an object between
 * calls. Each mirrored object has a node; an attribute file reaches its
 * object only through the node, under the node's lock, and only while the
 * node is alive: when the object leaves the tree the node is marked dead
 * first, so a file held open returns -ENODEV from then on (-EIO from
 * debugfs once the directory has been reaped), never stale data. The
 * object's directory is then renamed into dmcore/.removed/ and removed
 * by a worker: debugfs_remove() waits for reads and writes in
 * flight, and one of those may itself be waiting for the core's tree lock,
 * which the listener holds, so waiting right there could deadlock.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "base.h"
#include "control.h"

/* One mirrored object: its directory and the files made in it. */
struct dmc_export_node {
	struct rhash_head hnode;
	struct dmc_kobject *kobj;	/* NULL once the object left the tree */
	struct dentry *dir;
	struct list_head files;		/* struct dmc_export_file */
	struct list_head dead;		/* on dmc_export_graveyard */
	spinlock_t lock;		/* protects kobj */
};

/* An attribute file: its node and attribute (the file's i_private). */
struct dmc_export_file {
	struct list_head node_entry;
	struct dmc_export_node *node;
	struct dmc_attribute *attr;
};

static const struct rhashtable_params dmc_export_params = {
	.head_offset = offsetof(struct dmc_export_node, hnode),
	.key_offset = offsetof(struct dmc_export_node, kobj),
	.key_len = sizeof(struct dmc_kobject *),
	.automatic_shrinking = true,
};

static struct rhashtable dmc_export_index;
static struct dentry *dmc_export_root;
static struct dentry *dmc_export_removed;

/* Nodes whose directory waits in .removed/ for the worker. */
static DEFINE_SPINLOCK(dmc_export_graveyard_lock);
static LIST_HEAD(dmc_export_graveyard);
static unsigned long dmc_export_graveyard_seq;
static void dmc_export_reap(struct work_struct *work);
static DECLARE_WORK(dmc_export_reaper, dmc_export_reap);

/* Tree and link callbacks are serialized by the core's tree lock. */
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

/* The node's object with a reference, or NULL once it left the tree. */
static struct dmc_kobject *dmc_export_node_get(struct dmc_export_node *node)
{
	struct dmc_kobject *kobj;

	spin_lock(&node->lock);
	kobj = dmc_kobject_get_unless_zero(node->kobj);
	spin_unlock(&node->lock);
	return kobj;
}

/* ---- attribute files -------------------------------------------------------- */

static int dmc_attr_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return nonseekable_open(inode, file);
}

static ssize_t dmc_attr_read(struct file *file, char __user *buf, size_t count,
			     loff_t *ppos)
{
	struct dmc_export_file *ef = file->private_data;
	struct dmc_kobject *kobj;
	char *page;
	ssize_t len;

	kobj = dmc_export_node_get(ef->node);
	if (!kobj)
		return -ENODEV;
	page = (char *)get_zeroed_page(GFP_KERNEL);
	if (!page) {
		dmc_kobject_put(kobj);
		return -ENOMEM;
	}
	len = dmc_kobject_attr_show(kobj, ef->attr, page);
	dmc_kobject_put(kobj);
	if (len >= 0)
		len = simple_read_from_buffer(buf, count, ppos, page, len);
	free_page((unsigned long)page);
	return len;
}

static ssize_t dmc_attr_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct dmc_export_file *ef = file->private_data;
	struct dmc_kobject *kobj;
	ssize_t ret;
	char *kbuf;

	if (count >= PAGE_SIZE)
		return -E2BIG;
	kbuf = memdup_user_nul(buf, count);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);
	kobj = dmc_export_node_get(ef->node);
	if (!kobj) {
		kfree(kbuf);
		return -ENODEV;
	}
	ret = dmc_kobject_attr_store(kobj, ef->attr, kbuf, count);
	dmc_kobject_put(kobj);
	kfree(kbuf);
	return ret;
}

static const struct file_operations dmc_attr_fops = {
	.owner = THIS_MODULE,
	.open = dmc_attr_open,
	.read = dmc_attr_read,
	.write = dmc_attr_write,
	.llseek = no_llseek,
};

/* Make the files of one group, in a subdirectory if the group is named. */
static int dmc_export_add_group(struct dmc_kobject *kobj,
				const struct dmc_attribute_group *grp, void *data)
{
	struct dmc_export_node *node = data;
	struct dmc_attribute **a;
	struct dmc_export_file *ef;
	struct dentry *dir = node->dir, *d;

	if (grp->name) {
		d = debugfs_lookup(grp->name, node->dir);
		if (d) {
			dir = d;
			dput(d);	/* the directory lives until node->dir goes */
		} else {
			dir = debugfs_create_dir(grp->name, node->dir);
			if (IS_ERR(dir))
				return 0;
		}
	}
	for (a = grp->attrs; a && *a; a++) {
		ef = kzalloc(sizeof(*ef), GFP_KERNEL);
		if (!ef)
			return -ENOMEM;
		ef->node = node;
		ef->attr = *a;
		d = debugfs_create_file((*a)->name, (*a)->mode, dir, ef,
					&dmc_attr_fops);
		if (IS_ERR(d)) {
			pr_warn_ratelimited("dmcore: export: no file '%s' for '%s'\n",
					    (*a)->name, kobj->name);
			kfree(ef);
			continue;
		}
		list_add_tail(&ef->node_entry, &node->files);
	}
	return 0;
}

/* ---- tree callbacks ---------------------------------------------------------- */

static void dmc_export_free_node(struct dmc_export_node *node)
{
	struct dmc_export_file *ef, *tmp;

	list_for_each_entry_safe(ef, tmp, &node->files, node_entry)
		kfree(ef);
	kfree(node);
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
	spin_lock_init(&node->lock);
	INIT_LIST_HEAD(&node->files);
	INIT_LIST_HEAD(&node->dead);
	dir = debugfs_create_dir(kobj->name, parent);
	if (IS_ERR(dir))
		goto err_free;
	node->kobj = kobj;
	node->dir = dir;
	if (rhashtable_insert_fast(&dmc_export_index, &node->hnode,
				   dmc_export_params))
		goto err_remove;
	dmc_kobject_walk_groups(kobj, node, dmc_export_add_group);
	return;

err_remove:
	debugfs_remove(dir);
err_free:
	dmc_export_free_node(node);
err:
	pr_warn_ratelimited("dmcore: export: cannot mirror '%s'\n", kobj->name);
}

static void dmc_export_reap(struct work_struct *work)
{
	struct dmc_export_node *node;

	spin_lock(&dmc_export_graveyard_lock);
	while (!list_empty(&dmc_export_graveyard)) {
		node = list_first_entry(&dmc_export_graveyard,
					struct dmc_export_node, dead);
		list_del(&node->dead);
		spin_unlock(&dmc_export_graveyard_lock);
		/* Waits for reads and writes in flight on its files. */
		debugfs_remove(node->dir);
		dmc_export_free_node(node);
		spin_lock(&dmc_export_graveyard_lock);
	}
	spin_unlock(&dmc_export_graveyard_lock);
}

static void dmc_export_kobj_removed(struct dmc_listener *l,
				    struct dmc_kobject *kobj)
{
	struct dmc_export_node *node = dmc_export_lookup(kobj);
	char name[24];
	struct dentry *d;

	if (!node)
		return;
	rhashtable_remove_fast(&dmc_export_index, &node->hnode, dmc_export_params);
	spin_lock(&node->lock);
	node->kobj = NULL;	/* open files fail from now on */
	spin_unlock(&node->lock);

	/* Out of the way at once, so the name can be used again. */
	spin_lock(&dmc_export_graveyard_lock);
	snprintf(name, sizeof(name), "%lu", ++dmc_export_graveyard_seq);
	spin_unlock(&dmc_export_graveyard_lock);
	d = debugfs_rename(node->dir->d_parent, node->dir, dmc_export_removed, name);
	if (IS_ERR(d)) {
		/* Cannot happen short of memory: remove here instead. */
		debugfs_remove(node->dir);
		dmc_export_free_node(node);
		return;
	}
	spin_lock(&dmc_export_graveyard_lock);
	list_add_tail(&node->dead, &dmc_export_graveyard);
	spin_unlock(&dmc_export_graveyard_lock);
	schedule_work(&dmc_export_reaper);
}

static void dmc_export_move(struct dmc_kobject *kobj)
{
	struct dmc_export_node *node = dmc_export_lookup(kobj);
	struct dentry *new_dir, *d;

	if (!node)
		return;
	new_dir = dmc_export_dir_of(kobj->parent);
	if (!new_dir)
		return;
	d = debugfs_rename(node->dir->d_parent, node->dir, new_dir, kobj->name);
	if (IS_ERR(d))
		pr_warn_ratelimited("dmcore: export: cannot rename '%s': %ld\n",
				    kobj->name, PTR_ERR(d));
}

static void dmc_export_kobj_renamed(struct dmc_listener *l,
				    struct dmc_kobject *kobj,
				    const char *old_name)
{
	dmc_export_move(kobj);
}

static void dmc_export_kobj_moved(struct dmc_listener *l,
				  struct dmc_kobject *kobj,
				  struct dmc_kobject *old_parent)
{
	dmc_export_move(kobj);
}

/*
 * A relative link from @kobj's directory to @target's: as many "../" as
 * @kobj's path has components, then @target's path.
 */
static void dmc_export_link_added(struct dmc_listener *l,
				  struct dmc_kobject *kobj, const char *name,
				  struct dmc_kobject *target)
{
	struct dentry *dir = dmc_export_dir_of(kobj), *d;
	char *from, *to, *rel, *p;
	size_t depth = 0, len;

	if (!dir || !dmc_export_lookup(target))
		return;
	from = dmc_kobject_get_path(kobj, GFP_KERNEL);
	to = dmc_kobject_get_path(target, GFP_KERNEL);
	if (!from || !to)
		goto out;
	for (p = from; *p; p++)
		depth += *p == '/';
	len = depth * 3 + strlen(to);
	rel = kmalloc(len + 1, GFP_KERNEL);
	if (!rel)
		goto out;
	for (p = rel; depth--; p += 3)
		memcpy(p, "../", 3);
	strscpy(p, to + 1, len + 1 - (p - rel));
	d = debugfs_create_symlink(name, dir, rel);
	if (IS_ERR(d))
		pr_warn_ratelimited("dmcore: export: no link '%s' in '%s': %ld\n",
				    name, kobj->name, PTR_ERR(d));
	kfree(rel);
out:
	kfree(from);
	kfree(to);
}

static void dmc_export_link_removed(struct dmc_listener *l,
				    struct dmc_kobject *kobj, const char *name)
{
	struct dentry *dir = dmc_export_dir_of(kobj);

	if (dir)
		debugfs_lookup_and_remove(name, dir);
}

static struct dmc_listener dmc_export_listener = {
	.kobj_added = dmc_export_kobj_added,
	.kobj_removed = dmc_export_kobj_removed,
	.kobj_renamed = dmc_export_kobj_renamed,
	.kobj_moved = dmc_export_kobj_moved,
	.link_added = dmc_export_link_added,
	.link_removed = dmc_export_link_removed,
};

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
	return err ?: count;
}

static const struct file_operations dmc_control_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
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
	dmc_export_removed = debugfs_create_dir(".removed", root);
	debugfs_create_file("events", 0444, root, NULL, &dmc_events_fops);
	debugfs_create_file("control", 0200, root, NULL, &dmc_control_fops);
	debugfs_create_file("stats", 0444, root, NULL, &dmc_stats_fops);
	return dmc_listener_register(&dmc_export_listener);
}

static void dmc_export_free_index_node(void *ptr, void *arg)
{
	dmc_export_free_node(ptr);
}

void dmc_export_exit(void)
{
	if (!dmc_export_root)
		return;
	dmc_listener_unregister(&dmc_export_listener);
	flush_work(&dmc_export_reaper);
	debugfs_remove(dmc_export_root);
	dmc_export_root = NULL;
	rhashtable_free_and_destroy(&dmc_export_index, dmc_export_free_index_node,
				    NULL);
}
