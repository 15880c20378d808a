// SPDX-License-Identifier: GPL-2.0
/*
 * Device links: a consumer depends on a supplier beyond the parent/child
 * tree (a clock, a regulator, a PHY). The counterpart of the device-link
 * part of drivers/base/core.c, reduced to the rules the model needs:
 *
 *  - a consumer does not probe while a supplier has no driver: its probe
 *    defers, naming the supplier, so it is retried when the supplier binds;
 *  - a supplier's unbind unbinds its bound consumers first;
 *  - deleting either device deletes the link;
 *  - in the power order a consumer comes after its suppliers, so it is
 *    suspended before them and resumed after them.
 *
 * Links never form a cycle, counting the parent/child tree as links too.
 * dmc_links_mutex protects every device's suppliers and consumers lists
 * and is never held across a driver callback.
 *
 * A user can make chains of any length (control's "link add"), so every
 * walk over links is a loop with an explicit stack or path and a mark
 * per device (p->link_gen, a fresh generation per walk), never a
 * recursion: each device is visited once per walk.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "base.h"

/* Generation of the marks of the graph searches; dmc_links_mutex. */
static unsigned int dmc_links_gen;

/*
 * A fresh mark for a search over the link graph (p->link_gen). Never 0,
 * the mark of a device no search has seen yet. Links mutex held.
 */
unsigned int dmc_links_new_gen(void)
{
	lockdep_assert_held(&dmc_links_mutex);
	if (!++dmc_links_gen)
		dmc_links_gen = 1;
	return dmc_links_gen;
}

