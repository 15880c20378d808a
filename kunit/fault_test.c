// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-fault: a fail-nth sweep over every core scenario.
 *
 * For each scenario (bus, class and driver register; device add with bus,
 * class and parent, the same while another thread keeps rescanning the
 * bus for a matching driver, and a class device under its glue directory;
 * bind; link add; event send) and each N = 1, 2, ...: the scenario's
 * objects are prepared, the model is snapshotted, current->fail_nth = N
 * makes the Nth fault point of this task fail (failslab: every slab
 * allocation), the one dmcore call runs, and fail_nth is read back and
 * cleared. Then:
 *
 *  - the call failed: the injection must have fired, the error must be
 *    -ENOMEM, and the model must equal the snapshot: live kobjects (the
 *    core's own included), objects and links in the tree, references on
 *    the world's bus and devices, the bus's devices and drivers, the
 *    class's and the parent's devices, no misuse WARN, and no event but
 *    balanced add/remove pairs. The test's objects are then dropped and
 *    must be released exactly once.
 *  - the call succeeded: its effect is checked and undone, and the model
 *    must be back to where it was before the objects were prepared. If
 *    the injection did not fire the sweep ends; if it fired, the failure
 *    was absorbed (an event or a mirror entry not made, or kmemleak's own
 *    allocation) and the sweep goes on.
 *
 * Only the dmcore call runs with fail_nth set: KUnit's own allocations
 * (assertions, kunit_kzalloc()) are outside the window. failslab must be
 * told to fail GFP_KERNEL allocations (/sys/kernel/debug/failslab/
 * ignore-gfp-wait = N, set by tests/guest/kunit.sh); the first case
 * checks that it does. Names are "ft<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/* More points than any scenario has: reaching it is a failure. */
#define FT_MAX_N	4000

/*
 * A scenario that hits a known core defect (one another fix is under way
 * for) fails at once without running: its sweep would corrupt memory and
 * take the rest of the run with it. fault_run_known=1 sweeps it anyway,
 * to check the fix.
 */
static bool ft_run_known;
module_param_named(fault_run_known, ft_run_known, bool, 0444);
MODULE_PARM_DESC(fault_run_known,
		 "dmcore-fault: sweep scenarios with a known defect too");

/* Injection points over every scenario, for the summary case. */
static unsigned int ft_total_points;
static unsigned int ft_total_scenarios;

/* ---- the census ---------------------------------------------------------- */

/*
 * A listener counting every object and link in the tree (the core's own
 * too) and the events sent, by kind. Deltas only: it starts at zero
 * whatever the tree holds.
 */
static atomic_long_t ft_in_tree = ATOMIC_LONG_INIT(0);
static atomic_long_t ft_links = ATOMIC_LONG_INIT(0);
static atomic_long_t ft_ev_add = ATOMIC_LONG_INIT(0);
static atomic_long_t ft_ev_remove = ATOMIC_LONG_INIT(0);
static atomic_long_t ft_ev_other = ATOMIC_LONG_INIT(0);

static void ft_kobj_added(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	atomic_long_inc(&ft_in_tree);
}

static void ft_kobj_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	atomic_long_dec(&ft_in_tree);
}

static void ft_link_added(struct dmc_listener *l, struct dmc_kobject *kobj,
			  const char *name, struct dmc_kobject *target)
{
	atomic_long_inc(&ft_links);
}

static void ft_link_removed(struct dmc_listener *l, struct dmc_kobject *kobj,
			    const char *name)
{
	atomic_long_dec(&ft_links);
}

static void ft_uevent(struct dmc_listener *l, const struct dmc_uevent *ev)
{
	if (ev->action == DMC_KOBJ_ADD)
		atomic_long_inc(&ft_ev_add);
	else if (ev->action == DMC_KOBJ_REMOVE)
		atomic_long_inc(&ft_ev_remove);
	else
		atomic_long_inc(&ft_ev_other);
}

static struct dmc_listener ft_listener = {
	.kobj_added = ft_kobj_added,
	.kobj_removed = ft_kobj_removed,
	.link_added = ft_link_added,
	.link_removed = ft_link_removed,
	.uevent = ft_uevent,
};

