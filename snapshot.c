// SPDX-License-Identifier: GPL-2.0
/*
 * The whole model in one read: the text of the tree's root file
 * "snapshot" (docs/snapshot.md has the format), built in one consistent
 * state of the model. Linux has no counterpart: a tool that walks /sys
 * reads one file at a time and can see a device's new parent with its
 * old driver; `dmctl graph` reads this instead.
 *
 * The state is held still by the snapshot's locks, taken in base.h's
 * order: dmc_pm_transition_mutex (system power states), dmc_links_mutex
 * (links and their states), then the model lock's write side
 * (model_lock.c), which waits for every change under way and holds new
 * ones off. Under them the snapshot takes spinlocks (klist locks,
 * dmc_name_lock, the event log's) and dmc_deferred_mutex (a deferral's
 * reason), under which no change of the model is ever begun.
 * The match lines come after the locks are dropped: a bus's match()
 * runs under the device lock, never under the model lock, and a device
 * whose lock is taken (a probe under way) is skipped, not waited for.
 */

#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include <dmcore/snapshot.h>
#include "base.h"

struct dmc_snap_dev {
	struct dmc_device *dev;
	char *path;	/* made once, escaped at print */
	unsigned int depth;
};

/*
 * The text goes into a seq_file used as a plain buffer (m.buf, m.size,
 * m.count), so that the root's files share one escaping helper
 * (dmc_seq_escape()); a full buffer is seq_has_overflowed().
 */
struct dmc_snap {
	struct seq_file m;
	struct dmc_probe_info *info;	/* scratch, one device at a time */
	struct dmc_snap_dev *devs;	/* registered devices, parents first */
	unsigned int ndevs, cap;
	struct dmc_kobject **held;	/* the walk's other members, put after */
	unsigned int nheld, heldcap;
	unsigned long mark;	/* this snapshot's snap_mark */
	unsigned int buses, classes, drivers, devices, links, matches;
};

/*
 * One snapshot at a time: the marks (p->snap_mark, p->snap_idx,
 * dp->snap_mark) are this snapshot's until its match lines are made.
 * Taken before every other lock of the snapshot's.
 */
static DEFINE_MUTEX(dmc_snap_mutex);
static unsigned long dmc_snap_marks;	/* under dmc_snap_mutex */

dmc_snapshot_hook_t dmc_snapshot_test_hook;
EXPORT_SYMBOL_GPL(dmc_snapshot_test_hook);

#define dmc_snap_printf(s, ...)	seq_printf(&(s)->m, __VA_ARGS__)

/* @str as one word, "-" for NULL or "" (escape.c). */
static void dmc_snap_name(struct dmc_snap *s, const char *str)
{
	dmc_seq_escape(&s->m, str);
}

/* Is @dev on the snapshot's list (a parent listed before it)? */
static bool dmc_snap_listed(struct dmc_snap *s, struct dmc_device *dev)
{
	return dev && dev->p && dev->p->snap_mark == s->mark;
}

/* A listed device's path, "/devices/...", escaped; "-" for none. */
static void dmc_snap_path(struct dmc_snap *s, struct dmc_device *dev)
{
	if (!dmc_snap_listed(s, dev)) {
		dmc_snap_name(s, NULL);
		return;
	}
	dmc_snap_name(s, s->devs[dev->p->snap_idx].path);
}

/* ---- the devices -------------------------------------------------------- */

/* @*arr of @*cap elements of @size, grown (kvmalloc: no size limit). */
static int dmc_snap_grow_array(void **arr, unsigned int *cap, size_t size)
{
	unsigned int ncap = *cap ? *cap * 2 : 64;
	void *grown = kvmalloc_array(ncap, size, GFP_KERNEL);

	if (!grown)
		return -ENOMEM;
	if (*arr)
		memcpy(grown, *arr, *cap * size);
	kvfree(*arr);
	*arr = grown;
	*cap = ncap;
	return 0;
}