/* Append @dev to @vec, growing it as needed. */
int dmc_devvec_push(struct dmc_devvec *vec, struct dmc_device *dev)
{
	struct dmc_device **v;
	size_t cap;

	if (vec->n == vec->cap) {
		cap = vec->cap ? 2 * vec->cap : 32;
		v = kvmalloc_array(cap, sizeof(*v), GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		if (vec->n)
			memcpy(v, vec->v, vec->n * sizeof(*v));
		kvfree(vec->v);
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = dev;
	return 0;
}

/* Free @vec's memory (not the devices). */
void dmc_devvec_free(struct dmc_devvec *vec)
{
	kvfree(vec->v);
	vec->v = NULL;
	vec->n = 0;
	vec->cap = 0;
}

/* Drop the references @vec holds, then free it. No core lock held. */
void dmc_devvec_put_all(struct dmc_devvec *vec)
{
	while (vec->n)
		dmc_device_put(vec->v[--vec->n]);
	dmc_devvec_free(vec);
}

/* A device on the reorder stack whose successors were pushed already. */
#define DMC_DPM_EXPANDED	1UL

static struct dmc_device *dmc_dpm_tag(struct dmc_device *dev)
{
	return (struct dmc_device *)((unsigned long)dev | DMC_DPM_EXPANDED);
}

struct dmc_dpm_reorder {
	struct dmc_devvec *stack;
	struct dmc_devvec *held;
	unsigned int gen;
};

/* Push an unseen child, with a reference (children are not pinned). */
static int dmc_dpm_push_child(struct dmc_device *child, void *data)
{
	struct dmc_dpm_reorder *r = data;
	int err;

	if (child->p->link_gen == r->gen)
		return 0;
	err = dmc_devvec_push(r->held, child);
	if (err)
		return err;
	dmc_device_get(child);
	return dmc_devvec_push(r->stack, child);
}

/*
 * After a new link: put the consumer, and everything that depends on it
 * (its children and consumers, transitively), after the supplier, in an
 * order where each device still comes after its parent and suppliers.
 *
 * A depth-first search from @dev over children and consumer links, with
 * an explicit stack and a mark per device (p->link_gen), lists the
 * devices in post-order; moving them to the tail of the power order in
 * the reverse of that order (a topological order of the graph, which
 * has no cycle) keeps every dependency, and costs one visit per device
 * and per edge whatever the shape: no recursion, nothing exponential on
 * diamonds. Devices not reached keep their place; none of them depends
 * on a device reached.
 *
 * Caller holds dmc_links_mutex. References taken on children go to
 * @held, for dmc_devvec_put_all() once the caller dropped that mutex.
 * Return: 0, or -ENOMEM with the order unchanged.
 */
static int dmc_device_reorder_to_tail(struct dmc_device *dev,
				      struct dmc_devvec *held)
{
	struct dmc_devvec stack = {}, post = {};
	struct dmc_dpm_reorder r = { .stack = &stack, .held = held };
	struct dmc_device_link *link;
	struct dmc_device *d;
	unsigned long e;
	size_t i;
	int err;

	lockdep_assert_held(&dmc_links_mutex);
	r.gen = dmc_links_new_gen();
	/* Under dmc_dpm_mutex a child added meanwhile joins after us. */
	mutex_lock(&dmc_dpm_mutex);
	err = dmc_devvec_push(&stack, dev);
	while (!err && stack.n) {
		e = (unsigned long)stack.v[--stack.n];
		d = (struct dmc_device *)(e & ~DMC_DPM_EXPANDED);
		if (e & DMC_DPM_EXPANDED) {
			err = dmc_devvec_push(&post, d);
			continue;
		}
		if (d->p->link_gen == r.gen)
			continue;	/* reached twice before it was expanded */
		d->p->link_gen = r.gen;
		err = dmc_devvec_push(&stack, dmc_dpm_tag(d));
		/*
		 * Successors are popped last pushed first; the reverse of the
		 * post-order then lists children, then consumers, as pushed.
		 */
		if (!err)
			err = dmc_device_walk_children(d, &r, dmc_dpm_push_child);
		if (err)
			break;
		list_for_each_entry(link, &d->p->consumers, s_node) {
			if (link->consumer->p->link_gen == r.gen)
				continue;
			err = dmc_devvec_push(&stack, link->consumer);
			if (err)
				break;
		}
	}
	if (!err) {
		for (i = post.n; i--; )
			dmc_dpm_move_last(post.v[i]);
	}
	mutex_unlock(&dmc_dpm_mutex);
	dmc_devvec_free(&stack);
	dmc_devvec_free(&post);
	return err;
}

/*
 * Does @from depend on @to through links or parents? Links mutex held.
 * A loop over an explicit stack, with a mark per device, so a chain of
 * any length takes no kernel stack per step and each device is looked
 * at once. Return: 1 if it does, 0 if not, -ENOMEM.
 */
static int dmc_depends_on(struct dmc_device *from, struct dmc_device *to)
{
	struct dmc_devvec stack = {};
	struct dmc_device_link *link;
	struct dmc_device *dev;
	unsigned int gen;
	int ret = 0;

	if (from == to)
		return 1;
	gen = dmc_links_new_gen();
	from->p->link_gen = gen;
	dev = from;
	for (;;) {
		/* Parents and suppliers are pinned: by the child, by the link. */
		if (dev->parent && dev->parent->p->link_gen != gen) {
			if (dev->parent == to) {
				ret = 1;
				break;
			}
			dev->parent->p->link_gen = gen;
			ret = dmc_devvec_push(&stack, dev->parent);
			if (ret)
				break;
		}
		list_for_each_entry(link, &dev->p->suppliers, c_node) {
			if (link->supplier->p->link_gen == gen)
				continue;
			if (link->supplier == to) {
				ret = 1;
				goto out;
			}
			link->supplier->p->link_gen = gen;
			ret = dmc_devvec_push(&stack, link->supplier);
			if (ret)
				goto out;
		}
		if (!stack.n)
			break;
		dev = stack.v[--stack.n];
	}
out:
	dmc_devvec_free(&stack);
	return ret;
}

static int dmc_link_any_child(struct dmc_device *child, void *data)
{
	return 1;
}

/* Has @dev a child device? */
static bool dmc_device_has_children(struct dmc_device *dev)
{
	return dmc_device_walk_children(dev, NULL, dmc_link_any_child) > 0;
}

/* Links mutex held. */
static struct dmc_device_link *__dmc_link_find(struct dmc_device *consumer,
					       struct dmc_device *supplier)
{
	struct dmc_device_link *link;

	list_for_each_entry(link, &consumer->p->suppliers, c_node)
		if (link->supplier == supplier)
			return link;
	return NULL;
}

/* ---- the devlink view: links as devices of class "devlink" ---------------- */

/* Set while the class "devlink" is registered (dmc_devlink_init()). */
static const struct dmc_devlink_view *dmc_devlink_view;

/**
 * dmc_links_set_view() - set (or with NULL clear) the devlink view's hooks
 * @view: the devlink view's hooks
 *
 * Links added while it is set are devices of class "devlink".
 * Context: at load and unload, with no link in the model.
 */
void dmc_links_set_view(const struct dmc_devlink_view *view)
{
	mutex_lock(&dmc_links_mutex);
	dmc_devlink_view = view;
	mutex_unlock(&dmc_links_mutex);
}

/* Announce (@added) or withdraw the four symlinks of a shown @link. */
static void dmc_link_announce(struct dmc_device_link *link, bool added)
{
	char name[DMC_DEVLINK_SYMLINK_MAX];
	struct dmc_kobject *dev = &link->link_dev.kobj;
	int i;

	lockdep_assert_held(&dmc_tree_mutex);
	if (!dmc_listeners_want_links())
		return;
	for (i = 0; i < 2; i++) {
		struct dmc_device *end = i ? link->consumer : link->supplier;

		dmc_devlink_symlink_name(link, !i, name, sizeof(name));
		if (added) {
			dmc_listeners_link_added(dev, i ? "consumer" : "supplier",
						 &end->kobj);
			dmc_listeners_link_added(&end->kobj, name, dev);
		} else {
			dmc_listeners_link_removed(&end->kobj, name);
			dmc_listeners_link_removed(dev, i ? "consumer" : "supplier");
		}
	}
}

/*
 * Show @link's symlinks ("supplier" and "consumer" in its device's
 * directory, "consumer:..." in the supplier's, "supplier:..." in the
 * consumer's): walk_links() of the devices finds them from now on. Not
 * when either device's deletion began: its purge may have passed
 * already. Links mutex held (dmc_tree_mutex nests inside it).
 */
static void dmc_link_show(struct dmc_device_link *link)
{
	lockdep_assert_held(&dmc_links_mutex);
	if (!link->dev_added)
		return;
	mutex_lock(&dmc_tree_mutex);
	if (!READ_ONCE(link->supplier->p->dead) &&
	    !READ_ONCE(link->consumer->p->dead)) {
		list_add_tail(&link->sup_tnode, &link->supplier->p->devlink_cons);
		list_add_tail(&link->con_tnode, &link->consumer->p->devlink_sups);
		link->link_dev.p->devlink = link;
		dmc_link_announce(link, true);
	}
	mutex_unlock(&dmc_tree_mutex);
}

/* Withdraw what dmc_link_show() showed. Links mutex held. */
static void dmc_link_hide(struct dmc_device_link *link)
{
	lockdep_assert_held(&dmc_links_mutex);
	if (!link->dev_added)
		return;
	mutex_lock(&dmc_tree_mutex);
	if (link->link_dev.p->devlink) {
		dmc_link_announce(link, false);
		link->link_dev.p->devlink = NULL;
		list_del(&link->sup_tnode);
		list_del(&link->con_tnode);
	}
	mutex_unlock(&dmc_tree_mutex);
}

/* Links mutex held; the caller puts the devices and frees the link. */
static void __dmc_link_unlink(struct dmc_device_link *link)
{
	dmc_link_hide(link);
	list_del(&link->c_node);
	list_del(&link->s_node);
	dmc_model_changed();
}

/*
 * Free a link that is no longer on any list and drop its references on
 * both devices. Once it has a device, the device's release frees it, so
 * a reader of the device's attributes keeps the link's memory; the
 * devices are put now, as before the link had a device (nothing reads
 * them through an unlinked link). No core lock held: the unregistration
 * runs the device deletion.
 */
static void dmc_link_discard(struct dmc_device_link *link)
{
	struct dmc_device *consumer = link->consumer;
	struct dmc_device *supplier = link->supplier;

	if (link->has_dev)
		dmc_devlink_view->discard(link);	/* may free @link */
	else
		kfree(link);
	dmc_device_put(consumer);
	dmc_device_put(supplier);
}

static void dmc_link_free(struct dmc_device_link *link)
{
	dmc_pm_runtime_link_del(link);
	dmc_link_discard(link);
}

/*
 * Links unlinked where their devices' last reference must not be dropped
 * (under a device lock, from a binding's hooks): freed by a worker.
 */
static LLIST_HEAD(dmc_links_dead);

static void dmc_links_dead_fn(struct work_struct *work)
{
	struct dmc_device_link *link, *tmp;
	struct llist_node *list = llist_del_all(&dmc_links_dead);

	llist_for_each_entry_safe(link, tmp, list, dead)
		dmc_link_free(link);
}

static DECLARE_WORK(dmc_links_dead_work, dmc_links_dead_fn);

/* Wait until the links unlinked so far are freed. No core lock held. */
void dmc_links_flush_dead(void)
{
	flush_work(&dmc_links_dead_work);
}

/*
 * Drop the core's reference on a managed link (an autoremove, a "sync
 * state only" link whose consumer bound), as Linux's
 * device_link_drop_managed(): the link goes unless a stateless user holds
 * it. Links mutex held; any device lock may be held too.
 */
void __dmc_link_drop_managed(struct dmc_device_link *link)
{
	lockdep_assert_held(&dmc_links_mutex);
	link->flags &= ~DMC_DL_FLAG_MANAGED;
	dmc_link_set_status(link, DMC_DL_STATE_NONE);
	if (link->stateless_refs)
		return;
	__dmc_link_unlink(link);
	if (llist_add(&link->dead, &dmc_links_dead))
		schedule_work(&dmc_links_dead_work);
}

/*
 * Drop one reference on @link, as Linux's device_link_put_kref(): a
 * stateless one if there is any, else the managed one (dmcore lets a
 * caller delete a managed link; Linux warns). Links mutex held.
 * Return: true if the link is unlinked, for the caller to free.
 */
static bool __dmc_link_put(struct dmc_device_link *link)
{
	lockdep_assert_held(&dmc_links_mutex);
	if (link->stateless_refs) {
		if (--link->stateless_refs)
			return false;
		link->flags &= ~DMC_DL_FLAG_STATELESS;
		dmc_model_changed();
		if (link->flags & DMC_DL_FLAG_MANAGED)
			return false;
	}
	link->flags &= ~DMC_DL_FLAG_MANAGED;
	dmc_link_set_status(link, DMC_DL_STATE_NONE);
	__dmc_link_unlink(link);
	return true;
}

/**
 * dmc_link_init_status() - the state of a link at its creation
 * @link: a managed link, not yet or just now managed
 *
 * From both devices' binding states, as Linux's device_link_init_status().
 * Context: dmc_links_mutex held.
 */
void dmc_link_init_status(struct dmc_device_link *link)
{
	u8 s = link->supplier->p->links_status;
	u8 c = link->consumer->p->links_status;
	enum dmc_device_link_state st;

	lockdep_assert_held(&dmc_links_mutex);
	switch (s) {
	case DMC_DL_DEV_PROBING:
		/* A probing consumer may know a probing supplier works already. */
		st = c == DMC_DL_DEV_PROBING ? DMC_DL_STATE_CONSUMER_PROBE :
					       DMC_DL_STATE_DORMANT;
		break;
	case DMC_DL_DEV_DRIVER_BOUND:
		if (c == DMC_DL_DEV_PROBING)
			st = DMC_DL_STATE_CONSUMER_PROBE;
		else if (c == DMC_DL_DEV_DRIVER_BOUND)
			st = DMC_DL_STATE_ACTIVE;
		else
			st = DMC_DL_STATE_AVAILABLE;
		break;
	case DMC_DL_DEV_UNBINDING:
		st = DMC_DL_STATE_SUPPLIER_UNBIND;
		break;
	default:
		st = DMC_DL_STATE_DORMANT;
		break;
	}
	dmc_link_set_status(link, st);
}

/* The flags that make or keep a link managed (Linux's DL_MANAGED_LINK_FLAGS). */
#define DMC_DL_MANAGED_LINK_FLAGS (DMC_DL_FLAG_AUTOREMOVE_CONSUMER |	\
				   DMC_DL_FLAG_AUTOREMOVE_SUPPLIER |	\
				   DMC_DL_FLAG_AUTOPROBE_CONSUMER |	\
				   DMC_DL_FLAG_SYNC_STATE_ONLY)
#define DMC_DL_ADD_VALID_FLAGS (DMC_DL_MANAGED_LINK_FLAGS | DMC_DL_FLAG_STATELESS | \
				DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_RPM_ACTIVE)

