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
	struct dmc_snap_dev *devs;
	unsigned int ndevs, cap;
	unsigned long mark;	/* this snapshot's p->snap_mark */
	unsigned int buses, classes, drivers, devices, links, matches;
};

/* Every snapshot's number, for p->snap_mark; under the model lock. */
static unsigned long dmc_snap_marks;

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

static int dmc_snap_dev_cmp(const void *a, const void *b)
{
	const struct dmc_snap_dev *x = a, *y = b;

	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Every registered device, referenced, parents before children. */
static int dmc_snap_collect(struct dmc_snap *s)
{
	struct dmc_snap_dev *grown;
	struct dmc_device *dev, *up;
	struct dmc_kobject *kobj;
	struct dmc_kset_iter it;
	int err = 0;

	dmc_kset_iter_start(dmc_devices_kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		if (!dmc_kobject_is_device(kobj))
			continue;
		dev = to_dmc_device(kobj);
		if (!dev->p || !READ_ONCE(dev->p->registered))
			continue;
		if (s->ndevs == s->cap) {
			grown = krealloc_array(s->devs, s->cap * 2 + 64,
					       sizeof(*grown), GFP_KERNEL);
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			s->devs = grown;
			s->cap = s->cap * 2 + 64;
		}
		s->devs[s->ndevs].path = dmc_kobject_get_path(kobj, GFP_KERNEL);
		if (!s->devs[s->ndevs].path) {
			err = -ENOMEM;
			break;
		}
		s->devs[s->ndevs].dev = dmc_device_get(dev);
		s->devs[s->ndevs].depth = 0;
		for (up = dev->parent; up; up = up->parent)
			s->devs[s->ndevs].depth++;
		s->ndevs++;
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
	dev->p->snap_mark = s->mark;
	s->devices++;
}

/* ---- buses, classes, drivers, links ------------------------------------ */

static unsigned int dmc_snap_count(struct dmc_snap *s, const struct dmc_bus_type *bus,
				   const struct dmc_class *cls,
				   const struct dmc_driver *drv)
{
	unsigned int i, n = 0;
	struct dmc_device *dev;

	for (i = 0; i < s->ndevs; i++) {
		dev = s->devs[i].dev;
		if (!dmc_snap_listed(s, dev))
			continue;
		if ((bus && dev->bus == bus) || (cls && dev->class == cls) ||
		    (drv && dmc_snap_driver(dev) == drv))
			n++;
	}
	return n;
}

static void dmc_snap_drivers(struct dmc_snap *s, struct dmc_subsys_private *priv,
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
		if (!print)
			continue;
		dmc_snap_printf(s, "driver ");
		dmc_snap_name(s, priv->subsys.kobj.name);
		dmc_snap_printf(s, " ");
		dmc_snap_name(s, dp->kobj.name);
		dmc_snap_printf(s, " devices=%u\n", dmc_snap_count(s, NULL, NULL, dp->driver));
		s->drivers++;
	}
	dmc_klist_iter_exit(&it);
	if (!print)
		dmc_snap_printf(s, " drivers=%u\n", count);
}

static void dmc_snap_subsystems(struct dmc_snap *s, struct dmc_kset *kset, bool is_bus,
				bool drivers)
{
	struct dmc_subsys_private *priv;
	struct dmc_kobject *kobj;
	struct dmc_kset_iter it;

	dmc_kset_iter_start(kset, &it);
	while ((kobj = dmc_kset_iter_next(&it))) {
		priv = to_subsys_private(kobj);
		if (is_bus && (!priv->bus || READ_ONCE(priv->bus->p) != priv))
			continue;
		if (!is_bus && (!priv->class || READ_ONCE(priv->class->p) != priv))
			continue;
		if (drivers) {
			dmc_snap_drivers(s, priv, true);
			continue;
		}
		dmc_snap_printf(s, is_bus ? "bus " : "class ");
		dmc_snap_name(s, kobj->name);
		if (is_bus) {
			dmc_snap_printf(s, " autoprobe=%d devices=%u",
					READ_ONCE(priv->drivers_autoprobe),
					dmc_snap_count(s, priv->bus, NULL, NULL));
			dmc_snap_drivers(s, priv, false);
			s->buses++;
		} else {
			dmc_snap_printf(s, " devices=%u\n",
					dmc_snap_count(s, NULL, priv->class, NULL));
			s->classes++;
		}
	}
	dmc_kset_iter_exit(&it);
}

/*
 * A driver off its bus's list that still has devices: its removal takes
 * it off the list first, then unbinds them. Shown once, as "removing".
 */
static void dmc_snap_removing_drivers(struct dmc_snap *s)
{
	struct dmc_driver_private *dp;
	struct dmc_driver *drv;
	unsigned int i, j;

	for (i = 0; i < s->ndevs; i++) {
		if (!dmc_snap_listed(s, s->devs[i].dev))
			continue;
		drv = dmc_snap_driver(s->devs[i].dev);
		dp = drv ? READ_ONCE(drv->p) : NULL;
		if (!drv || (dp && dmc_klist_node_attached(&dp->knode_bus)))
			continue;
		for (j = 0; j < i; j++)
			if (dmc_snap_listed(s, s->devs[j].dev) &&
			    dmc_snap_driver(s->devs[j].dev) == drv)
				break;
		if (j < i)
			continue;
		dmc_snap_printf(s, "driver ");
		dmc_snap_name(s, drv->bus->name);
		dmc_snap_printf(s, " ");
		dmc_snap_name(s, drv->name);
		dmc_snap_printf(s, " devices=%u removing=1\n",
				dmc_snap_count(s, NULL, NULL, drv));
		s->drivers++;
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
	for (i = 0; i < s->ndevs; i++)
		if (dmc_snap_listed(s, s->devs[i].dev))
			dmc_snap_device(s, s->devs[i].dev);
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
	if (s.info)
		err = dmc_snap_build(&s);
	kfree(s.info);
	kfree(s.devs);
	if (err) {
		pr_err_ratelimited("dmcore: snapshot: cannot build it (%d)\n", err);
		return ERR_PTR(err);
	}
	*len = s.m.count;
	return s.m.buf;
}
EXPORT_SYMBOL_GPL(dmc_model_snapshot);