/* A scenario's world (made once per case) and its per-N objects. */
struct ft_world {
	struct kunit *test;
	unsigned int n;
	/* the world */
	struct dmm_bus *b;
	struct dmm_class *c;
	struct dmm_drv *drv;
	struct dmm_dev *parent;
	struct dmm_dev *s, *con;	/* link supplier, consumer */
	struct dmm_dev *target;		/* of the event */
	/* made for one N */
	struct dmm_bus *nb;
	struct dmm_class *nc;
	struct dmm_drv *nd;
	struct dmm_dev *nv;
	struct dmc_device_link *link;
	u64 sent_before;
	struct task_struct *rescanner;	/* offers the bus's devices meanwhile */
	atomic_t rescan_on;		/* ... while this is set */
	atomic_t rescan_busy;		/* it is in (or about to start) a rescan */
};

/* What must not change when a call fails. */
struct ft_snap {
	unsigned long live;
	long in_tree;
	long links;
	unsigned long misuse;
	long ev_add, ev_remove, ev_other;
	u64 ev_sent, ev_last;
	unsigned int bus_refs, bus_devs, bus_drvs;
	unsigned int class_devs, parent_children;
	unsigned int parent_refs, s_refs, con_refs, target_refs;
};

static int ft_count_one(struct dmc_device *dev, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

static int ft_count_drv(struct dmc_driver *drv, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

static void ft_snap(struct ft_world *w, struct ft_snap *s)
{
	struct dmc_event_stats es;

	/* Releases still pending under release_delay_ms count as live. */
	dmc_kobject_flush_releases();
	memset(s, 0, sizeof(*s));
	s->live = dmc_kobject_live_count();
	s->in_tree = atomic_long_read(&ft_in_tree);
	s->links = atomic_long_read(&ft_links);
	s->misuse = dmc_misuse_count();
	s->ev_add = atomic_long_read(&ft_ev_add);
	s->ev_remove = atomic_long_read(&ft_ev_remove);
	s->ev_other = atomic_long_read(&ft_ev_other);
	dmc_event_log_stats(&es);
	s->ev_sent = es.sent;
	s->ev_last = es.last_seqnum;
	if (w->b && w->b->registered) {
		s->bus_refs = dmm_bus_refs(w->b);
		s->bus_devs = dmc_bus_device_count(&w->b->bus);
		dmc_bus_walk_drivers(&w->b->bus, &s->bus_drvs, ft_count_drv);
	}
	if (w->c && w->c->registered)
		s->class_devs = dmc_class_device_count(&w->c->cls);
	if (w->parent) {
		dmc_device_walk_children(w->parent->dev, &s->parent_children,
					 ft_count_one);
		s->parent_refs = dmm_dev_refs(w->parent);
	}
	if (w->s)
		s->s_refs = dmm_dev_refs(w->s);
	if (w->con)
		s->con_refs = dmm_dev_refs(w->con);
	if (w->target)
		s->target_refs = dmm_dev_refs(w->target);
}

static bool ft_eq(struct kunit *test, const char *what, const char *field,
		  long long a, long long b)
{
	KUNIT_EXPECT_EQ_MSG(test, b, a, "%s: %s changed", what, field);
	return a == b;
}

/*
 * @b against @a: the model. Events are checked apart (a failed call may
 * only have sent balanced add/remove pairs).
 */
static bool ft_same_model(struct kunit *test, const char *what,
			  const struct ft_snap *a, const struct ft_snap *b)
{
	bool same = true;

	same = ft_eq(test, what, "live kobjects", a->live, b->live) && same;
	same = ft_eq(test, what, "objects in the tree", a->in_tree, b->in_tree) && same;
	same = ft_eq(test, what, "links in the tree", a->links, b->links) && same;
	same = ft_eq(test, what, "misuse count", a->misuse, b->misuse) && same;
	same = ft_eq(test, what, "bus refs", a->bus_refs, b->bus_refs) && same;
	same = ft_eq(test, what, "bus devices", a->bus_devs, b->bus_devs) && same;
	same = ft_eq(test, what, "bus drivers", a->bus_drvs, b->bus_drvs) && same;
	same = ft_eq(test, what, "class devices", a->class_devs, b->class_devs) && same;
	same = ft_eq(test, what, "parent's children", a->parent_children,
		     b->parent_children) && same;
	same = ft_eq(test, what, "parent refs", a->parent_refs, b->parent_refs) && same;
	same = ft_eq(test, what, "supplier refs", a->s_refs, b->s_refs) && same;
	same = ft_eq(test, what, "consumer refs", a->con_refs, b->con_refs) && same;
	same = ft_eq(test, what, "event target refs", a->target_refs,
		     b->target_refs) && same;
	return same;
}

/* A failed call sent no event but add/remove pairs (made, then undone). */
static bool ft_events_balanced(struct kunit *test, const char *what,
			       const struct ft_snap *a, const struct ft_snap *b)
{
	long adds = b->ev_add - a->ev_add, removes = b->ev_remove - a->ev_remove;
	long others = b->ev_other - a->ev_other;

	KUNIT_EXPECT_EQ_MSG(test, adds, removes,
			    "%s: a failed call sent %ld add and %ld remove events",
			    what, adds, removes);
	KUNIT_EXPECT_EQ_MSG(test, others, 0L,
			    "%s: a failed call sent %ld other events", what, others);
	return adds == removes && !others;
}

/* ---- the sweep ----------------------------------------------------------- */

struct ft_scenario {
	const char *name;
	const char *known;		/* a known defect it hits, or NULL */
	void (*setup)(struct ft_world *w);
	void (*prepare)(struct ft_world *w);
	int (*run)(struct ft_world *w);		/* the window: dmcore only */
	void (*done)(struct ft_world *w);	/* success: check, undo */
	void (*failed)(struct ft_world *w);	/* failure: check, drop */
	void (*teardown)(struct ft_world *w);	/* after the last N, or NULL */
};

static void ft_sweep(struct kunit *test, const struct ft_scenario *sc)
{
	struct ft_world *w;
	struct ft_snap base, pre, post, end;
	unsigned int n, failed = 0, absorbed = 0, bad = 0;
	unsigned int left;
	bool fired;
	int err;

	if (!IS_ENABLED(CONFIG_FAULT_INJECTION) || !IS_ENABLED(CONFIG_FAILSLAB))
		kunit_skip(test, "no CONFIG_FAULT_INJECTION/CONFIG_FAILSLAB");
	if (sc->known && !ft_run_known) {
		ft_total_scenarios++;
		KUNIT_FAIL(test, "%s: not swept, known defect: %s (fault_run_known=1 sweeps it)",
			   sc->name, sc->known);
		return;
	}
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->test = test;
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&ft_listener), 0);
	if (sc->setup)
		sc->setup(w);
	dmc_wait_for_device_probe();

	for (n = 1; n <= FT_MAX_N; n++) {
		w->n = n;
		ft_snap(w, &base);
		sc->prepare(w);
		dmc_wait_for_device_probe();
		ft_snap(w, &pre);

#ifdef CONFIG_FAULT_INJECTION
		current->fail_nth = n;
		err = sc->run(w);
		left = current->fail_nth;
		current->fail_nth = 0;
#else
		err = sc->run(w);
		left = 1;
#endif
		fired = !left;
		dmc_wait_for_device_probe();
		ft_snap(w, &post);

		if (err) {
			failed++;
			if (!fired) {
				KUNIT_FAIL(test, "%s: N=%u: failed (%d), nothing injected",
					   sc->name, n, err);
				bad++;
				break;
			}
			if (err != -ENOMEM) {
				KUNIT_FAIL(test, "%s: N=%u: failed with %d, not -ENOMEM",
					   sc->name, n, err);
				bad++;
			}
			if (!ft_same_model(test, sc->name, &pre, &post) ||
			    !ft_events_balanced(test, sc->name, &pre, &post)) {
				kunit_err(test, "%s: N=%u: the failed call (%d) changed the model",
					  sc->name, n, err);
				bad++;
			}
			sc->failed(w);
		} else {
			sc->done(w);
			if (fired)
				absorbed++;
		}
		dmc_wait_for_device_probe();
		ft_snap(w, &end);
		if (!ft_same_model(test, sc->name, &base, &end)) {
			kunit_err(test, "%s: N=%u (%s%s): not back to the start after %s",
				  sc->name, n, err ? "failed" : "succeeded",
				  fired ? ", injected" : "",
				  err ? "dropping the objects" : "undoing it");
			bad++;
		}
		if (bad >= 3) {
			KUNIT_FAIL(test, "%s: stopping at N=%u after %u bad points",
				   sc->name, n, bad);
			break;
		}
		if (!err && !fired)
			break;
	}
	KUNIT_EXPECT_LE_MSG(test, n, (unsigned int)FT_MAX_N,
			    "%s: still failing after %u injection points",
			    sc->name, FT_MAX_N);
	if (sc->teardown)
		sc->teardown(w);
	dmc_listener_unregister(&ft_listener);
	/* The last N ran clean: it is not an injection point. */
	ft_total_points += n - 1;
	ft_total_scenarios++;
	kunit_info(test, "fail-nth: %s: %u injection points: %u failed cleanly, %u absorbed, %u bad\n",
		   sc->name, n - 1, failed, absorbed, bad);
	KUNIT_EXPECT_GT_MSG(test, failed + absorbed, 0U,
			    "%s: no injection point at all", sc->name);
}