/* Why dmc_device_link_add() refuses @flags, as Linux's checks; NULL: it does not. */
static const char *dmc_link_flags_refused(u32 flags)
{
	if (flags & ~DMC_DL_ADD_VALID_FLAGS)
		return "unknown flags (or MANAGED, which only the core sets)";
	if ((flags & DMC_DL_FLAG_STATELESS) && (flags & DMC_DL_MANAGED_LINK_FLAGS))
		return "STATELESS with a managed-link flag";
	if ((flags & DMC_DL_FLAG_SYNC_STATE_ONLY) &&
	    flags != DMC_DL_FLAG_SYNC_STATE_ONLY)
		return "SYNC_STATE_ONLY with another flag";
	if ((flags & DMC_DL_FLAG_AUTOPROBE_CONSUMER) &&
	    (flags & (DMC_DL_FLAG_AUTOREMOVE_CONSUMER | DMC_DL_FLAG_AUTOREMOVE_SUPPLIER)))
		return "AUTOPROBE_CONSUMER with an AUTOREMOVE flag";
	return NULL;
}

/*
 * Adding a link that exists: merge @flags into it, as Linux's
 * device_link_add() does (a stateless add takes a reference; a managed add
 * makes the link managed, and keeps it at least as long as asked).
 * Links mutex held.
 */