static int dmc_snap_dev_cmp(const void *a, const void *b)
{
	const struct dmc_snap_dev *x = a, *y = b;

	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/*
 * Every device registered and not being deleted, referenced, with its
 * path, parents before children. The walk's other members are held too
 * (s->held), so that no put of the walk is a last one while the model is
 * frozen: releases run after the thaw.
 */
static int dmc_snap_collect(struct dmc_snap *s)
{
	struct dmc_device *dev, *up;
	struct dmc_kobject *kobj;
	struct dmc_snap_dev *sd;
	struct dmc_kset_iter it;
	int err = 0;

	dmc_kset_iter_start(dmc_devices_kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		dev = dmc_kobject_is_device(kobj) ? to_dmc_device(kobj) : NULL;
		if (!dev || !dev->p || !READ_ONCE(dev->p->registered) ||
		    READ_ONCE(dev->p->dead)) {
			if (s->nheld == s->heldcap &&
			    dmc_snap_grow_array((void **)&s->held, &s->heldcap,
						sizeof(*s->held))) {
				err = -ENOMEM;
				break;
			}
			s->held[s->nheld++] = dmc_kobject_get(kobj);
			continue;
		}
		if (s->ndevs == s->cap &&
		    dmc_snap_grow_array((void **)&s->devs, &s->cap, sizeof(*s->devs))) {
			err = -ENOMEM;
			break;
		}
		sd = &s->devs[s->ndevs];
		sd->path = dmc_kobject_get_path(kobj, GFP_KERNEL);
		if (!sd->path) {
			err = -ENOMEM;
			break;
		}
		sd->dev = dmc_device_get(dev);
		sd->depth = 0;
		for (up = dev->parent; up; up = up->parent)
			sd->depth++;
		s->ndevs++;
		cond_resched();
	}
	dmc_kset_iter_exit(&it);
	sort(s->devs, s->ndevs, sizeof(*s->devs), dmc_snap_dev_cmp, NULL);
	return err;
}

static void dmc_snap_put_devices(struct dmc_snap *s)
{
	while (s->ndevs) {
		s->ndevs--;
		kfree(s->devs[s->ndevs].path);
		dmc_device_put(s->devs[s->ndevs].dev);
	}
	while (s->nheld)
		dmc_kobject_put(s->held[--s->nheld]);
}

/* Bound: on its driver's list, as the tree's "driver" link shows it. */
static struct dmc_driver *dmc_snap_driver(struct dmc_device *dev)
{
	if (!dmc_klist_node_attached(&dev->p->knode_driver))
		return NULL;
	return READ_ONCE(dev->driver);
}

static const char * const dmc_snap_rpm[] = {
	[DMC_RPM_ACTIVE] = "active",
	[DMC_RPM_RESUMING] = "resuming",
	[DMC_RPM_SUSPENDED] = "suspended",
	[DMC_RPM_SUSPENDING] = "suspending",
};

static const char *dmc_snap_runtime(struct dmc_device *dev)
{
	enum dmc_rpm_status st;

	if (!dmc_pm_runtime_enabled(dev))
		return "disabled";
	st = dmc_pm_runtime_status(dev);
	return st >= 0 && st < ARRAY_SIZE(dmc_snap_rpm) ? dmc_snap_rpm[st] : "invalid";
}

static void dmc_snap_device(struct dmc_snap *s, struct dmc_device *dev)
{
	struct dmc_subsys_private *bp = dev->bus ? READ_ONCE(dev->bus->p) : NULL;
	struct dmc_driver *drv = dmc_snap_driver(dev);

	dmc_snap_printf(s, "device ");
	dmc_snap_path(s, dev);
	dmc_snap_printf(s, " parent=");
	dmc_snap_path(s, dev->parent);
	dmc_snap_printf(s, " bus=");
	dmc_snap_name(s, dev->bus ? dev->bus->name : NULL);
	dmc_snap_printf(s, " class=");
	dmc_snap_name(s, dev->class ? dev->class->name : NULL);
	dmc_snap_printf(s, " driver=");
	dmc_snap_name(s, drv ? drv->name : NULL);
	dmc_snap_printf(s, " power=%s runtime=%s",
			READ_ONCE(dev->p->power_state) == DMC_POWER_SUSPENDED ?
			"suspended" : "on", dmc_snap_runtime(dev));
	/* Changed in a section, freed after it (dmc_driver_set_override()). */
	dmc_snap_printf(s, " override=");
	dmc_snap_name(s, READ_ONCE(dev->p->driver_override));
	dmc_snap_printf(s, " autoprobe=%d",
			bp ? READ_ONCE(bp->drivers_autoprobe) : 0);
	/* Takes dmc_deferred_mutex for a deferral: allowed under the model lock. */
	dmc_device_probe_info(dev, s->info);
	dmc_snap_printf(s, " probe=%s errno=%d waits=",
			dmc_probe_result_name(s->info->result), s->info->err);
	dmc_snap_name(s, s->info->waits);
	dmc_snap_printf(s, " reason=");
	dmc_snap_name(s, s->info->reason);
	dmc_snap_printf(s, " probes=%lu probe_ns=%llu remove_ns=%llu", s->info->probes,
			s->info->probe_ns, s->info->remove_ns);
	dmc_snap_printf(s, " suspend_ns=%llu resume_ns=%llu\n",
			s->info->suspend_ns, s->info->resume_ns);
	s->devices++;
}

/* ---- buses, classes, drivers, links ------------------------------------ */

/* Listed devices on @k, whose nodes are at @off in dmc_device_private. */
static unsigned int dmc_snap_klist_count(struct dmc_snap *s, struct dmc_klist *k,
					 size_t off)
{
	struct dmc_device_private *p;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	unsigned int count = 0;

	dmc_klist_iter_start(k, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		p = (struct dmc_device_private *)((char *)n - off);
		count += dmc_snap_listed(s, p->device);
	}
	dmc_klist_iter_exit(&it);
	return count;
}

#define dmc_snap_count(s, k, member) \
	dmc_snap_klist_count(s, k, offsetof(struct dmc_device_private, member))

static void dmc_snap_driver_line(struct dmc_snap *s, const char *bus,
				 struct dmc_driver_private *dp, bool removing)
{
	dmc_snap_printf(s, "driver ");
	dmc_snap_name(s, bus);
	dmc_snap_printf(s, " ");
	dmc_snap_name(s, dp->kobj.name);
	dmc_snap_printf(s, " devices=%u%s\n",
			dmc_snap_count(s, &dp->klist_devices, knode_driver),
			removing ? " removing=1" : "");
	dp->snap_mark = s->mark;
	s->drivers++;
}

/* The drivers on @priv's list; with !@print, only how many. */
static unsigned int dmc_snap_drivers(struct dmc_snap *s, struct dmc_subsys_private *priv,
				     bool print)
{
	struct dmc_driver_private *dp;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	unsigned int count = 0;

	dmc_klist_iter_start(&priv->klist_drivers, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		dp = container_of(n, struct dmc_driver_private, knode_bus);
		count++;
		if (print)
			dmc_snap_driver_line(s, priv->subsys.kobj.name, dp, false);
	}
	dmc_klist_iter_exit(&it);
	return count;
}

/*
 * A bus is shown from the moment it joins the bus set (before its "add"
 * event) while registered, and while being unregistered ("removing": its
 * devices are deleted and its drivers removed first) as long as it has a
 * device or driver left, so never after its "remove" event. A class is
 * shown while its private part names it (cleared with cls->p, in one
 * section, after its devices went).
 */
static bool dmc_snap_subsys_shown(struct dmc_snap *s, struct dmc_subsys_private *priv,
				  bool is_bus, bool *removing)
{
	*removing = false;
	if (!is_bus)
		return READ_ONCE(priv->class);
	if (READ_ONCE(priv->bus))
		return true;
	*removing = true;
	return dmc_snap_count(s, &priv->klist_devices, knode_bus) ||
		dmc_snap_drivers(s, priv, false);
}

static void dmc_snap_subsystems(struct dmc_snap *s, struct dmc_kset *kset, bool is_bus,
				bool drivers)
{
	struct dmc_subsys_private *priv;
	struct dmc_kobject *kobj;
	struct dmc_kset_iter it;
	bool removing;

	dmc_kset_iter_start(kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		priv = to_subsys_private(kobj);
		if (!dmc_snap_subsys_shown(s, priv, is_bus, &removing))
			continue;
		if (drivers) {
			dmc_snap_drivers(s, priv, true);
			continue;
		}
		dmc_snap_printf(s, is_bus ? "bus " : "class ");
		dmc_snap_name(s, kobj->name);
		if (is_bus) {
			dmc_snap_printf(s, " autoprobe=%d devices=%u drivers=%u%s\n",
					READ_ONCE(priv->drivers_autoprobe),
					dmc_snap_count(s, &priv->klist_devices, knode_bus),
					dmc_snap_drivers(s, priv, false),
					removing ? " removing=1" : "");
			s->buses++;
		} else {
			dmc_snap_printf(s, " devices=%u\n",
					dmc_snap_count(s, &priv->klist_devices, knode_class));
			s->classes++;
		}
	}
	dmc_kset_iter_exit(&it);
}

/*
 * A driver off its bus's list that still has devices: its removal takes
 * it off the list first, then unbinds them. Shown once, as "removing".
 * A bound device's driver keeps drv->p until its devices are unbound.
 */
static void dmc_snap_removing_drivers(struct dmc_snap *s)
{
	struct dmc_driver_private *dp;
	struct dmc_driver *drv;
	unsigned int i;

	for (i = 0; i < s->ndevs; i++) {
		if (!dmc_snap_listed(s, s->devs[i].dev))
			continue;
		drv = dmc_snap_driver(s->devs[i].dev);
		dp = drv ? READ_ONCE(drv->p) : NULL;
		if (!dp || dp->snap_mark == s->mark)
			continue;
		dmc_snap_driver_line(s, drv->bus->name, dp, true);
	}
}

/* Each link between two listed devices, consumers in the list's order. */
static void dmc_snap_links(struct dmc_snap *s)
{
	struct dmc_device_link *link;
	struct dmc_device *dev;
	char flags[160];
	unsigned int i;

	for (i = 0; i < s->ndevs; i++) {
		dev = s->devs[i].dev;
		if (!dmc_snap_listed(s, dev))
			continue;
		list_for_each_entry(link, &dev->p->suppliers, c_node) {
			if (!dmc_snap_listed(s, link->supplier))
				continue;
			dmc_device_link_flags_str(link, flags, sizeof(flags));
			dmc_snap_printf(s, "link ");
			dmc_snap_path(s, link->supplier);
			dmc_snap_printf(s, " ");
			dmc_snap_path(s, dev);
			dmc_snap_printf(s, " status=%s flags=%s\n",
					dmc_device_link_status_str(link),
					flags[0] ? flags : "-");
			s->links++;
		}
	}
}

/* The model part, under the snapshot's locks. */
static void dmc_snap_model(struct dmc_snap *s)
{
	struct dmc_event_stats es;
	unsigned int i;

	dmc_event_log_stats(&es);
	s->mark = ++dmc_snap_marks;
	dmc_snap_printf(s, "dmcore-snapshot 1\ngeneration %llu\nseqnum %llu\n",
			dmc_model_generation(), es.last_seqnum);
	/* Devices first, to mark them; their lines go after the drivers'. */
	for (i = 0; i < s->ndevs; i++) {
		struct dmc_device *dev = s->devs[i].dev;

		if (!dev->parent || dmc_snap_listed(s, dev->parent)) {
			dev->p->snap_mark = s->mark;
			dev->p->snap_idx = i;
		}
	}
	dmc_snap_subsystems(s, dmc_bus_kset, true, false);
	dmc_snap_subsystems(s, dmc_class_kset, false, false);
	dmc_snap_subsystems(s, dmc_bus_kset, true, true);
	dmc_snap_removing_drivers(s);
	for (i = 0; i < s->ndevs; i++) {
		if (dmc_snap_listed(s, s->devs[i].dev))
			dmc_snap_device(s, s->devs[i].dev);
		cond_resched();
	}
	dmc_snap_links(s);
	dmc_snap_printf(s, "end buses=%u classes=%u drivers=%u devices=%u links=%u\n",
			s->buses, s->classes, s->drivers, s->devices, s->links);
}

/* ---- match lines, after the locks -------------------------------------- */

struct dmc_snap_match {
	struct dmc_snap *s;
	struct dmc_device *dev;
};

static int dmc_snap_match_one(struct dmc_driver *drv, void *data)
{
	struct dmc_snap_match *m = data;

	dmc_snap_printf(m->s, "match ");
	dmc_snap_path(m->s, m->dev);
	dmc_snap_printf(m->s, " ");
	dmc_snap_name(m->s, drv->name);
	dmc_snap_printf(m->s, " %d\n", dmc_driver_match_device(drv, m->dev));
	m->s->matches++;
	return 0;
}

static void dmc_snap_matches(struct dmc_snap *s)
{
	struct dmc_snap_match m = { .s = s };
	unsigned int i;

	for (i = 0; i < s->ndevs && !seq_has_overflowed(&s->m); i++) {
		m.dev = s->devs[i].dev;
		if (!m.dev->bus || !dmc_snap_listed(s, m.dev))
			continue;
		/* Busy (a probe under way, most often): no lines, no wait. */
		if (!dmc_device_trylock(m.dev))
			continue;
		/* Still there (its bus with it) and still unbound? */
		if (READ_ONCE(m.dev->p->registered) && !dmc_snap_driver(m.dev))
			dmc_bus_walk_drivers(m.dev->bus, &m, dmc_snap_match_one);
		dmc_device_unlock(m.dev);
	}
	dmc_snap_printf(s, "done matches=%u\n", s->matches);
}

/* The text's size last time, for the next buffer; no lock needed. */
static size_t dmc_snap_hint;

/* Past this, a model is not put in one file (-ENOMEM). */
#define DMC_SNAP_MAX	(256UL << 20)

/* A buffer four times bigger, keeping the first @keep bytes. */
static int dmc_snap_grow(struct dmc_snap *s, size_t keep)
{
	size_t size = s->m.size * 4;
	char *buf;

	if (size > DMC_SNAP_MAX)
		return -ENOMEM;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, s->m.buf, keep);
	kvfree(s->m.buf);
	s->m.buf = buf;
	s->m.size = size;
	s->m.count = keep;
	return 0;
}