/* ---- scenarios ------------------------------------------------------------ */

static const char *ft_short(struct ft_world *w, const char *what)
{
	return dmm_str(w->test, "%s%u", what, w->n);
}

/* bus register */

static void bus_prepare(struct ft_world *w)
{
	w->nb = dmm_bus_alloc(w->test, ft_short(w, "b"));
}

static int bus_run(struct ft_world *w)
{
	return dmc_bus_register(&w->nb->bus);
}

static void bus_done(struct ft_world *w)
{
	w->nb->registered = true;
	KUNIT_EXPECT_PTR_EQ(w->test, dmc_bus_find(w->nb->name), &w->nb->bus);
	dmm_bus_unregister(w->test, w->nb);
}

static void bus_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_bus_is_registered(&w->nb->bus));
	KUNIT_EXPECT_NULL(w->test, dmc_bus_find(w->nb->name));
	KUNIT_EXPECT_NULL(w->test, w->nb->bus.p);
}

/* class register */

static void class_prepare(struct ft_world *w)
{
	w->nc = dmm_class_alloc(w->test, ft_short(w, "c"));
}

static int class_run(struct ft_world *w)
{
	return dmc_class_register(&w->nc->cls);
}

static void class_done(struct ft_world *w)
{
	w->nc->registered = true;
	KUNIT_EXPECT_TRUE(w->test, dmc_class_is_registered(&w->nc->cls));
	dmm_class_unregister(w->test, w->nc);
}

