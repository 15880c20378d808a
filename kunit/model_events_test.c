// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-model-events: the events of devices, one rule per case.
 *
 * Which devices send events (a bus or a class: yes; neither: no), their
 * SUBSYSTEM, DEVTYPE, DRIVER and the variables of bus, class and type
 * hooks, and the order of add, bind, unbind and remove over a device's
 * life, with children before their parent. Events are recorded by the
 * dmct listener (DEVPATHs under /devices/) and read back from the event
 * log for their variables. Names are "me<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/* The actions recorded for @path, in order: "add bind unbind remove". */
static const char *me_actions(struct kunit *test, const char *path)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	char *s = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned long flags;
	unsigned int i;
	size_t len = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_irqsave(&ct->lock, flags);
	for (i = 0; i < ct->nr_evs; i++)
		if (!strcmp(ct->evs[i].devpath, path))
			len += scnprintf(s + len, 256 - len, "%s%s",
					 len ? " " : "",
					 dmc_kobject_action_name(ct->evs[i].action));
	spin_unlock_irqrestore(&ct->lock, flags);
	return s;
}

/* The SUBSYSTEM of the first recorded @action on @path. */
static const char *me_subsystem(struct kunit *test,
				enum dmc_kobject_action action,
				const char *path)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	int i = dmct_ev_index(ct, action, path);

	return i < 0 ? "(none)" : dmm_str(test, "%s", ct->evs[i].subsystem);
}

#define ME_EXPECT_VAR(test, seq, action, path, key, want)		\
	do {								\
		struct kunit *__me_test = (test);			\
									\
		DMCT_EXPECT_STREQ(__me_test, dmm_ev_var(__me_test, seq,	\
							action, path,	\
							key), want);	\
	} while (0)

/* who sends, and SUBSYSTEM */

static void model_events_bus_device_add_has_bus_subsystem(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a;
	const char *path;

	dmct_listen(test);
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	path = dmm_path(test, a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add");
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_ADD, path), b->name);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "SUBSYSTEM", b->name);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DEVPATH", path);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add remove");
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_REMOVE, path),
			   b->name);
}

static void model_events_class_device_has_class_subsystem(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *a, *m;
	const char *ap, *mp;

	dmct_listen(test);
	a = dmm_cdev_new(test, "a", c, NULL);
	m = dmm_cdev_new(test, "m", c, p);
	ap = dmm_path(test, a);
	mp = dmm_path(test, m);
	KUNIT_EXPECT_STREQ(test, ap, dmm_str(test, "/devices/virtual/%s/%s",
					     c->name, a->name));
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_ADD, ap), c->name);
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_ADD, mp), c->name);
	dmm_dev_unregister(m);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, ap), "add remove");
	KUNIT_EXPECT_STREQ(test, me_actions(test, mp), "add remove");
	dmm_dev_unregister(p);
}

static void model_events_bus_wins_over_class_for_subsystem(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);

	a->dev->bus = &b->bus;
	a->dev->class = &c->cls;
	dmct_listen(test);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_ADD, path), b->name);
	dmm_dev_unregister(a);
}

static void model_events_plain_device_sends_nothing(struct kunit *test)
{
	struct dmm_dev *p, *a;
	u64 seq = dmct_last_seqnum();
	const char *path;

	dmct_listen(test);
	p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	a = dmm_dev_new(test, "a", NULL, p, NULL);
	path = dmm_path(test, p);
	dmm_dev_unregister(a);
	dmm_dev_unregister(p);
	KUNIT_EXPECT_EQ(test, dmct_log_count(seq, path), 0U);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "");
	KUNIT_EXPECT_EQ(test, dmct_ctx(test)->nr_evs, 0U);
}

/* variables */

static void model_events_devtype_and_type_vars(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);
	u64 seq = dmct_last_seqnum();

	a->dev->bus = &b->bus;
	a->dev->type = &dmm_type;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DEVTYPE", "dmm-type");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DMM_TYPE", "yes");
	dmm_dev_unregister(a);
}

static void model_events_no_devtype_without_type(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	const char *path = dmm_path(test, a);

	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "SUBSYSTEM", b->name);
	KUNIT_EXPECT_NULL(test, dmm_ev_var(test, seq, DMC_KOBJ_ADD, path,
					   "DEVTYPE"));
	KUNIT_EXPECT_NULL(test, dmm_ev_var(test, seq, DMC_KOBJ_ADD, path,
					   "DRIVER"));
	dmm_dev_unregister(a);
}

