// SPDX-License-Identifier: GPL-2.0
/*
 * Groups of managed resources: a stretch of a device's devres list that
 * a driver releases or forgets together (a sub-component's resources, a
 * probe step that may fail and be retried). The group half of Linux's
 * drivers/base/devres.c; devres.c has the list itself.
 *
 * A group is two markers on the list, an opening and a closing one:
 * resources whose release does nothing (dmc_devres_group_open_release()
 * and _close_release() in devres.c), so every lookup passes over them and
 * the device's release of everything frees them with the rest. Both
 * markers are made when the group opens, so closing cannot fail; the
 * opening marker owns the closing one until it joins the list.
 *
 * Releasing a group releases the resources between its markers (to the
 * list's end while it is open), newest first with no lock held, and with
 * them the markers of every group wholly inside that stretch; a group
 * only partly inside keeps its markers, as in Linux. Everything runs
 * under the device's devres lock, so a resource added by another thread
 * meanwhile is either in the stretch (added before it was cut out) or
 * after it, never lost.
 */

#include <linux/export.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <dmcore/devres.h>

#include "base.h"

/* The group whose opening or closing marker @dr is, or NULL. */
static struct dmc_devres_group *dmc_devres_to_group(struct dmc_devres *dr)
{
	if (dr->release == dmc_devres_group_open_release)
		return (struct dmc_devres_group *)dr->data;
	if (dr->release == dmc_devres_group_close_release)
		return *(struct dmc_devres_group **)dr->data;
	return NULL;
}

/**
 * dmc_devres_open_group() - open a group of resources
 * @dev: the device, added at least once
 * @id: the group's id, or NULL for one made here
 * @gfp: allocation flags
 *
 * Resources added from now until dmc_devres_close_group() belong to the
 * group (and to every group still open around it).
 *
 * Context: as @gfp allows; takes @dev's devres lock.
 * Return: the group's id, or NULL (no memory, a device never added).
 */
void *dmc_devres_open_group(struct dmc_device *dev, void *id, gfp_t gfp)
{
	struct dmc_devres_group *grp, **back;
	unsigned long flags;

	if (!dmc_devres_dev_ok(dev, "devres_open_group"))
		return NULL;
	grp = dmc_devres_alloc_raw(dmc_devres_group_open_release, sizeof(*grp), gfp);
	if (!grp)
		return NULL;
	back = dmc_devres_alloc_raw(dmc_devres_group_close_release, sizeof(*back), gfp);
	if (!back) {
		kfree(to_devres(grp));
		return NULL;
	}
	*back = grp;
	grp->close = to_devres(back);
	grp->id = id ?: grp;
	grp->closed = false;
	grp->color = 0;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	list_add_tail(&to_devres(grp)->entry, &dev->p->devres_head);
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	return grp->id;
}
EXPORT_SYMBOL_GPL(dmc_devres_open_group);

/*
 * The newest group with @id, or with @id NULL the newest still open.
 * Devres lock held.
 */
static struct dmc_devres_group *dmc_devres_find_group(struct dmc_device *dev,
						      void *id)
{
	struct dmc_devres_group *grp;
	struct dmc_devres *dr;

	lockdep_assert_held(&dev->p->devres_lock);
	list_for_each_entry_reverse(dr, &dev->p->devres_head, entry) {
		if (dr->release != dmc_devres_group_open_release)
			continue;
		grp = (struct dmc_devres_group *)dr->data;
		if (id ? grp->id == id : !grp->closed)
			return grp;
	}
	return NULL;
}

/* The complaint of a group call that found no group; one line, counted. */
static void dmc_devres_no_group(struct dmc_device *dev, void *id, const char *what)
{
	DMC_MISUSE(true, "%s: device '%s' has no %s group %p\n", what,
		   dev->kobj.name ?: "(unnamed)", id ? "such" : "open", id);
}

/**
 * dmc_devres_close_group() - close a group
 * @dev: the device
 * @id: the group's id, or NULL for the newest open group
 *
 * Resources added from now on are not the group's. Closing a group that
 * is not there (or closed already) is a misuse: counted, nothing changes.
 *
 * Context: any; takes @dev's devres lock.
 */