static void class_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_class_is_registered(&w->nc->cls));
	KUNIT_EXPECT_NULL(w->test, w->nc->cls.p);
}

/* driver register, on a bus with a device it does not match */

static void drv_setup(struct ft_world *w)
{
	w->b = dmm_bus_new(w->test, "bus");
	w->parent = dmm_dev_new(w->test, "other", w->b, NULL, NULL);
}

static void drv_prepare(struct ft_world *w)
{
	w->nd = dmm_drv_alloc(w->test, w->b, ft_short(w, "d"));
}

static int drv_run(struct ft_world *w)
{
	return dmc_driver_register(&w->nd->drv);
}

static void drv_done(struct ft_world *w)
{
	w->nd->registered = true;
	KUNIT_EXPECT_TRUE(w->test, dmc_driver_is_registered(&w->nd->drv));
	KUNIT_EXPECT_PTR_EQ(w->test,
			    dmc_bus_find_driver(&w->b->bus, w->nd->name),
			    &w->nd->drv);
	dmm_drv_unregister(w->test, w->nd);
}

static void drv_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_driver_is_registered(&w->nd->drv));
	KUNIT_EXPECT_NULL(w->test, dmc_bus_find_driver(&w->b->bus, w->nd->name));
}

/* device add: the new device is dropped (and must be released) at once */

static void dev_drop(struct ft_world *w)
{
	struct dmm_dev *d = w->nv;

	if (d->added)
		dmm_dev_del(d);
	dmm_dev_put(d);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ_MSG(w->test, d->released, 1U, "%s released %u times",
			    d->name, d->released);
}

