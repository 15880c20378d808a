// SPDX-License-Identifier: GPL-2.0
/*
 * A bus's drivers as the probe walks see them: dmc_driver_srcu, under
 * which a device is offered to the drivers of its bus, and the optional
 * match index, which lets a bus say which drivers may match a device so
 * that its offer skips the others.
 *
 * Linux has no such index: a device's probe (__device_attach()) walks
 * every driver of its bus and calls the bus's match for each, which is
 * what dmcore does by default too. A bus that matches on an id (a PCI
 * vendor:device pair, a compatible string, a name) can give dmcore the
 * device's id (dev_match_key) and each driver's id table
 * (drv_match_keys); the index maps an id to the drivers that list it.
 * A device with an id is then offered, in registration order, only to
 * those drivers and to the drivers that list no id at all; the bus's
 * match still decides for each. A device without an id (or with one too
 * long) is offered to every driver, as without the index.
 *
 * The index is DMC_MATCH_BUCKETS hash lists per bus, allocated at the
 * bus's registration. A driver's entries (one per id, or one in
 * match_any for a driver without ids) are allocated before it is
 * registered, linked with its registration sequence number under
 * dmc_driver_p_lock (driver.c), unlinked under it at unregistration and
 * freed after a grace period of dmc_driver_srcu, the walks' read side.
 * A walk keeps no pointer into the index across a probe: it asks again
 * for the first candidate registered after the last one it offered
 * (dmc_match_next()), so a driver that came or went meanwhile is seen or
 * skipped as in the full walk.
 */

#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "base.h"

/* The read side of every walk over a bus's drivers (see base.h). */
DEFINE_SRCU(dmc_driver_srcu);

#define DMC_MATCH_BITS		8
#define DMC_MATCH_BUCKETS	BIT(DMC_MATCH_BITS)

/**
 * dmc_match_index_init() - give a bus with match keys its index
 * @priv: the bus's private part, not yet registered
 *
 * Return: 0 (also for a bus without dev_match_key, which gets no index),
 * -ENOMEM. dmc_match_index_destroy() frees it.
 */
int dmc_match_index_init(struct dmc_subsys_private *priv)
{
	unsigned int i;

	INIT_HLIST_HEAD(&priv->match_any);
	if (!priv->bus->dev_match_key)
		return 0;
	priv->match_index = kmalloc_array(DMC_MATCH_BUCKETS,
					  sizeof(*priv->match_index), GFP_KERNEL);
	if (!priv->match_index)
		return -ENOMEM;
	for (i = 0; i < DMC_MATCH_BUCKETS; i++)
		INIT_HLIST_HEAD(&priv->match_index[i]);
	return 0;
}

/* Free @priv's index, empty: every driver was unlinked and freed. */
void dmc_match_index_destroy(struct dmc_subsys_private *priv)
{
	unsigned int i;

	if (!priv->match_index)
		return;
	for (i = 0; i < DMC_MATCH_BUCKETS; i++)
		WARN_ON_ONCE(!hlist_empty(&priv->match_index[i]));
	kfree(priv->match_index);
	priv->match_index = NULL;
}

/**
 * dmc_match_hash() - the hash of a match key on a bus
 * @priv: the bus's private part
 * @key: the key
 *
 * Seeded per load and salted with the bus, as the name indexes are.
 */
u32 dmc_match_hash(const struct dmc_subsys_private *priv, const char *key)
{
	return dmc_name_hash(key, (unsigned long)priv);
}

/*
 * The ids @drv lists on @bus, checked: NULL for none (a driver that may
 * match any device), an ERR_PTR(-EINVAL) for an empty id or one of
 * DMC_MATCH_KEY_MAX bytes or more (said in the log). *@n is their number.
 */
static const char * const *
dmc_match_keys_of(const struct dmc_bus_type *bus, const struct dmc_driver *drv,
		  unsigned int *n)
{
	const char * const *keys;
	size_t len;

	*n = 0;
	keys = bus->drv_match_keys ? bus->drv_match_keys(drv) : NULL;
	if (!keys || !keys[0])
		return NULL;
	for (; keys[*n]; (*n)++) {
		len = strnlen(keys[*n], DMC_MATCH_KEY_MAX);
		if (!len || len == DMC_MATCH_KEY_MAX) {
			pr_err_ratelimited("dmcore: driver '%s': match key %u is %s\n",
					   drv->name, *n, len ? "too long" : "empty");
			return ERR_PTR(-EINVAL);
		}
	}
	return keys;
}

/**
 * dmc_match_keys_check() - may @drv's match keys be indexed?
 * @drv: a driver about to be registered on a bus with match keys
 *
 * Return: 0; -EINVAL for an empty key or one too long, said in the log.
 */
int dmc_match_keys_check(const struct dmc_driver *drv)
{
	unsigned int n;

	if (!drv->bus->dev_match_key)
		return 0;
	return PTR_ERR_OR_ZERO(dmc_match_keys_of(drv->bus, drv, &n));
}

/**
 * dmc_match_keys_prepare() - allocate the index entries of a driver
 * @dp: the driver's private part, before its registration is visible
 * @drv: the driver, with its bus
 *
 * One entry per key, or one for a driver without keys; none on a bus
 * without an index. dmc_match_keys_link() puts them in the index;
 * dmc_match_keys_free() (also after a failed registration) frees them.
 *
 * Return: 0, -EINVAL for a bad key, -ENOMEM.
 */