static void __dmc_link_merge(struct dmc_device_link *link, u32 flags)
{
	dmc_model_changed();	/* its flags, as the snapshot shows them */
	if (flags & DMC_DL_FLAG_PM_RUNTIME) {
		dmc_pm_runtime_link_merge(link, flags);	/* before the flags change */
		link->flags |= flags & (DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_RPM_ACTIVE);
	}
	if (flags & DMC_DL_FLAG_STATELESS) {
		link->stateless_refs++;
		link->flags |= DMC_DL_FLAG_STATELESS;
		return;
	}
	if (flags & DMC_DL_FLAG_AUTOREMOVE_SUPPLIER) {
		if (link->flags & DMC_DL_FLAG_AUTOREMOVE_CONSUMER) {
			link->flags &= ~DMC_DL_FLAG_AUTOREMOVE_CONSUMER;
			link->flags |= DMC_DL_FLAG_AUTOREMOVE_SUPPLIER;
		}
	} else if (!(flags & DMC_DL_FLAG_AUTOREMOVE_CONSUMER)) {
		link->flags &= ~(DMC_DL_FLAG_AUTOREMOVE_CONSUMER |
				 DMC_DL_FLAG_AUTOREMOVE_SUPPLIER);
	}
	if (!(link->flags & DMC_DL_FLAG_MANAGED)) {
		link->flags |= DMC_DL_FLAG_MANAGED;
		dmc_link_init_status(link);
	}
	if ((link->flags & DMC_DL_FLAG_SYNC_STATE_ONLY) &&
	    !(flags & DMC_DL_FLAG_SYNC_STATE_ONLY))
		link->flags &= ~DMC_DL_FLAG_SYNC_STATE_ONLY;
}