static void dev_setup(struct ft_world *w)
{
	w->b = dmm_bus_new(w->test, "bus");
	w->c = dmm_class_new(w->test, "cls");
	w->parent = dmm_dev_new(w->test, "parent", NULL, NULL, NULL);
}

static void dev_prepare(struct ft_world *w)
{
	w->nv = dmm_dev_alloc(w->test, ft_short(w, "v"));
	w->nv->dev->bus = &w->b->bus;
	w->nv->dev->class = &w->c->cls;
	w->nv->dev->parent = w->parent->dev;
}

static int dev_run(struct ft_world *w)
{
	return dmc_device_add(w->nv->dev);
}

static void dev_done(struct ft_world *w)
{
	struct dmc_device *found;

	w->nv->added = true;
	KUNIT_EXPECT_TRUE(w->test, dmc_device_is_registered(w->nv->dev));
	found = dmc_bus_find_device_by_name(&w->b->bus, w->nv->name);
	KUNIT_EXPECT_PTR_EQ(w->test, found, w->nv->dev);
	dmm_put_found(found);
	found = dmc_class_find_device_by_name(&w->c->cls, w->nv->name);
	KUNIT_EXPECT_PTR_EQ(w->test, found, w->nv->dev);
	dmm_put_found(found);
	found = dmc_device_find_child_by_name(w->parent->dev, w->nv->name);
	KUNIT_EXPECT_PTR_EQ(w->test, found, w->nv->dev);
	dmm_put_found(found);
	dev_drop(w);
}

static void dev_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_device_is_registered(w->nv->dev));
	dev_drop(w);
}

/*
 * device add while another thread keeps offering the bus's devices to a
 * matching driver (dmc_bus_rescan_devices() in a loop, without injection:
 * fail_nth is this task's only). A device between joining its bus and
 * being registered must not be probed, so an add that fails there and
 * unwinds never leaves a device bound, or on the driver's list, when it
 * is freed (KASAN would see that free).
 */
static int dev_rescan_fn(void *data)
{
	struct ft_world *w = data;

	while (!kthread_should_stop()) {
		atomic_inc(&w->rescan_busy);
		/* busy is seen before on is read: pairs with dev_rescan_run() */
		smp_mb__after_atomic();
		if (atomic_read(&w->rescan_on))
			dmc_bus_rescan_devices(&w->b->bus);
		/* the rescan is over before busy drops */
		smp_mb__before_atomic();
		atomic_dec(&w->rescan_busy);
		usleep_range(20, 100);
	}
	return 0;
}

/*
 * The rescans run only during the add, so that the snapshots before and
 * after it see no reference a rescan holds for a moment.
 */
static int dev_rescan_run(struct ft_world *w)
{
	int err;

	atomic_set(&w->rescan_on, 1);
	err = dmc_device_add(w->nv->dev);
	atomic_set(&w->rescan_on, 0);
	/* on is clear before busy is read: pairs with dev_rescan_fn() */
	smp_mb();
	while (atomic_read(&w->rescan_busy))
		usleep_range(10, 50);
	return err;
}

static void dev_rescan_setup(struct ft_world *w)
{
	dev_setup(w);
	w->drv = dmm_drv_new(w->test, w->b, "d");
	w->rescanner = kthread_run(dev_rescan_fn, w, "ft-rescan");
	KUNIT_ASSERT_FALSE(w->test, IS_ERR(w->rescanner));
}

static void dev_rescan_prepare(struct ft_world *w)
{
	dev_prepare(w);
	dmm_dev_want(w->nv, w->drv);
}

static void dev_rescan_done(struct ft_world *w)
{
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(w->test, dmc_device_is_bound(w->nv->dev));
	dev_done(w);
}

static void dev_rescan_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE_MSG(w->test, w->nv->bound || w->nv->dev->driver,
			       "%s: N=%u: bound though its add failed",
			       w->nv->name, w->n);
	KUNIT_EXPECT_EQ(w->test, dmc_driver_device_count(&w->drv->drv), 0U);
	dev_failed(w);
}

static void dev_rescan_teardown(struct ft_world *w)
{
	kthread_stop(w->rescanner);
}

/* a class device without parent or bus: under devices/virtual/<class> */