int dmc_match_keys_prepare(struct dmc_driver_private *dp,
			   const struct dmc_driver *drv)
{
	const char * const *keys;
	unsigned int i, n;

	if (!dp->bus->match_index)
		return 0;
	keys = dmc_match_keys_of(drv->bus, drv, &n);
	if (IS_ERR(keys))
		return PTR_ERR(keys);
	dp->match_keys = kcalloc(max(n, 1U), sizeof(*dp->match_keys), GFP_KERNEL);
	if (!dp->match_keys)
		return -ENOMEM;
	dp->nr_match_keys = max(n, 1U);
	for (i = 0; i < dp->nr_match_keys; i++) {
		dp->match_keys[i].dp = dp;
		if (!keys)
			continue;
		dp->match_keys[i].key = keys[i];
		dp->match_keys[i].hash = dmc_match_hash(dp->bus, keys[i]);
	}
	return 0;
}

/**
 * dmc_match_keys_link() - put a driver's entries in its bus's index
 * @dp: the driver's private part, its entries prepared and @dp->seq set
 *
 * Context: under dmc_driver_p_lock, with @dp put on the bus's list of
 * drivers in the same hold, so a walk sees both or neither.
 */
void dmc_match_keys_link(struct dmc_driver_private *dp)
{
	struct dmc_subsys_private *priv = dp->bus;
	struct dmc_match_key *mk;
	unsigned int i;

	for (i = 0; i < dp->nr_match_keys; i++) {
		mk = &dp->match_keys[i];
		hlist_add_tail_rcu(&mk->node, mk->key ?
				   &priv->match_index[hash_32(mk->hash, DMC_MATCH_BITS)] :
				   &priv->match_any);
	}
}

/**
 * dmc_match_keys_unlink() - take a driver's entries out of the index
 * @dp: the driver's private part, linked
 *
 * Context: under dmc_driver_p_lock. Walks may still read the entries
 * until a grace period of dmc_driver_srcu has passed.
 */
void dmc_match_keys_unlink(struct dmc_driver_private *dp)
{
	unsigned int i;

	for (i = 0; i < dp->nr_match_keys; i++)
		hlist_del_rcu(&dp->match_keys[i].node);
}

/**
 * dmc_match_keys_free() - free a driver's entries
 * @dp: the driver's private part: never linked, or unlinked and a grace
 *	period of dmc_driver_srcu past
 */
void dmc_match_keys_free(struct dmc_driver_private *dp)
{
	kfree(dp->match_keys);
	dp->match_keys = NULL;
	dp->nr_match_keys = 0;
}

/**
 * dmc_match_device_key() - a device's match key, if its bus indexes them
 * @dev: a device on a bus
 * @priv: its bus's private part
 * @key: DMC_MATCH_KEY_MAX bytes for the key
 * @hash: its hash
 *
 * Return: true with @key and @hash set; false when the bus has no index
 * or the device has no key (or one too long): the walk offers the device
 * to every driver then.
 */
bool dmc_match_device_key(struct dmc_device *dev, struct dmc_subsys_private *priv,
			  char *key, u32 *hash)
{
	int len;

	if (!priv->match_index)
		return false;
	len = dev->bus->dev_match_key(dev, key, DMC_MATCH_KEY_MAX);
	if (len <= 0)
		return false;
	if (len >= DMC_MATCH_KEY_MAX) {
		pr_debug("dmcore: '%s': match key too long, every driver offered\n",
			 dev->kobj.name);
		return false;
	}
	*hash = dmc_match_hash(priv, key);
	return true;
}

/**
 * dmc_match_next() - the next driver a keyed device is offered to
 * @priv: the bus's private part, with an index
 * @key: the device's key
 * @hash: its hash
 * @after: the registration number of the last driver offered (0 first)
 *
 * Of the drivers listing @key and those listing no key, the one
 * registered first after @after: the order of the full walk.
 *
 * Context: caller holds dmc_driver_srcu.
 * Return: that driver's private part, valid under the read side; NULL
 * when there is none.
 */
struct dmc_driver_private *dmc_match_next(struct dmc_subsys_private *priv,
					  const char *key, u32 hash,
					  unsigned long after)
{
	struct dmc_driver_private *best = NULL;
	struct hlist_head *bucket;
	struct dmc_match_key *mk;

	bucket = &priv->match_index[hash_32(hash, DMC_MATCH_BITS)];
	hlist_for_each_entry_srcu(mk, bucket, node,
				  srcu_read_lock_held(&dmc_driver_srcu)) {
		if (mk->hash != hash || mk->dp->seq <= after ||
		    (best && mk->dp->seq >= best->seq) || strcmp(mk->key, key))
			continue;
		best = mk->dp;
	}
	hlist_for_each_entry_srcu(mk, &priv->match_any, node,
				  srcu_read_lock_held(&dmc_driver_srcu)) {
		if (mk->dp->seq <= after)
			continue;
		if (!best || mk->dp->seq < best->seq)
			best = mk->dp;
		break;	/* linked in registration order */
	}
	return best;
}