/**
 * dmc_device_link_add() - make @consumer depend on @supplier
 * @consumer: a registered device
 * @supplier: a registered device
 * @flags: DMC_DL_FLAG_*, as Linux's device_link_add():
 *	0 - a managed link: the consumer's probe defers until the supplier
 *	is bound, the supplier's unbind unbinds the consumer first, the link
 *	has a state (dmc_device_link_status()) and counts for the supplier's
 *	sync_state(); it lives until deleted, or until either device is;
 *	STATELESS - no probe or unbind ordering and no state: the caller
 *	deletes it (dmc_device_link_del());
 *	AUTOREMOVE_CONSUMER - deleted when the consumer unbinds;
 *	AUTOREMOVE_SUPPLIER - deleted when the supplier unbinds (wins over
 *	AUTOREMOVE_CONSUMER);
 *	AUTOPROBE_CONSUMER - the consumer is probed when the supplier binds;
 *	SYNC_STATE_ONLY - only holds back the supplier's sync_state() until
 *	the consumer probed, then goes (no probe ordering);
 *	PM_RUNTIME - a runtime resume of the consumer resumes the supplier
 *	first and holds it while the consumer is active (runtime.c);
 *	RPM_ACTIVE (ignored without PM_RUNTIME, as Linux) - the link takes a
 *	runtime reference on the supplier and resumes it, dropped when the
 *	consumer next runtime-suspends or the link goes.
 *	STATELESS takes no managed-link flag, SYNC_STATE_ONLY no other flag,
 *	AUTOPROBE_CONSUMER no AUTOREMOVE flag.
 *
 * The link holds a reference on both devices until it is deleted. The
 * consumer (with its children and consumers) moves after the supplier in
 * the power order. A consumer already bound stays bound.
 *
 * If the link exists, it is returned with @flags merged as Linux does: a
 * stateless add takes one more reference on it (each to be dropped by a
 * dmc_device_link_del()); a managed add makes it managed and keeps it
 * around at least as long as the new flags ask.
 *
 * Context: may sleep.
 * Return: the link, or ERR_PTR(-EINVAL) for NULL or unregistered devices,
 * a device linked to itself, a link that would close a cycle, flags
 * refused above, or SYNC_STATE_ONLY with a consumer that probed already;
 * ERR_PTR(-ENAMETOOLONG) when the link's device name
 * ("<bus>:<supplier>--<bus>:<consumer>", the bus being the class for a
 * device on no bus, as Linux's dev_bus_name()) or a name of its symlinks
 * would pass DMC_NAME_MAX; ERR_PTR(-EEXIST) when another link has that
 * device name (names with ':' or "--" in them can make two pairs'
 * names alike) or a symlink's name is taken in the supplier's or the
 * consumer's directory; ERR_PTR(-ENOMEM). Nothing changed on failure.
 */
