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
 *
 * Each list is in registration order (entries are appended under the
 * lock that hands out the numbers), so a walk merges the device's bucket
 * and match_any in one pass (struct dmc_match_cursor). It keeps no
 * position across a probe, which it makes outside the read side: it
 * seeks again for the first candidates registered after the last driver
 * it offered, so a driver that came or went meanwhile is seen or skipped
 * as in the full walk.
 *
 * The paths that offer a device to one given driver (a driver's
 * registration, its bind file, an asynchronous probe) ask
 * dmc_match_driver_lists() first, so a device binds to the same drivers
 * whichever of it and its driver came first.
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
 * Keeps the bus's two callbacks: a bus that changes them while
 * registered changes nothing.
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
	priv->dev_match_key = priv->bus->dev_match_key;
	priv->drv_match_keys = priv->bus->drv_match_keys;
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
	WARN_ON_ONCE(!hlist_empty(&priv->match_any));
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
 * The keys @drv lists on @priv's bus, checked: NULL for none (a driver
 * that may match any device), an ERR_PTR(-EINVAL) for an empty key or one
 * of DMC_MATCH_KEY_MAX bytes or more (said in the log). *@n is their
 * number.
 */
static const char * const *
dmc_match_keys_of(const struct dmc_subsys_private *priv, const struct dmc_driver *drv,
		  unsigned int *n)
{
	const char * const *keys = priv->drv_match_keys(drv);
	size_t len;

	*n = 0;
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
 * dmc_match_keys_prepare() - allocate the index entries of a driver
 * @dp: the driver's private part, before its registration is visible
 * @drv: the driver
 *
 * Reads the driver's keys (the only time they are read), checks them and
 * makes one entry per key, or one for a driver without keys; none on a
 * bus without an index. dmc_match_keys_link() puts them in the index;
 * dmc_match_keys_free() (also after a failed registration) frees them.
 *
 * Return: 0, -EINVAL for an empty key or one too long, -ENOMEM.
 */
int dmc_match_keys_prepare(struct dmc_driver_private *dp,
			   const struct dmc_driver *drv)
{
	const char * const *keys;
	unsigned int i, n;

	if (!dp->bus->match_index)
		return 0;
	keys = dmc_match_keys_of(dp->bus, drv, &n);
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
 * drivers in the same hold, so a walk sees both or neither, and with
 * @dp->seq the highest on the bus, so every list stays in registration
 * order.
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
 * @dev: a device on a bus, locked
 * @priv: its bus's private part
 * @key: DMC_MATCH_KEY_MAX bytes for the key
 * @hash: its hash
 *
 * Return: true with @key and @hash set; false when the bus has no index,
 * the device has no key (or one too long) or a driver_override: it is
 * offered to every driver then.
 */
bool dmc_match_device_key(struct dmc_device *dev, const struct dmc_subsys_private *priv,
			  char *key, u32 *hash)
{
	int len;

	/*
	 * A device with a driver_override is offered to every driver: the
	 * one it names need not list its key (dd.c's match decides).
	 */
	if (!priv->match_index || dev->p->driver_override)
		return false;
	len = priv->dev_match_key(dev, key, DMC_MATCH_KEY_MAX);
	if (len <= 0)
		return false;
	if (len >= DMC_MATCH_KEY_MAX) {
		pr_debug("dmcore: '%s': match key too long, every driver offered\n",
			 dev->kobj.name);
		return false;
	}
	key[len] = '\0';	/* whatever the callback wrote */
	*hash = dmc_match_hash(priv, key);
	return true;
}

/**
 * dmc_match_driver_lists() - may a device be offered to a given driver?
 * @dev: a device on a bus, locked
 * @dp: a driver of that bus
 *
 * For the paths that offer a device to one driver: false only when the
 * bus has an index, the device a key and the driver keys, none of them
 * the device's.
 */
bool dmc_match_driver_lists(struct dmc_device *dev, struct dmc_driver_private *dp)
{
	char key[DMC_MATCH_KEY_MAX];
	unsigned int i;
	u32 hash;

	if (!dp->nr_match_keys || !dp->match_keys[0].key ||
	    !dmc_match_device_key(dev, dp->bus, key, &hash))
		return true;
	for (i = 0; i < dp->nr_match_keys; i++)
		if (dp->match_keys[i].hash == hash && !strcmp(dp->match_keys[i].key, key))
			return true;
	return false;
}

/*
 * The first entry from @pos on registered after @after and, in a bucket
 * (@key set), listing @key. Under the read side.
 */
static struct dmc_match_key *dmc_match_skip(struct hlist_node *pos, const char *key,
					    u32 hash, unsigned long after)
{
	struct dmc_match_key *mk;

	for (; pos; pos = srcu_dereference(hlist_next_rcu(pos), &dmc_driver_srcu)) {
		mk = hlist_entry(pos, struct dmc_match_key, node);
		if (mk->dp->seq <= after)
			continue;
		if (!key || (mk->hash == hash && !strcmp(mk->key, key)))
			return mk;
	}
	return NULL;
}

static struct hlist_node *dmc_match_first(struct hlist_head *h)
{
	return srcu_dereference(hlist_first_rcu(h), &dmc_driver_srcu);
}

static struct hlist_node *dmc_match_after(struct dmc_match_key *mk)
{
	return srcu_dereference(hlist_next_rcu(&mk->node), &dmc_driver_srcu);
}

/**
 * dmc_match_seek() - (re)start a keyed walk after a registration number
 * @c: the cursor, with @c->priv, @c->key, @c->hash and @c->seq set
 *
 * Finds, in the device's bucket and in match_any, the first candidates
 * registered after @c->seq: for the walk's start (@c->seq 0) and again
 * after each probe, which the walk makes outside the read side.
 *
 * Context: caller holds dmc_driver_srcu.
 */
void dmc_match_seek(struct dmc_match_cursor *c)
{
	struct hlist_head *bucket;

	bucket = &c->priv->match_index[hash_32(c->hash, DMC_MATCH_BITS)];
	c->k = dmc_match_skip(dmc_match_first(bucket), c->key, c->hash, c->seq);
	c->a = dmc_match_skip(dmc_match_first(&c->priv->match_any), NULL, 0, c->seq);
}

/**
 * dmc_match_next() - the next driver a keyed device is offered to
 * @c: the cursor, sought under the same read side
 *
 * Of the drivers listing the key and those listing none, the one
 * registered first: the order of the full walk. Advances @c past it and
 * sets @c->seq to its number.
 *
 * Context: caller holds dmc_driver_srcu, since dmc_match_seek().
 * Return: that driver's private part, valid under the read side; NULL
 * when there is none.
 */
struct dmc_driver_private *dmc_match_next(struct dmc_match_cursor *c)
{
	struct dmc_match_key *mk;

	if (c->k && (!c->a || c->k->dp->seq < c->a->dp->seq)) {
		mk = c->k;
		c->k = dmc_match_skip(dmc_match_after(mk), c->key, c->hash, mk->dp->seq);
	} else if (c->a) {
		mk = c->a;
		c->a = dmc_match_skip(dmc_match_after(mk), NULL, 0, mk->dp->seq);
	} else {
		return NULL;
	}
	c->seq = mk->dp->seq;
	return mk->dp;
}

/*
 * One list of @priv's index (@bucket, or -1 for match_any) checked: in
 * registration order, each entry of this bus and where its key's hash
 * puts it. Returns the entries out of place; *@what says how, for the
 * first. Under the read side.
 */
static unsigned int dmc_match_check_list(struct dmc_subsys_private *priv,
					 struct hlist_head *h, int bucket,
					 const char **what)
{
	unsigned long last = 0;
	struct dmc_match_key *mk;
	unsigned int bad = 0;
	const char *why;

	hlist_for_each_entry_srcu(mk, h, node, srcu_read_lock_held(&dmc_driver_srcu)) {
		why = NULL;
		if (mk->dp->bus != priv)
			why = "an entry of another bus's driver";
		else if (mk->dp->seq < last)
			why = "entries out of registration order";
		else if (bucket < 0 && mk->key)
			why = "a keyed entry among the keyless";
		else if (bucket >= 0 && (!mk->key || hash_32(mk->hash, DMC_MATCH_BITS) != bucket ||
					 dmc_match_hash(priv, mk->key) != mk->hash))
			why = "an entry in the wrong bucket";
		last = mk->dp->seq;
		if (why && !bad++)
			*what = why;
	}
	return bad;
}

/**
 * dmc_match_index_check() - is a bus's match index well formed?
 * @priv: a registered bus's private part
 * @what: set to what is wrong with the first bad entry
 *
 * For dmc_check_invariants(): every list in registration order, every
 * entry of the bus, in the bucket of its key's hash (keyless ones in
 * match_any). Safe against registrations and unregistrations running.
 *
 * Return: the number of bad entries; 0 for a bus without an index.
 */
unsigned int dmc_match_index_check(struct dmc_subsys_private *priv, const char **what)
{
	unsigned int bad = 0;
	int i, idx;

	if (!priv->match_index)
		return 0;
	idx = srcu_read_lock(&dmc_driver_srcu);
	for (i = 0; i < DMC_MATCH_BUCKETS; i++)
		bad += dmc_match_check_list(priv, &priv->match_index[i], i, what);
	bad += dmc_match_check_list(priv, &priv->match_any, -1, what);
	srcu_read_unlock(&dmc_driver_srcu, idx);
	return bad;
}