/*
 * Build the text in s->m. The model part is printed under one freeze,
 * printed again into a bigger buffer (still frozen) if it did not fit;
 * the match part likewise after the thaw. 0 or -ENOMEM.
 */
static int dmc_snap_build(struct dmc_snap *s)
{
	dmc_snapshot_hook_t hook;
	size_t model_len;
	int err;

	s->m.size = clamp_t(size_t, READ_ONCE(dmc_snap_hint), 16384, DMC_SNAP_MAX);
	s->m.buf = kvmalloc(s->m.size, GFP_KERNEL);
	if (!s->m.buf)
		return -ENOMEM;
	dmc_pm_transition_lock();
	mutex_lock(&dmc_links_mutex);
	dmc_model_freeze();
	err = dmc_snap_collect(s);
	hook = READ_ONCE(dmc_snapshot_test_hook);
	if (!err && hook)
		hook();
	while (!err) {
		s->m.count = 0;
		s->buses = 0;
		s->classes = 0;
		s->drivers = 0;
		s->devices = 0;
		s->links = 0;
		dmc_snap_model(s);
		if (!seq_has_overflowed(&s->m))
			break;
		err = dmc_snap_grow(s, 0);
	}
	dmc_model_thaw();
	mutex_unlock(&dmc_links_mutex);
	dmc_pm_transition_unlock();
	model_len = s->m.count;
	while (!err) {
		s->matches = 0;
		dmc_snap_matches(s);
		if (!seq_has_overflowed(&s->m))
			break;
		err = dmc_snap_grow(s, model_len);
	}
	dmc_snap_put_devices(s);
	if (err) {
		kvfree(s->m.buf);
		s->m.buf = NULL;
		return err;
	}
	WRITE_ONCE(dmc_snap_hint, s->m.count + s->m.count / 4);
	return 0;
}