struct dmc_device_link *dmc_device_link_add(struct dmc_device *consumer,
					    struct dmc_device *supplier,
					    u32 flags)
{
	struct dmc_devvec held = {};
	struct dmc_device_link *link, *old;
	const char *why;
	int err;

	if (!dmc_device_is_registered(consumer) ||
	    !dmc_device_is_registered(supplier) || consumer == supplier) {
		pr_err_ratelimited("dmcore: link_add: %s\n",
				   consumer == supplier && consumer ?
				   "a device cannot depend on itself" :
				   "both devices must be registered");
		return ERR_PTR(-EINVAL);
	}
	why = dmc_link_flags_refused(flags);
	if (why) {
		pr_err_ratelimited("dmcore: link_add: flags %#x refused: %s\n",
				   flags, why);
		return ERR_PTR(-EINVAL);
	}
	if (!(flags & DMC_DL_FLAG_PM_RUNTIME))
		flags &= ~DMC_DL_FLAG_RPM_ACTIVE;
	if (!(flags & DMC_DL_FLAG_STATELESS))
		flags |= DMC_DL_FLAG_MANAGED;
	/* Needed after the consumer's unbind: not removed with it. */
	if (flags & DMC_DL_FLAG_AUTOREMOVE_SUPPLIER)
		flags &= ~DMC_DL_FLAG_AUTOREMOVE_CONSUMER;

	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&dmc_links_mutex);
	old = __dmc_link_find(consumer, supplier);
	if (old) {
		__dmc_link_merge(old, flags);
		mutex_unlock(&dmc_links_mutex);
		kfree(link);
		dmc_pm_runtime_link_added(supplier, flags);
		return old;
	}
	/* Of no use once the consumer probed, as Linux. */
	if ((flags & DMC_DL_FLAG_SYNC_STATE_ONLY) &&
	    consumer->p->links_status != DMC_DL_DEV_NO_DRIVER &&
	    consumer->p->links_status != DMC_DL_DEV_PROBING) {
		mutex_unlock(&dmc_links_mutex);
		pr_err_ratelimited("dmcore: link_add: SYNC_STATE_ONLY link to '%s', which probed already\n",
				   dmc_dev_name(consumer));
		kfree(link);
		return ERR_PTR(-EINVAL);
	}
	/* Nothing depends on a consumer without children or consumers. */
	err = 0;
	if (!list_empty(&consumer->p->consumers) ||
	    dmc_device_has_children(consumer))
		err = dmc_depends_on(supplier, consumer);
	if (err > 0) {
		mutex_unlock(&dmc_links_mutex);
		pr_err_ratelimited("dmcore: link '%s' -> '%s' would close a cycle\n",
				   dmc_dev_name(consumer), dmc_dev_name(supplier));
		kfree(link);
		return ERR_PTR(-EINVAL);
	}
	link->consumer = dmc_device_get(consumer);
	link->supplier = dmc_device_get(supplier);
	link->flags = flags;
	/* Its device, as Linux registers link_dev under its links lock. */
	if (!err && dmc_devlink_view)
		err = dmc_devlink_view->add(link);
	/* The new link is not on the way down from the consumer. */
	if (!err)
		err = dmc_device_reorder_to_tail(consumer, &held);
	if (err) {
		mutex_unlock(&dmc_links_mutex);
		dmc_devvec_put_all(&held);
		dmc_link_discard(link);
		return ERR_PTR(err);
	}
	if (flags & DMC_DL_FLAG_STATELESS) {
		link->stateless_refs = 1;
		link->status = DMC_DL_STATE_NONE;
	} else {
		dmc_link_init_status(link);
	}
	list_add_tail(&link->c_node, &consumer->p->suppliers);
	list_add_tail(&link->s_node, &supplier->p->consumers);
	dmc_model_changed();
	dmc_link_show(link);
	dmc_pm_runtime_link_add(link);
	/*
	 * A deletion of either device that began meanwhile may have looked
	 * for links already, without the mutex (dmc_device_links_purge()):
	 * pairs with the barrier after dmc_device_del_claim() sets ->dead.
	 */
	smp_mb();
	if (READ_ONCE(consumer->p->dead) || READ_ONCE(supplier->p->dead)) {
		__dmc_link_unlink(link);
		mutex_unlock(&dmc_links_mutex);
		dmc_devvec_put_all(&held);
		dmc_link_free(link);
		pr_err_ratelimited("dmcore: link_add: a device is being deleted\n");
		return ERR_PTR(-EINVAL);
	}
	mutex_unlock(&dmc_links_mutex);
	dmc_devvec_put_all(&held);
	dmc_pm_runtime_link_added(supplier, flags);
	return link;
}
EXPORT_SYMBOL_GPL(dmc_device_link_add);