/*
 * The glue directory stays until its class goes: a class of its own for
 * each N, so that every N makes it again.
 */
static void glue_prepare(struct ft_world *w)
{
	w->c = dmm_class_new(w->test, ft_short(w, "cls"));
	w->nv = dmm_dev_alloc(w->test, ft_short(w, "g"));
	w->nv->dev->class = &w->c->cls;
}

static void glue_drop(struct ft_world *w)
{
	dev_drop(w);
	dmm_class_unregister(w->test, w->c);
}

static void glue_done(struct ft_world *w)
{
	struct dmc_device *found;

	w->nv->added = true;
	found = dmc_class_find_device_by_name(&w->c->cls, w->nv->name);
	KUNIT_EXPECT_PTR_EQ(w->test, found, w->nv->dev);
	dmm_put_found(found);
	glue_drop(w);
}

static void glue_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_device_is_registered(w->nv->dev));
	glue_drop(w);
}

/* bind: the driver's bind file, on a device added with autoprobe off */

static void bind_setup(struct ft_world *w)
{
	w->b = dmm_bus_new(w->test, "bus");
	KUNIT_ASSERT_EQ(w->test, dmc_bus_set_autoprobe(&w->b->bus, false), 0);
	w->drv = dmm_drv_new(w->test, w->b, "drv");
}

static void bind_prepare(struct ft_world *w)
{
	w->nv = dmm_dev_new(w->test, ft_short(w, "v"), w->b, NULL, w->drv);
	KUNIT_ASSERT_FALSE(w->test, dmc_device_is_bound(w->nv->dev));
}

static int bind_run(struct ft_world *w)
{
	return dmc_device_driver_attach(&w->drv->drv, w->nv->dev);
}

static void bind_done(struct ft_world *w)
{
	KUNIT_EXPECT_TRUE(w->test, dmc_device_is_bound(w->nv->dev));
	KUNIT_EXPECT_EQ(w->test, dmc_driver_device_count(&w->drv->drv), 1U);
	dmc_device_release_driver(w->nv->dev);
	KUNIT_EXPECT_FALSE(w->test, dmc_device_is_bound(w->nv->dev));
	dev_drop(w);
}

static void bind_failed(struct ft_world *w)
{
	KUNIT_EXPECT_FALSE(w->test, dmc_device_is_bound(w->nv->dev));
	KUNIT_EXPECT_EQ(w->test, dmc_driver_device_count(&w->drv->drv), 0U);
	dev_drop(w);
}

/* link add between two plain devices */

static void link_setup(struct ft_world *w)
{
	w->s = dmm_dev_new(w->test, "sup", NULL, NULL, NULL);
	w->con = dmm_dev_new(w->test, "con", NULL, NULL, NULL);
}

static void link_prepare(struct ft_world *w)
{
	w->link = NULL;
}

static int link_run(struct ft_world *w)
{
	w->link = dmc_device_link_add(w->con->dev, w->s->dev, 0);
	return IS_ERR(w->link) ? PTR_ERR(w->link) : 0;
}

static void link_done(struct ft_world *w)
{
	KUNIT_EXPECT_PTR_EQ(w->test, dmc_device_link_find(w->con->dev, w->s->dev),
			    w->link);
	dmc_device_link_del(w->link);
	KUNIT_EXPECT_NULL(w->test, dmc_device_link_find(w->con->dev, w->s->dev));
}

static void link_failed(struct ft_world *w)
{
	KUNIT_EXPECT_NULL(w->test, dmc_device_link_find(w->con->dev, w->s->dev));
}

/* event send: a change event with a variable, for a bus and class device */

static void event_setup(struct ft_world *w)
{
	w->b = dmm_bus_new(w->test, "bus");
	w->c = dmm_class_new(w->test, "cls");
	w->target = dmm_dev_alloc(w->test, "target");
	w->target->dev->bus = &w->b->bus;
	w->target->dev->class = &w->c->cls;
	KUNIT_ASSERT_EQ(w->test, dmm_dev_add(w->test, w->target), 0);
}

static void event_prepare(struct ft_world *w)
{
	struct dmc_event_stats es;

	dmc_event_log_stats(&es);
	w->sent_before = es.sent;
}