static void model_events_bus_uevent_adds_its_vars(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a;
	const char *path;

	b->uevent_var = "hello";
	a = dmm_dev_new(test, "a", b, NULL, NULL);
	path = dmm_path(test, a);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DMM_BUS", "hello");
	seq = dmct_last_seqnum();
	dmm_dev_unregister(a);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_REMOVE, path, "DMM_BUS", "hello");
}

static void model_events_class_uevent_adds_its_vars(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a;
	const char *path;

	c->uevent_var = "world";
	a = dmm_cdev_new(test, "a", c, NULL);
	path = dmm_path(test, a);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DMM_CLASS", "world");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "SUBSYSTEM", c->name);
	dmm_dev_unregister(a);
}

static void model_events_type_and_bus_vars_together(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);
	u64 seq = dmct_last_seqnum();

	b->uevent_var = "both";
	a->dev->bus = &b->bus;
	a->dev->type = &dmm_type;
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DMM_BUS", "both");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DMM_TYPE", "yes");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_ADD, path, "DEVTYPE", "dmm-type");
	dmm_dev_unregister(a);
}

/* order over a life */

static void model_events_add_then_bind_with_driver_var(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a;
	const char *path;

	dmct_listen(test);
	a = dmm_dev_new(test, "a", b, NULL, d);
	path = dmm_path(test, a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add bind");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_BIND, path, "DRIVER", d->name);
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_BIND, path), b->name);
	dmm_dev_unregister(a);
}

static void model_events_bind_when_driver_comes_later(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	u64 seq = dmct_last_seqnum();
	struct dmm_dev *a;
	const char *path;

	dmct_listen(test);
	a = dmm_dev_new(test, "a", b, NULL, d);
	path = dmm_path(test, a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add");
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add bind");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_BIND, path, "DRIVER", d->name);
	dmm_dev_unregister(a);
}

static void model_events_unbind_then_remove_on_unregister(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;
	const char *path;

	dmct_listen(test);
	a = dmm_dev_new(test, "a", b, NULL, d);
	path = dmm_path(test, a);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path),
			   "add bind unbind remove");
	KUNIT_EXPECT_STREQ(test, me_subsystem(test, DMC_KOBJ_UNBIND, path),
			   b->name);
}

static void model_events_release_driver_sends_unbind_only(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	const char *path = dmm_path(test, a);

	dmct_listen(test);
	dmc_device_release_driver(a->dev);
	dmc_device_release_driver(a->dev);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "unbind");
	KUNIT_EXPECT_EQ(test, dmc_device_attach(a->dev), 1);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "unbind bind");
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path),
			   "unbind bind unbind remove");
}

static void model_events_children_go_before_parent(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmct_ctx *ct = dmct_ctx(test);
	struct dmm_dev *p = dmm_dev_new(test, "p", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, p, d);
	struct dmm_dev *g = dmm_dev_new(test, "g", b, c, d);
	const char *pp = dmm_path(test, p), *cp = dmm_path(test, c);
	const char *gp = dmm_path(test, g);

	dmct_listen(test);
	dmm_dev_unregister(p);
	KUNIT_EXPECT_STREQ(test, me_actions(test, gp), "unbind remove");
	KUNIT_EXPECT_STREQ(test, me_actions(test, cp), "unbind remove");
	KUNIT_EXPECT_STREQ(test, me_actions(test, pp), "unbind remove");
	KUNIT_EXPECT_LT(test, dmct_ev_index(ct, DMC_KOBJ_REMOVE, gp),
			dmct_ev_index(ct, DMC_KOBJ_UNBIND, cp));
	KUNIT_EXPECT_LT(test, dmct_ev_index(ct, DMC_KOBJ_REMOVE, cp),
			dmct_ev_index(ct, DMC_KOBJ_UNBIND, pp));
	KUNIT_EXPECT_EQ(test, ct->seq_disorder, 0U);
	DMM_EXPECT_LOG(test, "probe:p:d probe:c:d probe:g:d remove:g:d remove:c:d remove:p:d");
	dmm_dev_unregister(c);
	dmm_dev_unregister(g);
}

static void model_events_deferred_device_binds_once(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *dep = dmm_dev_new(test, "dep", b, NULL, NULL);
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);

	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->wait_dev = dep;
	dmct_listen(test);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add");
	dmm_dev_want(dep, d);
	KUNIT_EXPECT_EQ(test, dmc_device_attach(dep->dev), 1);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add bind");
	dmm_dev_unregister(a);
	dmm_dev_unregister(dep);
}