/**
 * dmc_device_link_del() - drop a reference on a link
 * @link: a link from dmc_device_link_add(), or NULL
 *
 * Drops one stateless reference if the link has any (one per stateless
 * dmc_device_link_add()), else the managed one; the link is deleted with
 * its last. The caller must own the reference it drops: a managed link
 * may be gone already by an autoremove or a device's deletion (use
 * dmc_device_link_remove() when unsure).
 *
 * Context: may sleep.
 */
void dmc_device_link_del(struct dmc_device_link *link)
{
	bool gone;

	if (!link)
		return;
	mutex_lock(&dmc_links_mutex);
	gone = __dmc_link_put(link);
	mutex_unlock(&dmc_links_mutex);
	if (gone)
		dmc_link_free(link);
}
EXPORT_SYMBOL_GPL(dmc_device_link_del);

/**
 * dmc_device_link_find() - the link between two devices
 * @consumer: the consumer
 * @supplier: the supplier
 *
 * Return: the link, or NULL. It stays valid until deleted.
 */
struct dmc_device_link *dmc_device_link_find(struct dmc_device *consumer,
					     struct dmc_device *supplier)
{
	struct dmc_device_link *link;

	if (!consumer || !supplier || !consumer->p || !supplier->p)
		return NULL;
	mutex_lock(&dmc_links_mutex);
	link = __dmc_link_find(consumer, supplier);
	mutex_unlock(&dmc_links_mutex);
	return link;
}
EXPORT_SYMBOL_GPL(dmc_device_link_find);