void dmc_devres_close_group(struct dmc_device *dev, void *id)
{
	struct dmc_devres_group *grp;
	unsigned long flags;

	if (!dmc_devres_dev_ok(dev, "devres_close_group"))
		return;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	grp = dmc_devres_find_group(dev, id);
	if (grp && !grp->closed) {
		list_add_tail(&grp->close->entry, &dev->p->devres_head);
		grp->closed = true;
	} else {
		grp = NULL;
	}
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	if (!grp)
		dmc_devres_no_group(dev, id, "devres_close_group");
}
EXPORT_SYMBOL_GPL(dmc_devres_close_group);

/**
 * dmc_devres_remove_group() - forget a group, keeping its resources
 * @dev: the device
 * @id: the group's id, or NULL for the newest open group
 *
 * The resources stay the device's (and any enclosing group's). A group
 * that is not there is a misuse: counted.
 *
 * Context: any; takes @dev's devres lock.
 */
void dmc_devres_remove_group(struct dmc_device *dev, void *id)
{
	struct dmc_devres_group *grp;
	struct dmc_devres *open = NULL, *close = NULL;
	unsigned long flags;

	if (!dmc_devres_dev_ok(dev, "devres_remove_group"))
		return;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	grp = dmc_devres_find_group(dev, id);
	if (grp) {
		open = to_devres(grp);
		close = grp->close;
		list_del_init(&open->entry);
		list_del_init(&close->entry);
	}
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	if (!grp) {
		dmc_devres_no_group(dev, id, "devres_remove_group");
		return;
	}
	kfree(close);
	kfree(open);
}
EXPORT_SYMBOL_GPL(dmc_devres_remove_group);

/*
 * Move to @todo the resources from @first up to @end (exclusive), and the
 * markers of the groups wholly inside: both markers there, or the opening
 * one of a group still open. Devres lock held.
 */
static void dmc_devres_remove_nodes(struct dmc_device *dev,
				    struct dmc_devres *first,
				    struct list_head *end, struct list_head *todo)
{
	struct dmc_devres *dr, *tmp, *start;
	struct dmc_devres_group *grp;
	int groups = 0;

	lockdep_assert_held(&dev->p->devres_lock);
	/* The first marker stays in place: it is where pass two starts. */
	start = first;
	dr = first;
	list_for_each_entry_safe_from(dr, tmp, end, entry) {
		grp = dmc_devres_to_group(dr);
		if (grp) {
			grp->color = 0;
			groups++;
		} else {
			if (dr == start)
				start = list_next_entry(dr, entry);
			list_move_tail(&dr->entry, todo);
		}
	}
	if (!groups)
		return;
	/* Only markers are left in the stretch: free the groups inside it. */
	dr = start;
	list_for_each_entry_safe_from(dr, tmp, end, entry) {
		grp = dmc_devres_to_group(dr);
		grp->color++;
		if (!grp->closed)
			grp->color++;	/* open: its opening marker suffices */
		if (grp->color == 2) {
			/*
			 * Both markers lie before @tmp, so it stays valid.
			 * The closing marker goes after the opening one, so
			 * it is freed first (dmc_devres_group_open_release()).
			 */
			list_move_tail(&to_devres(grp)->entry, todo);
			if (grp->closed)
				list_move_tail(&grp->close->entry, todo);
		}
	}
}

/**
 * dmc_devres_release_group() - release a group's resources
 * @dev: the device
 * @id: the group's id, or NULL for the newest open group
 *
 * Releases, newest first and with no lock held, the resources added since
 * the group opened (until it closed, if it did), and forgets the group and
 * the groups wholly inside it. A group that is not there is a misuse,
 * counted, unless the device's list is empty (its resources are being
 * released already, groups and all).
 *
 * Context: as the release functions allow; takes @dev's devres lock.
 * Return: the number of resources released.
 */
int dmc_devres_release_group(struct dmc_device *dev, void *id)
{
	struct dmc_devres_group *grp;
	struct list_head *end;
	unsigned long flags;
	LIST_HEAD(todo);
	bool empty;

	if (!dmc_devres_dev_ok(dev, "devres_release_group"))
		return 0;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	grp = dmc_devres_find_group(dev, id);
	empty = list_empty(&dev->p->devres_head);
	if (grp) {
		end = &dev->p->devres_head;
		if (grp->closed)
			end = grp->close->entry.next;
		dmc_devres_remove_nodes(dev, to_devres(grp), end, &todo);
	}
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	if (!grp) {
		if (!empty)
			dmc_devres_no_group(dev, id, "devres_release_group");
		return 0;
	}
	return dmc_devres_release_list(dev, &todo);
}
EXPORT_SYMBOL_GPL(dmc_devres_release_group);