static void model_events_async_bind_event_after_wait(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_alloc(test, b, "d");
	struct dmm_dev *a = dmm_dev_alloc(test, "a");
	const char *path = dmm_str(test, "/devices/%s", a->name);
	u64 seq = dmct_last_seqnum();

	d->drv.probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d), 0);
	a->dev->bus = &b->bus;
	dmm_dev_want(a, d);
	a->probe_sleep_ms = 20;
	dmct_listen(test);
	KUNIT_ASSERT_EQ(test, dmm_dev_add(test, a), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add bind");
	ME_EXPECT_VAR(test, seq, DMC_KOBJ_BIND, path, "DRIVER", d->name);
	dmm_dev_unregister(a);
}

static void model_events_failed_probe_sends_no_bind(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a;
	const char *path;

	d->probe_ret = -ENXIO;
	dmct_listen(test);
	a = dmm_dev_new(test, "a", b, NULL, d);
	path = dmm_path(test, a);
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "add remove");
}

static void model_events_failed_add_sends_nothing(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, NULL);
	struct dmm_dev *a2 = dmm_dev_alloc(test, "a2");
	u64 seq;
	int err = 0;

	a2->dev->bus = &b->bus;
	a2->dev->init_name = a->name;	/* clashes */
	seq = dmct_last_seqnum();
	dmct_listen(test);
	DMM_TOLERATE_MISUSE(test, err = dmm_dev_add(test, a2));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	dmm_dev_put(a2);
	KUNIT_EXPECT_EQ(test, dmct_ctx(test)->nr_evs, 0U);
	KUNIT_EXPECT_EQ(test, dmct_last_seqnum(), seq);
	dmm_dev_unregister(a);
}

static void model_events_bus_unregister_unbinds_then_removes(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *a = dmm_dev_new(test, "a", b, NULL, d);
	const char *path = dmm_path(test, a);

	dmct_listen(test);
	dmm_bus_unregister(test, b);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "unbind remove");
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "unbind remove");
}

static void model_events_class_unregister_removes_members(struct kunit *test)
{
	struct dmm_class *c = dmm_class_new(test, "cls");
	struct dmm_dev *a = dmm_cdev_new(test, "a", c, NULL);
	const char *path = dmm_path(test, a);

	dmct_listen(test);
	dmm_class_unregister(test, c);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "remove");
	dmm_dev_unregister(a);
	KUNIT_EXPECT_STREQ(test, me_actions(test, path), "remove");
}

static int model_events_test_init(struct kunit *test)
{
	return dmm_init(test, "me");
}

static struct kunit_case model_events_test_cases[] = {
	KUNIT_CASE(model_events_bus_device_add_has_bus_subsystem),
	KUNIT_CASE(model_events_class_device_has_class_subsystem),
	KUNIT_CASE(model_events_bus_wins_over_class_for_subsystem),
	KUNIT_CASE(model_events_plain_device_sends_nothing),
	KUNIT_CASE(model_events_devtype_and_type_vars),
	KUNIT_CASE(model_events_no_devtype_without_type),
	KUNIT_CASE(model_events_bus_uevent_adds_its_vars),
	KUNIT_CASE(model_events_class_uevent_adds_its_vars),
	KUNIT_CASE(model_events_type_and_bus_vars_together),
	KUNIT_CASE(model_events_add_then_bind_with_driver_var),
	KUNIT_CASE(model_events_bind_when_driver_comes_later),
	KUNIT_CASE(model_events_unbind_then_remove_on_unregister),
	KUNIT_CASE(model_events_release_driver_sends_unbind_only),
	KUNIT_CASE(model_events_children_go_before_parent),
	KUNIT_CASE(model_events_deferred_device_binds_once),
	KUNIT_CASE(model_events_async_bind_event_after_wait),
	KUNIT_CASE(model_events_failed_probe_sends_no_bind),
	KUNIT_CASE(model_events_failed_add_sends_nothing),
	KUNIT_CASE(model_events_bus_unregister_unbinds_then_removes),
	KUNIT_CASE(model_events_class_unregister_removes_members),
	{}
};

static struct kunit_suite model_events_test_suite = {
	.name = "dmcore-model-events",
	.init = model_events_test_init,
	.exit = dmct_exit,
	.test_cases = model_events_test_cases,
};

kunit_test_suites(&model_events_test_suite);
