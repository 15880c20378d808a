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
 *   events, control, stats	the root's files (tree_files.c)
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
#include <linux/hashtable.h>
#include <linux/stringhash.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "base.h"
#include "clients.h"
#include "tree_files.h"

/* One mirrored object: its directory and the entries made in it. */
struct dmc_export_node {
	struct rhash_head hnode;
	struct dmc_kobject *kobj;	/* NULL once the object left the tree */
	struct dentry *dir;
	struct list_head files;		/* struct dmc_export_file */
	struct list_head entries;	/* struct dmc_export_entry */
	struct list_head dead;		/* on dmc_export_graveyard */
	spinlock_t lock;		/* protects kobj */
};

/*
 * A link or a group directory the export made in a node's directory. Only
 * these are ever removed or reused: an entry of the same name made for
 * something else (a child's directory, an attribute file) is left alone.
 */
struct dmc_export_entry {
	struct list_head node_entry;	/* in node->entries */
	struct hlist_node hash;		/* in dmc_export_entries */
	struct dmc_export_node *owner;
	struct dentry *dentry;
	bool link;
	char name[];
};

/*
 * Every node's entries, hashed by (node, name): a driver's directory holds
 * a link per bound device, and a linear search of thousands of them for
 * each new link made binding quadratic (a soft lockup in dmcore-link's
 * chain of 3,000).
 */
static DEFINE_HASHTABLE(dmc_export_entries, 12);
static DEFINE_SPINLOCK(dmc_export_entries_lock);

static unsigned long dmc_export_entry_key(struct dmc_export_node *node,
					  const char *name)
{
	return (unsigned long)node ^ full_name_hash(NULL, name, strlen(name));
}

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

/* The link (@link) or group directory @name made in @node, or NULL. */
static struct dmc_export_entry *dmc_export_entry_find(struct dmc_export_node *node,
						      const char *name, bool link)
{
	unsigned long key = dmc_export_entry_key(node, name);
	struct dmc_export_entry *e, *found = NULL;

	spin_lock(&dmc_export_entries_lock);
	hash_for_each_possible(dmc_export_entries, e, hash, key)
		if (e->owner == node && e->link == link && !strcmp(e->name, name)) {
			found = e;
			break;
		}
	spin_unlock(&dmc_export_entries_lock);
	return found;
}

static void dmc_export_entry_free(struct dmc_export_entry *e)
{
	spin_lock(&dmc_export_entries_lock);
	hash_del(&e->hash);
	spin_unlock(&dmc_export_entries_lock);
	list_del(&e->node_entry);
	kfree(e);
}

static int dmc_export_entry_add(struct dmc_export_node *node, const char *name,
				struct dentry *dentry, bool link)
{
	size_t len = strlen(name) + 1;
	struct dmc_export_entry *e;

	e = kmalloc(struct_size(e, name, len), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	memcpy(e->name, name, len);
	e->owner = node;
	e->dentry = dentry;
	e->link = link;
	list_add_tail(&e->node_entry, &node->entries);
	spin_lock(&dmc_export_entries_lock);
	hash_add(dmc_export_entries, &e->hash, dmc_export_entry_key(node, name));
	spin_unlock(&dmc_export_entries_lock);
	return 0;
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

/*
 * One open attribute file. Like sysfs (one seq_file per open), the value
 * is read once, at the first read(), and later reads continue in that
 * snapshot, so a reader in small pieces never gets a torn value.
 */
struct dmc_attr_open_file {
	struct dmc_export_file *ef;	/* not used after the node is gone */
	struct mutex lock;		/* reads on this open file */
	char *page;			/* the snapshot, once read */
	size_t len;
};

static int dmc_attr_open(struct inode *inode, struct file *file)
{
	struct dmc_export_file *ef = inode->i_private;
	struct dmc_attr_open_file *of;
	int err;

	err = dmc_tree_check_open(file, ef->attr->mode);
	if (err)
		return err;
	of = kzalloc(sizeof(*of), GFP_KERNEL);
	if (!of)
		return -ENOMEM;
	mutex_init(&of->lock);
	of->ef = ef;
	file->private_data = of;
	return nonseekable_open(inode, file);
}

static ssize_t dmc_attr_read(struct file *file, char __user *buf, size_t count,
			     loff_t *ppos)
{
	struct dmc_attr_open_file *of = file->private_data;
	struct dmc_kobject *kobj;
	char *page;
	ssize_t len;

	if (mutex_lock_interruptible(&of->lock))
		return -ERESTARTSYS;
	/* Never from a snapshot of an object that left the tree. */
	kobj = dmc_export_node_get(of->ef->node);
	if (!kobj) {
		len = -ENODEV;
		goto out;
	}
	if (!of->page) {
		page = (char *)get_zeroed_page(GFP_KERNEL);
		if (!page) {
			dmc_kobject_put(kobj);
			len = -ENOMEM;
			goto out;
		}
		len = dmc_kobject_attr_show(kobj, of->ef->attr, page);
		if (len < 0) {
			free_page((unsigned long)page);
			dmc_kobject_put(kobj);
			len = dmc_tree_errno(len, of->ef->attr->name);
			goto out;
		}
		of->page = page;
		of->len = len;
	}
	dmc_kobject_put(kobj);
	len = simple_read_from_buffer(buf, count, ppos, of->page, of->len);
out:
	mutex_unlock(&of->lock);
	return len;
}

static ssize_t dmc_attr_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct dmc_attr_open_file *of = file->private_data;
	struct dmc_kobject *kobj;
	ssize_t ret;
	char *kbuf;

	if (count >= PAGE_SIZE)
		return -E2BIG;
	kbuf = memdup_user_nul(buf, count);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);
	kobj = dmc_export_node_get(of->ef->node);
	if (!kobj) {
		kfree(kbuf);
		return -ENODEV;
	}
	ret = dmc_kobject_attr_store(kobj, of->ef->attr, kbuf, count);
	dmc_kobject_put(kobj);
	kfree(kbuf);
	return dmc_tree_errno(ret, of->ef->attr->name);
}

