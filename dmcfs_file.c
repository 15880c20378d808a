// SPDX-License-Identifier: GPL-2.0
/*
 * dmcfs's attribute files (the filesystem "dmcore", see dmcfs.c): open,
 * read (show() at position 0, the value kept for the reads after), write
 * (one store() per write()), poll (dmc_sysfs_notify()), every call that
 * reaches the object under its node's active reference. The counterpart
 * of fs/kernfs/file.c and the show/store half of fs/sysfs/file.c.
 */

#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "dmcfs.h"
#include "tree_files.h"

/* ---- attributes ---------------------------------------------------------------- */

/*
 * Begin a callback on @of's attribute: the object under the node's active
 * reference and the attribute's group under its own (kobject_attr.c:
 * a group's removal drains them), or NULL (-ENODEV) when either is gone.
 */
static struct dmc_kobject *dmcfs_of_get(struct dmcfs_open *of, struct dmc_dgroup **g)
{
	struct dmc_kobject *kobj = dmcfs_active_get(of->node);

	if (!kobj)
		return NULL;
	*g = dmc_group_active_get(kobj, of->grp, of->attr, of->bin);
	if (!*g) {
		dmcfs_active_put(of->node);
		return NULL;
	}
	return kobj;
}

static void dmcfs_of_put(struct dmcfs_open *of, struct dmc_dgroup *g)
{
	dmc_group_active_put(g);
	dmcfs_active_put(of->node);
}

/*
 * Is @di's attribute still there? Copy its names into @of while it is
 * (for a notify, which may come after it is gone). 0, -ENODEV or -ENOMEM.
 */
static int dmcfs_attr_check(struct dmcfs_inode *di, struct dmcfs_open *of)
{
	struct dmcfs_open tmp = {
		.node = di->node, .attr = di->attr, .grp = di->grp,
		.bin = di->kind == DMCFS_BIN,
	};
	struct dmc_dgroup *g;
	int err = 0;

	if (!dmcfs_of_get(&tmp, &g))
		return -ENODEV;
	of->name = kstrdup(di->attr->name, GFP_KERNEL);
	of->dir = di->grp->name ? kstrdup(di->grp->name, GFP_KERNEL) : NULL;
	if (!of->name || (di->grp->name && !of->dir)) {
		kfree(of->name);
		kfree(of->dir);
		err = -ENOMEM;
	}
	dmcfs_of_put(&tmp, g);
	return err;
}

/*
 * Opening checks the mode as sysfs does (root passes the permission check
 * of a 0444 file opened for writing) and puts the file on its node's
 * list, where dmc_sysfs_notify() finds it.
 */
static int dmcfs_attr_open(struct inode *inode, struct file *file)
{
	struct dmcfs_inode *di = DMCFS_I(inode);
	struct dmcfs_open *of;
	int err;

	/*
	 * The inode's mode, not the attribute's: without an active reference
	 * the attribute may be gone with its object (an open through
	 * /proc/self/fd skips d_revalidate); it is used only under one.
	 */
	err = dmc_tree_check_open(file, inode->i_mode);
	if (err)
		return err;
	/* A file whose group was removed (or which an update hid) stays shut. */
	of = kzalloc(sizeof(*of), GFP_KERNEL);
	if (!of)
		return -ENOMEM;
	err = dmcfs_attr_check(di, of);
	if (err) {
		kfree(of);
		return err;
	}
	mutex_init(&of->lock);
	of->node = di->node;
	of->attr = di->attr;
	of->grp = di->grp;
	of->bin = di->kind == DMCFS_BIN;
	spin_lock_irq(&of->node->open_lock);
	list_add_tail(&of->node_entry, &of->node->opens);
	spin_unlock_irq(&of->node->open_lock);
	file->private_data = of;
	return 0;
}