static int event_run(struct ft_world *w)
{
	static const char * const vars[] = { "FT_VAR=1", NULL };

	return dmc_kobject_uevent_env(&w->target->dev->kobj, DMC_KOBJ_CHANGE,
				      vars);
}

static void event_done(struct ft_world *w)
{
	struct dmc_event_stats es;

	dmc_event_log_stats(&es);
	KUNIT_EXPECT_EQ(w->test, es.sent, w->sent_before + 1);
}

static void event_failed(struct ft_world *w)
{
	struct dmc_event_stats es;

	dmc_event_log_stats(&es);
	KUNIT_EXPECT_EQ(w->test, es.sent, w->sent_before);
}

static const struct ft_scenario ft_scenarios[] = {
	{ "bus_register", NULL, NULL, bus_prepare, bus_run, bus_done, bus_failed },
	{ "class_register", NULL, NULL, class_prepare, class_run, class_done,
	  class_failed },
	{ "driver_register", NULL, drv_setup, drv_prepare, drv_run, drv_done,
	  drv_failed },
	{ "device_add_bus_class_parent", NULL, dev_setup, dev_prepare, dev_run,
	  dev_done, dev_failed },
	{ "device_add_class_glue", NULL, NULL, glue_prepare, dev_run,
	  glue_done, glue_failed },
	{ "device_add_while_rescanning", NULL, dev_rescan_setup,
	  dev_rescan_prepare, dev_rescan_run, dev_rescan_done, dev_rescan_failed,
	  dev_rescan_teardown },
	{ "bind", NULL, bind_setup, bind_prepare, bind_run, bind_done, bind_failed },
	{ "link_add", NULL, link_setup, link_prepare, link_run, link_done,
	  link_failed },
	{ "event_send", NULL, event_setup, event_prepare, event_run, event_done,
	  event_failed },
};

static const void *ft_gen_params(const void *prev, char *desc)
{
	const struct ft_scenario *sc = prev ? (const struct ft_scenario *)prev + 1 :
		ft_scenarios;

	if (sc >= ft_scenarios + ARRAY_SIZE(ft_scenarios))
		return NULL;
	strscpy(desc, sc->name, KUNIT_PARAM_DESC_SIZE);
	return sc;
}

static void fault_sweep(struct kunit *test)
{
	ft_sweep(test, test->param_value);
}

/* ---- cases ----------------------------------------------------------------- */

/*
 * The sweep needs failslab to fail this task's GFP_KERNEL allocations:
 * without ignore-gfp-wait=N it would see no injection point at all.
 */
static void fault_injection_reaches_gfp_kernel(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_FAULT_INJECTION) || !IS_ENABLED(CONFIG_FAILSLAB))
		kunit_skip(test, "no CONFIG_FAULT_INJECTION/CONFIG_FAILSLAB");
#ifdef CONFIG_FAULT_INJECTION
	{
		void *p;

		current->fail_nth = 1;
		p = kmalloc(32, GFP_KERNEL);
		current->fail_nth = 0;
		kfree(p);
		KUNIT_EXPECT_NULL_MSG(test, p,
				      "failslab ignores GFP_KERNEL: write N to /sys/kernel/debug/failslab/ignore-gfp-wait first");
	}
#endif
}

static void fault_summary(struct kunit *test)
{
	kunit_info(test, "fail-nth: %u injection points over %u scenarios\n",
		   ft_total_points, ft_total_scenarios);
	KUNIT_EXPECT_EQ(test, ft_total_scenarios,
			(unsigned int)ARRAY_SIZE(ft_scenarios));
}

static int fault_test_init(struct kunit *test)
{
	return dmm_init(test, "ft");
}

static struct kunit_case fault_test_cases[] = {
	KUNIT_CASE(fault_injection_reaches_gfp_kernel),
	KUNIT_CASE_PARAM(fault_sweep, ft_gen_params),
	KUNIT_CASE(fault_summary),
	{}
};

static struct kunit_suite fault_test_suite = {
	.name = "dmcore-fault",
	.init = fault_test_init,
	.exit = dmct_exit,
	.test_cases = fault_test_cases,
};

kunit_test_suites(&fault_test_suite);