/* May run after the node and its files are freed: touches only @of. */
static int dmc_attr_release(struct inode *inode, struct file *file)
{
	struct dmc_attr_open_file *of = file->private_data;

	if (of->page)
		free_page((unsigned long)of->page);
	kfree(of);
	return 0;
}

static const struct file_operations dmc_attr_fops = {
	.owner = THIS_MODULE,
	.open = dmc_attr_open,
	.read = dmc_attr_read,
	.write = dmc_attr_write,
	.release = dmc_attr_release,
	.llseek = no_llseek,
};

/* Make the files of one group, in a subdirectory if the group is named. */
static int dmc_export_add_group(struct dmc_kobject *kobj,
				const struct dmc_attribute_group *grp, void *data)
{
	struct dmc_export_node *node = data;
	struct dmc_export_entry *e;
	struct dmc_attribute **a;
	struct dmc_export_file *ef;
	struct dentry *dir = node->dir, *d;

	if (grp->name) {
		/* Only a directory made for another group of this object. */
		e = dmc_export_entry_find(node, grp->name, false);
		if (e) {
			dir = e->dentry;
		} else {
			dir = debugfs_create_dir(grp->name, node->dir);
			if (IS_ERR(dir)) {
				pr_warn_ratelimited("dmcore: export: no directory '%s' for '%s': %ld\n",
						    grp->name, kobj->name, PTR_ERR(dir));
				return 0;
			}
			if (dmc_export_entry_add(node, grp->name, dir, false)) {
				debugfs_remove(dir);
				return -ENOMEM;
			}
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
	struct dmc_export_entry *e, *etmp;
	struct dmc_export_file *ef, *tmp;

	list_for_each_entry_safe(ef, tmp, &node->files, node_entry)
		kfree(ef);
	list_for_each_entry_safe(e, etmp, &node->entries, node_entry)
		dmc_export_entry_free(e);
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
	INIT_LIST_HEAD(&node->entries);
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
	struct dmc_export_node *node = dmc_export_lookup(kobj);
	char *from, *to, *rel, *p;
	size_t depth = 0, len;
	struct dentry *d;

	if (!node || !dmc_export_lookup(target))
		return;
	/* Told twice: replayed at registration, then announced. */
	if (dmc_export_entry_find(node, name, true))
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
	d = debugfs_create_symlink(name, node->dir, rel);
	if (IS_ERR(d))
		pr_warn_ratelimited("dmcore: export: no link '%s' in '%s': %ld\n",
				    name, kobj->name, PTR_ERR(d));
	else if (dmc_export_entry_add(node, name, d, true))
		debugfs_remove(d);
	kfree(rel);
out:
	kfree(from);
	kfree(to);
}

static void dmc_export_link_removed(struct dmc_listener *l,
				    struct dmc_kobject *kobj, const char *name)
{
	struct dmc_export_node *node = dmc_export_lookup(kobj);
	struct dmc_export_entry *e;

	/* Only a link made here: never a file or directory of that name. */
	e = node ? dmc_export_entry_find(node, name, true) : NULL;
	if (!e)
		return;
	debugfs_remove(e->dentry);
	dmc_export_entry_free(e);
}

static struct dmc_listener dmc_export_listener = {
	.kobj_added = dmc_export_kobj_added,
	.kobj_removed = dmc_export_kobj_removed,
	.kobj_renamed = dmc_export_kobj_renamed,
	.kobj_moved = dmc_export_kobj_moved,
	.link_added = dmc_export_link_added,
	.link_removed = dmc_export_link_removed,
};

/* ---- setup ----------------------------------------------------------------- */

/**
 * dmc_export_init() - start the mirror
 *
 * dmcore's init calls this last, when nothing can fail any more, and its
 * exit calls dmc_export_exit() first: no file of the tree can be opened
 * while a failing load unwinds (an open file would outlive the module,
 * a blocked events reader would stall the load). The listener's
 * registration replays the objects and links already there (the
 * bridge's shadows); the events, control and stats files come last.
 * A failure to create the debugfs root is logged and leaves the export
 * off: the model works without its view.
 *
 * Context: module init, process context.
 * Return: 0, or -ENOMEM before anything of the tree exists.
 */
int dmc_export_init(void)
{
	const struct dmc_tree_file *tf;
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
	/* Cannot fail for a listener; replays the tree under the tree lock. */
	dmc_listener_register(&dmc_export_listener);
	for (tf = dmc_tree_files; tf->name; tf++)
		debugfs_create_file(tf->name, tf->mode, root, NULL, tf->fops);
	return 0;
}

static void dmc_export_free_index_node(void *ptr, void *arg)
{
	dmc_export_free_node(ptr);
}

/**
 * dmc_export_exit() - take the mirror down
 *
 * The first thing dmcore's exit does (rmmod is refused while a file of
 * the tree is open). Waits for the reaper of removed directories.
 *
 * Context: module exit, process context.
 */
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