/*
 * A read at position 0 calls show() and keeps the value; a read further
 * on continues in it, as sysfs's seq_file does, so a reader in small
 * pieces never gets a torn value and a poller re-reads with lseek(0).
 * Once the object left the tree a read at 0 fails with ENODEV; the rest
 * of a value read before still comes.
 */
static ssize_t dmcfs_attr_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct dmcfs_open *of = iocb->ki_filp->private_data;
	struct dmc_kobject *kobj;
	struct dmc_dgroup *g;
	size_t n;
	char *page;
	ssize_t len;

	if (mutex_lock_interruptible(&of->lock))
		return -ERESTARTSYS;
	if (!of->page || iocb->ki_pos == 0) {
		page = (char *)get_zeroed_page(GFP_KERNEL);
		if (!page) {
			len = -ENOMEM;
			goto out;
		}
		kobj = dmcfs_of_get(of, &g);
		if (!kobj) {
			free_page((unsigned long)page);
			len = -ENODEV;
			goto out;
		}
		of->seen = atomic_read(&of->event);
		len = dmc_kobject_attr_show(kobj, of->attr, page);
		if (len < 0)
			len = dmc_tree_errno(len, of->attr->name);
		dmcfs_of_put(of, g);
		if (len < 0) {
			free_page((unsigned long)page);
			goto out;
		}
		if (of->page)
			free_page((unsigned long)of->page);
		of->page = page;
		of->len = len;
	}
	len = 0;
	if (iocb->ki_pos >= 0 && iocb->ki_pos < of->len) {
		n = copy_to_iter(of->page + iocb->ki_pos, of->len - iocb->ki_pos, to);
		if (!n && iov_iter_count(to)) {
			len = -EFAULT;
			goto out;
		}
		iocb->ki_pos += n;
		len = n;
	}
out:
	mutex_unlock(&of->lock);
	return len;
}

/*
 * Each write() is one store() of the whole buffer, as in sysfs, one at a
 * time on an open file; an empty write stores nothing. The store runs
 * under the node's active reference, so the object's deletion waits for
 * it, unless the attribute breaks it (dmc_attribute.break_active: a store
 * that may delete objects, its own included): it then holds a reference
 * on the object instead, and a deletion does not wait for it.
 */
static ssize_t dmcfs_attr_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct dmcfs_open *of = iocb->ki_filp->private_data;
	size_t count = iov_iter_count(from);
	struct dmc_attribute *attr = of->attr;
	struct dmc_kobject *kobj;
	struct dmc_dgroup *g;
	ssize_t ret;
	char *kbuf;

	if (!count)
		return 0;
	if (count >= PAGE_SIZE)
		return -E2BIG;
	kbuf = kmalloc(count + 1, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	if (!copy_from_iter_full(kbuf, count, from)) {
		kfree(kbuf);
		return -EFAULT;
	}
	kbuf[count] = '\0';
	if (mutex_lock_interruptible(&of->lock)) {
		kfree(kbuf);
		return -ERESTARTSYS;
	}
	kobj = dmcfs_of_get(of, &g);
	if (!kobj) {
		ret = -ENODEV;
	} else if (attr->break_active) {
		dmc_kobject_get(kobj);
		dmcfs_of_put(of, g);
		ret = dmc_tree_errno(dmc_kobject_attr_store(kobj, attr, kbuf, count),
				     attr->name);
		dmc_kobject_put(kobj);	/* no active reference held */
	} else {
		ret = dmc_tree_errno(dmc_kobject_attr_store(kobj, attr, kbuf, count),
				     attr->name);
		dmcfs_of_put(of, g);
	}
	mutex_unlock(&of->lock);
	kfree(kbuf);
	if (ret > 0)
		iocb->ki_pos += ret;
	return ret;
}

/*
 * As kernfs_fop_poll(): readable and writable always; POLLERR|POLLPRI
 * once the attribute was notified since the value was last read at
 * position 0, or once the object left the tree.
 */