/**
 * dmc_model_snapshot() - the whole model as text, in one consistent state
 * @len: where the text's length goes
 *
 * Builds the "snapshot" file's text (docs/snapshot.md) under the
 * snapshot's locks (see the top of this file): every device, driver,
 * bus, class and link as they were at one point, with the model
 * generation and the event log's last SEQNUM at that point; then the
 * match results of unbound devices, each under its device lock.
 *
 * Context: may sleep; process context, holding no lock of the core (it
 * takes dmc_pm_transition_mutex first, so not from a suspend or resume
 * callback).
 * Return: the text, to be freed with kvfree(); ERR_PTR(-ENOMEM).
 */
char *dmc_model_snapshot(size_t *len)
{
	struct dmc_snap s = {};
	int err = -ENOMEM;

	s.info = kmalloc(sizeof(*s.info), GFP_KERNEL);
	if (s.info) {
		mutex_lock(&dmc_snap_mutex);
		err = dmc_snap_build(&s);
		mutex_unlock(&dmc_snap_mutex);
	}
	kfree(s.info);
	kvfree(s.devs);
	kvfree(s.held);
	if (err) {
		pr_err_ratelimited("dmcore: snapshot: cannot build it (%d)\n", err);
		return ERR_PTR(err);
	}
	*len = s.m.count;
	return s.m.buf;
}
EXPORT_SYMBOL_GPL(dmc_model_snapshot);