/**
 * dmc_device_link_status() - the state of a link
 * @link: a link its caller holds (not deleted)
 *
 * Return: its DMC_DL_STATE_*; DMC_DL_STATE_NONE for a stateless link.
 */
enum dmc_device_link_state dmc_device_link_status(struct dmc_device_link *link)
{
	return READ_ONCE(link->status);
}
EXPORT_SYMBOL_GPL(dmc_device_link_status);

/**
 * dmc_device_link_flags() - the flags of a link
 * @link: a link its caller holds (not deleted)
 *
 * Return: its DMC_DL_FLAG_*, MANAGED included for a managed link.
 */
u32 dmc_device_link_flags(struct dmc_device_link *link)
{
	u32 flags;

	mutex_lock(&dmc_links_mutex);
	flags = link->flags;
	mutex_unlock(&dmc_links_mutex);
	return flags;
}
EXPORT_SYMBOL_GPL(dmc_device_link_flags);

/**
 * dmc_device_link_remove() - drop a reference on the link between two devices
 * @consumer: the consumer
 * @supplier: the supplier
 *
 * As dmc_device_link_del() on the link found, in one step with the lookup:
 * safe against an autoremove or a deletion under way.
 *
 * Context: may sleep.
 * Return: 0, -EINVAL for NULL, or -ENOENT if there is no such link.
 */
int dmc_device_link_remove(struct dmc_device *consumer,
			   struct dmc_device *supplier)
{
	struct dmc_device_link *link;
	bool gone = false;

	if (!consumer || !supplier || !consumer->p || !supplier->p)
		return -EINVAL;
	mutex_lock(&dmc_links_mutex);
	link = __dmc_link_find(consumer, supplier);
	if (link)
		gone = __dmc_link_put(link);
	mutex_unlock(&dmc_links_mutex);
	if (!link)
		return -ENOENT;
	if (gone)
		dmc_link_free(link);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_device_link_remove);

/* Delete every link of a device being deleted. */
void dmc_device_links_purge(struct dmc_device *dev)
{
	struct dmc_device_link *link, *tmp;
	LIST_HEAD(dead);

	/*
	 * @dev is dead (dmc_device_del_claim()'s barrier follows): a link
	 * added from now on sees that and undoes itself, one added before
	 * is on a list seen here.
	 */
	if (list_empty(&dev->p->suppliers) && list_empty(&dev->p->consumers))
		return;
	mutex_lock(&dmc_links_mutex);
	list_for_each_entry_safe(link, tmp, &dev->p->suppliers, c_node) {
		__dmc_link_unlink(link);
		list_add(&link->c_node, &dead);
	}
	list_for_each_entry_safe(link, tmp, &dev->p->consumers, s_node) {
		__dmc_link_unlink(link);
		list_add(&link->c_node, &dead);
	}
	mutex_unlock(&dmc_links_mutex);
	list_for_each_entry_safe(link, tmp, &dead, c_node)
		dmc_link_free(link);
}

/*
 * dmc_device_move()'s half (device_move.c), under dmc_links_mutex, which
 * also covers the parents the graph walks read: does @from depend on @to
 * (through parents and suppliers)? 1, 0 or -ENOMEM.
 */
int dmc_links_depends_on(struct dmc_device *from, struct dmc_device *to)
{
	lockdep_assert_held(&dmc_links_mutex);
	return dmc_depends_on(from, to);
}

/*
 * Likewise: @dev and everything that depends on it to the tail of the
 * power order, as after a new link; references in @held for
 * dmc_devvec_put_all() once dmc_links_mutex is dropped.
 */
int dmc_links_reorder_to_tail(struct dmc_device *dev, struct dmc_devvec *held)
{
	return dmc_device_reorder_to_tail(dev, held);
}