static __poll_t dmcfs_attr_poll(struct file *file, poll_table *wait)
{
	struct dmcfs_open *of = file->private_data;

	poll_wait(file, &of->node->poll_wq, wait);
	if (!READ_ONCE(of->node->kobj) || READ_ONCE(of->seen) != atomic_read(&of->event))
		return DEFAULT_POLLMASK | EPOLLERR | EPOLLPRI;
	return DEFAULT_POLLMASK;
}

static int dmcfs_attr_release(struct inode *inode, struct file *file)
{
	struct dmcfs_open *of = file->private_data;

	spin_lock_irq(&of->node->open_lock);
	list_del(&of->node_entry);
	spin_unlock_irq(&of->node->open_lock);
	if (of->page)
		free_page((unsigned long)of->page);
	kfree(of->name);
	kfree(of->dir);
	kfree(of);
	return 0;
}

const struct file_operations dmcfs_attr_fops = {
	.owner = THIS_MODULE,
	.open = dmcfs_attr_open,
	.read_iter = dmcfs_attr_read_iter,
	.write_iter = dmcfs_attr_write_iter,
	.poll = dmcfs_attr_poll,
	.release = dmcfs_attr_release,
	.llseek = generic_file_llseek,
};

/* ---- binary attributes --------------------------------------------------------- */

/*
 * As sysfs's bin files: a read or write at an offset calls the
 * attribute's read or write for at most a page, clipped to its size (a
 * write past the end: -EFBIG), under the same active references as a
 * show; one call at a time per open file.
 */
static ssize_t dmcfs_bin_io(struct kiocb *iocb, struct iov_iter *iter, bool write)
{
	struct dmcfs_open *of = iocb->ki_filp->private_data;
	struct dmc_bin_attribute *battr = container_of(of->attr, struct dmc_bin_attribute,
						       attr);
	size_t count = min_t(size_t, iov_iter_count(iter), PAGE_SIZE);
	loff_t pos = iocb->ki_pos;
	struct dmc_kobject *kobj;
	struct dmc_dgroup *g;
	ssize_t ret;
	char *buf;

	if (pos < 0)
		return -EINVAL;
	if (battr->size) {
		if (pos >= battr->size)
			return write ? -EFBIG : 0;
		count = min_t(size_t, count, battr->size - pos);
	}
	if (!count)
		return 0;
	buf = kmalloc(count, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (write && !copy_from_iter_full(buf, count, iter)) {
		ret = -EFAULT;
		goto out_free;
	}
	if (mutex_lock_interruptible(&of->lock)) {
		ret = -ERESTARTSYS;
		goto out_free;
	}
	kobj = dmcfs_of_get(of, &g);
	if (!kobj) {
		ret = -ENODEV;
	} else {
		if (write)
			ret = battr->write ? battr->write(iocb->ki_filp, kobj, battr, buf,
							  pos, count) : -EIO;
		else
			ret = battr->read ? battr->read(iocb->ki_filp, kobj, battr, buf,
							pos, count) : -EIO;
		if (ret < 0)
			ret = dmc_tree_errno(ret, battr->attr.name);
		else if ((size_t)ret > count)
			ret = -EIO;	/* a callback past what it was given */
		dmcfs_of_put(of, g);
	}
	mutex_unlock(&of->lock);
	if (ret > 0 && !write && copy_to_iter(buf, ret, iter) != ret)
		ret = -EFAULT;
	if (ret > 0)
		iocb->ki_pos = pos + ret;
out_free:
	kfree(buf);
	return ret;
}

static ssize_t dmcfs_bin_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return dmcfs_bin_io(iocb, to, false);
}

static ssize_t dmcfs_bin_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	return dmcfs_bin_io(iocb, from, true);
}

const struct file_operations dmcfs_bin_fops = {
	.owner = THIS_MODULE,
	.open = dmcfs_attr_open,
	.read_iter = dmcfs_bin_read_iter,
	.write_iter = dmcfs_bin_write_iter,
	.release = dmcfs_attr_release,
	.llseek = generic_file_llseek,
};
