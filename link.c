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
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

/* Every device's link lists; see base.h. */
DEFINE_MUTEX(dmc_links_mutex);

/* Generation mark for the cycle search; dmc_links_mutex. */
static unsigned int dmc_links_gen;

/* Does @from depend on @to through links or parents? Links mutex held. */
static bool dmc_depends_on(struct dmc_device *from, struct dmc_device *to)
{
	struct dmc_device_link *link;

	if (from == to)
		return true;
	if (from->p->link_gen == dmc_links_gen)
		return false;	/* seen already in this search */
	from->p->link_gen = dmc_links_gen;
	if (from->parent && dmc_depends_on(from->parent, to))
		return true;
	list_for_each_entry(link, &from->p->suppliers, c_node)
		if (dmc_depends_on(link->supplier, to))
			return true;
	return false;
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

/**
 * dmc_device_link_add() - make @consumer depend on @supplier
 * @consumer: a registered device
 * @supplier: a registered device
 *
 * The link holds a reference on both devices until it is deleted. The
 * consumer (with its children and consumers) moves after the supplier in
 * the power order. A consumer already bound stays bound.
 *
 * Context: may sleep.
 * Return: the link, or ERR_PTR(-EINVAL) for NULL or unregistered devices,
 * a device linked to itself or a link that would close a cycle;
 * ERR_PTR(-EEXIST) if the link exists; ERR_PTR(-ENOMEM).
 */
struct dmc_device_link *dmc_device_link_add(struct dmc_device *consumer,
					    struct dmc_device *supplier)
{
	struct dmc_device_link *link;

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
	dmc_links_gen++;
	if (dmc_depends_on(supplier, consumer)) {
		mutex_unlock(&dmc_links_mutex);
		pr_err_ratelimited("dmcore: link '%s' -> '%s' would close a cycle\n",
				   dmc_dev_name(consumer), dmc_dev_name(supplier));
		kfree(link);
		return ERR_PTR(-EINVAL);
	}
	link->consumer = dmc_device_get(consumer);
	link->supplier = dmc_device_get(supplier);
	list_add_tail(&link->c_node, &consumer->p->suppliers);
	list_add_tail(&link->s_node, &supplier->p->consumers);
	dmc_dpm_reorder_to_tail(consumer);
	mutex_unlock(&dmc_links_mutex);
	return link;
}
EXPORT_SYMBOL_GPL(dmc_device_link_add);

/* Links mutex held; the caller puts the devices and frees the link. */
static void __dmc_link_unlink(struct dmc_device_link *link)
{
	list_del(&link->c_node);
	list_del(&link->s_node);
}

static void dmc_link_free(struct dmc_device_link *link)
{
	dmc_device_put(link->consumer);
	dmc_device_put(link->supplier);
	kfree(link);
}

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

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->consumers, s_node)
		if (dmc_device_is_bound(link->consumer))
			ret = true;
	mutex_unlock(&dmc_links_mutex);
	return ret;
}

/* Unbind every bound consumer of @dev (before @dev itself unbinds). */
void dmc_device_links_unbind_consumers(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	struct dmc_device *consumer;

	for (;;) {
		consumer = NULL;
		mutex_lock(&dmc_links_mutex);
		list_for_each_entry(link, &dev->p->consumers, s_node) {
			if (dmc_device_is_bound(link->consumer)) {
				consumer = dmc_device_get(link->consumer);
				break;
			}
		}
		mutex_unlock(&dmc_links_mutex);
		if (!consumer)
			return;
		dmc_device_release_driver(consumer);
		dmc_device_put(consumer);
	}
}

/* Delete every link of a device being deleted. */
void dmc_device_links_purge(struct dmc_device *dev)
{
	struct dmc_device_link *link, *tmp;
	LIST_HEAD(dead);

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
