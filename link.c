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

/* Links mutex held; the caller puts the devices and frees the link. */
static void __dmc_link_unlink(struct dmc_device_link *link)
{
	list_del(&link->c_node);
	list_del(&link->s_node);
}

static void dmc_link_free(struct dmc_device_link *link)
{
	dmc_pm_runtime_link_del(link);
	dmc_device_put(link->consumer);
	dmc_device_put(link->supplier);
	kfree(link);
}

/**
 * dmc_device_link_add() - make @consumer depend on @supplier
 * @consumer: a registered device
 * @supplier: a registered device
 * @flags: DMC_DL_FLAG_* (0 makes the managed link described below);
 *	DMC_DL_FLAG_PM_RUNTIME: a runtime resume of the consumer resumes the
 *	supplier first and holds it while the consumer is active
 *	(runtime.c); DMC_DL_FLAG_RPM_ACTIVE (only with PM_RUNTIME): the link
 *	takes a runtime reference on the supplier and resumes it, dropped
 *	when the consumer next runtime-suspends or the link goes
 *
 * The link holds a reference on both devices until it is deleted. The
 * consumer (with its children and consumers) moves after the supplier in
 * the power order. A consumer already bound stays bound.
 *
 * Context: may sleep.
 * Return: the link, or ERR_PTR(-EINVAL) for NULL or unregistered devices,
 * a device linked to itself or a link that would close a cycle;
 * ERR_PTR(-EEXIST) if the link exists; ERR_PTR(-ENOMEM) (nothing changed);
 * ERR_PTR(-EINVAL) for flags it does not support (any but the two above).
 */
struct dmc_device_link *dmc_device_link_add(struct dmc_device *consumer,
					    struct dmc_device *supplier,
					    u32 flags)
{
	struct dmc_devvec held = {};
	struct dmc_device_link *link;
	int err;

	if ((flags & ~(DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_RPM_ACTIVE)) ||
	    ((flags & DMC_DL_FLAG_RPM_ACTIVE) && !(flags & DMC_DL_FLAG_PM_RUNTIME))) {
		pr_err_ratelimited("dmcore: link_add: flags %#x are not supported\n",
				   flags);
		return ERR_PTR(-EINVAL);
	}

	if (!dmc_device_is_registered(consumer) ||
	    !dmc_device_is_registered(supplier) || consumer == supplier) {
		pr_err_ratelimited("dmcore: link_add: %s\n",
				   consumer == supplier && consumer ?
				   "a device cannot depend on itself" :
				   "both devices must be registered");
		return ERR_PTR(-EINVAL);
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&dmc_links_mutex);
	if (__dmc_link_find(consumer, supplier)) {
		mutex_unlock(&dmc_links_mutex);
		kfree(link);
		return ERR_PTR(-EEXIST);
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
	/* The new link is not on the way down from the consumer. */
	if (!err)
		err = dmc_device_reorder_to_tail(consumer, &held);
	if (err) {
		mutex_unlock(&dmc_links_mutex);
		dmc_devvec_put_all(&held);
		kfree(link);
		return ERR_PTR(err);
	}
	link->consumer = dmc_device_get(consumer);
	link->supplier = dmc_device_get(supplier);
	link->flags = flags;
	list_add_tail(&link->c_node, &consumer->p->suppliers);
	list_add_tail(&link->s_node, &supplier->p->consumers);
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
 * dmc_device_link_del() - delete a link
 * @link: a link from dmc_device_link_add(), or NULL
 *
 * The link must not be deleted twice; a link whose device was deleted is
 * gone already (use dmc_device_link_remove() when unsure).
 *
 * Context: may sleep.
 */
void dmc_device_link_del(struct dmc_device_link *link)
{
	if (!link)
		return;
	mutex_lock(&dmc_links_mutex);
	__dmc_link_unlink(link);
	mutex_unlock(&dmc_links_mutex);
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
 * dmc_device_link_remove() - delete the link between two devices
 * @consumer: the consumer
 * @supplier: the supplier
 *
 * Context: may sleep.
 * Return: 0, -EINVAL for NULL, or -ENOENT if there is no such link.
 */
int dmc_device_link_remove(struct dmc_device *consumer,
			   struct dmc_device *supplier)
{
	struct dmc_device_link *link;

	if (!consumer || !supplier || !consumer->p || !supplier->p)
		return -EINVAL;
	mutex_lock(&dmc_links_mutex);
	link = __dmc_link_find(consumer, supplier);
	if (link)
		__dmc_link_unlink(link);
	mutex_unlock(&dmc_links_mutex);
	if (!link)
		return -ENOENT;
	dmc_link_free(link);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_device_link_remove);

/*
 * May @dev probe? If a supplier has no driver, copy its name to
 * @waits_for and return -EPROBE_DEFER.
 */
int dmc_device_links_check_suppliers(struct dmc_device *dev, char *waits_for,
				     size_t size)
{
	struct dmc_device_link *link;
	int ret = 0;

	/* A link added right after this peek: as if added after the unlock. */
	if (list_empty(&dev->p->suppliers))
		return 0;
	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node) {
		if (!dmc_device_is_bound(link->supplier)) {
			strscpy(waits_for, dmc_dev_name(link->supplier), size);
			ret = -EPROBE_DEFER;
			break;
		}
	}
	mutex_unlock(&dmc_links_mutex);
	return ret;
}

/* Has @dev a bound consumer? */
bool dmc_device_links_consumers_bound(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	bool ret = false;

	if (list_empty(&dev->p->consumers))	/* as in check_suppliers */
		return false;
	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->consumers, s_node)
		if (dmc_device_is_bound(link->consumer))
			ret = true;
	mutex_unlock(&dmc_links_mutex);
	return ret;
}

/*
 * The end of a path of bound consumers from @dev: a bound device that
 * depends on @dev and has no bound consumer itself, referenced; NULL when
 * @dev has no bound consumer. The path is followed in a loop, marking
 * the devices seen, so its length costs no stack.
 */
struct dmc_device *dmc_links_bound_leaf(struct dmc_device *dev)
{
	struct dmc_device *cur = dev, *next;
	struct dmc_device_link *link;
	unsigned int gen;

	if (list_empty(&dev->p->consumers))	/* as in check_suppliers */
		return NULL;
	mutex_lock(&dmc_links_mutex);
	gen = dmc_links_new_gen();
	dev->p->link_gen = gen;
	do {
		next = NULL;
		list_for_each_entry(link, &cur->p->consumers, s_node) {
			if (link->consumer->p->link_gen != gen &&
			    dmc_device_is_bound(link->consumer)) {
				next = link->consumer;
				break;
			}
		}
		if (next) {
			next->p->link_gen = gen;
			cur = next;
		}
	} while (next);
	cur = cur == dev ? NULL : dmc_device_get(cur);
	mutex_unlock(&dmc_links_mutex);
	return cur;
}

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
