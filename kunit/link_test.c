// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-link: device links, one rule per case.
 *
 * dmc_device_link_add() and its refusals (cycles direct, indirect and
 * through the device tree), lookups and removal, a consumer's probe
 * waiting for its suppliers, the consumer unbinding before its supplier,
 * and links going away with either device. Names are "lk<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

static long lk_err(struct dmc_device_link *link)
{
	return IS_ERR(link) ? PTR_ERR(link) : 0;
}

/* A link that must be made. */
static struct dmc_device_link *lk_add(struct kunit *test, struct dmm_dev *c,
				      struct dmm_dev *s)
{
	struct dmc_device_link *link = dmc_device_link_add(c->dev, s->dev);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, link);
	return link;
}

/* Two devices on one bus, each bound to its own driver: c consumes s. */
struct lk_pair {
	struct dmm_bus *b;
	struct dmm_drv *dc, *ds;
	struct dmm_dev *c, *s;
};

static void lk_bound_pair(struct kunit *test, struct lk_pair *p)
{
	p->b = dmm_bus_new(test, "bus");
	p->dc = dmm_drv_new(test, p->b, "dc");
	p->ds = dmm_drv_new(test, p->b, "ds");
	p->s = dmm_dev_new(test, "s", p->b, NULL, p->ds);
	p->c = dmm_dev_new(test, "c", p->b, NULL, p->dc);
	lk_add(test, p->c, p->s);
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(p->c->dev));
	KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(p->s->dev));
	dmm_log_clear(test);
}

/* add: refusals */

static void link_add_null_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(NULL, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, NULL));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	dmm_dev_unregister(a);
}

static void link_add_to_itself_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(a->dev, a->dev));
	dmm_dev_unregister(a);
}

static void link_add_unregistered_device_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *n = dmm_dev_alloc(test, "n");
	struct dmm_dev *gone = dmm_dev_new(test, "gone", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	dmm_dev_del(gone);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, n->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(n->dev, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, gone->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(gone->dev, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	dmm_dev_put(gone);
	dmm_dev_put(n);
	dmm_dev_unregister(a);
}

static void link_add_direct_cycle_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	lk_add(test, a, b);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(b->dev, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(b->dev, a->dev));
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void link_add_indirect_cycle_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	lk_add(test, a, b);	/* a depends on b */
	lk_add(test, b, c);	/* b depends on c */
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(c->dev, a->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	/* a depending on c directly as well is no cycle */
	link = dmc_device_link_add(a->dev, c->dev);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(link));
	dmm_dev_unregister(c);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void link_add_supplier_descendant_of_consumer_fails_einval(struct kunit *test)
{
	struct dmm_dev *p = dmm_dev_new(test, "p", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, p, NULL);
	struct dmm_dev *g = dmm_dev_new(test, "g", NULL, c, NULL);
	struct dmc_device_link *link = NULL;

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(p->dev, c->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(p->dev, g->dev));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p->dev, g->dev));
	dmm_dev_unregister(g);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

static void link_add_existing_link_fails_eexist(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	struct dmc_device_link *link = lk_add(test, a, b), *again = NULL;

	DMM_TOLERATE_MISUSE(test, again = dmc_device_link_add(a->dev, b->dev));
	KUNIT_EXPECT_EQ(test, lk_err(again), (long)-EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(a->dev, b->dev), link);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

/* lookups and removal */

static void link_find_is_directional(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, NULL, NULL);
	struct dmc_device_link *link = lk_add(test, a, b);

	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(a->dev, b->dev), link);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(b->dev, a->dev));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(a->dev, c->dev));
	dmm_dev_unregister(c);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void link_remove_returns_0_then_enoent(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);

	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(a->dev, b->dev), -ENOENT);
	lk_add(test, a, b);
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(b->dev, a->dev), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(a->dev, b->dev), 0);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(a->dev, b->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(a->dev, b->dev), -ENOENT);
	/* and it can be made again, even the other way round */
	lk_add(test, b, a);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void link_del_drops_the_dependency(struct kunit *test)
{
	struct lk_pair p;

	lk_bound_pair(test, &p);
	dmc_device_link_del(dmc_device_link_find(p.c->dev, p.s->dev));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p.c->dev, p.s->dev));
	dmc_device_release_driver(p.s->dev);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(p.c->dev));
	DMM_EXPECT_LOG(test, "remove:s:ds");
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(p.s);
}

static void link_refcounts_back_after_link_del(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	unsigned int ra = dmm_dev_refs(a), rb = dmm_dev_refs(b);

	dmc_device_link_del(lk_add(test, a, b));
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(a), ra);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(b), rb);
	lk_add(test, a, b);
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(a->dev, b->dev), 0);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(a), ra);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(b), rb);
	dmm_dev_unregister(b);
	dmm_dev_unregister(a);
}

static void link_consumer_deletion_removes_its_links(struct kunit *test)
{
	struct dmm_dev *c = dmm_dev_new(test, "c", NULL, NULL, NULL);
	struct dmm_dev *s1 = dmm_dev_new(test, "s1", NULL, NULL, NULL);
	struct dmm_dev *s2 = dmm_dev_new(test, "s2", NULL, NULL, NULL);
	unsigned int r1 = dmm_dev_refs(s1);

	lk_add(test, c, s1);
	lk_add(test, c, s2);
	dmm_dev_get(c);
	dmm_dev_unregister(c);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s1->dev));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s2->dev));
	KUNIT_EXPECT_EQ(test, dmc_device_link_remove(c->dev, s1->dev), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(s1), r1);
	dmm_dev_put(c);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, c->released, 1U);
	dmm_dev_unregister(s2);
	dmm_dev_unregister(s1);
}

static void link_supplier_deletion_removes_its_links(struct kunit *test)
{
	struct dmm_dev *s = dmm_dev_new(test, "s", NULL, NULL, NULL);
	struct dmm_dev *c1 = dmm_dev_new(test, "c1", NULL, NULL, NULL);
	struct dmm_dev *c2 = dmm_dev_new(test, "c2", NULL, NULL, NULL);
	unsigned int r1 = dmm_dev_refs(c1);

	lk_add(test, c1, s);
	lk_add(test, c2, s);
	dmm_dev_get(s);
	dmm_dev_unregister(s);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c1->dev, s->dev));
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(c2->dev, s->dev));
	KUNIT_EXPECT_EQ(test, dmm_dev_refs(c1), r1);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(c1->dev));
	dmm_dev_put(s);
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, s->released, 1U);
	dmm_dev_unregister(c2);
	dmm_dev_unregister(c1);
}

/* probing */

/* s wants driver ds, c wants dc; neither driver is registered yet. */
static void lk_unbound_pair(struct kunit *test, struct lk_pair *p)
{
	p->b = dmm_bus_new(test, "bus");
	p->dc = dmm_drv_alloc(test, p->b, "dc");
	p->ds = dmm_drv_alloc(test, p->b, "ds");
	p->s = dmm_dev_new(test, "s", p->b, NULL, p->ds);
	p->c = dmm_dev_new(test, "c", p->b, NULL, p->dc);
	lk_add(test, p->c, p->s);
}

static void link_consumer_defers_on_supplier_without_driver(struct kunit *test)
{
	struct lk_pair p;
	char buf[64];

	lk_unbound_pair(test, &p);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.c->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(p.c->dev));
	DMCT_EXPECT_STREQ(test, dmc_device_deferred_reason(p.c->dev, buf,
							   sizeof(buf)),
			  p.s->name);
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(p.s);
}

static void link_consumer_binds_once_supplier_binds(struct kunit *test)
{
	struct lk_pair p;

	lk_unbound_pair(test, &p);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	dmc_wait_for_device_probe();
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(p.s->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(p.c->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(p.c->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&p.c->probes), 1);
	KUNIT_EXPECT_LT(test, dmm_log_index(test, "probe:s:ds"),
			dmm_log_index(test, "probe:c:dc"));
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(p.s);
}

static void link_consumer_waits_for_every_supplier(struct kunit *test)
{
	struct lk_pair p;
	struct dmm_drv *d2;
	struct dmm_dev *s2;

	lk_unbound_pair(test, &p);
	d2 = dmm_drv_alloc(test, p.b, "d2");
	s2 = dmm_dev_new(test, "s2", p.b, NULL, d2);
	lk_add(test, p.c, s2);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.dc), 0);
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, p.ds), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(p.s->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.c->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_deferred(p.c->dev));
	KUNIT_ASSERT_EQ(test, dmm_drv_register(test, d2), 0);
	dmc_wait_for_device_probe();
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(p.c->dev));
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(s2);
	dmm_dev_unregister(p.s);
}

/* unbinding */

static void link_supplier_release_unbinds_consumer_first(struct kunit *test)
{
	struct lk_pair p;

	lk_bound_pair(test, &p);
	dmc_device_release_driver(p.s->dev);
	DMM_EXPECT_LOG(test, "remove:c:dc remove:s:ds");
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.c->dev));
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.s->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(p.c->dev));
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(p.s);
}

static void link_supplier_driver_unregister_unbinds_consumer_first(struct kunit *test)
{
	struct lk_pair p;

	lk_bound_pair(test, &p);
	dmm_drv_unregister(test, p.ds);
	DMM_EXPECT_LOG(test, "remove:c:dc remove:s:ds");
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.c->dev));
	dmm_dev_unregister(p.c);
	dmm_dev_unregister(p.s);
}

static void link_supplier_del_unbinds_consumer_first(struct kunit *test)
{
	struct lk_pair p;

	lk_bound_pair(test, &p);
	dmm_dev_unregister(p.s);
	DMM_EXPECT_LOG(test, "remove:c:dc remove:s:ds");
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(p.c->dev));
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(p.c->dev));
	dmm_dev_unregister(p.c);
}

static void link_unbind_cascades_along_a_chain(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *x = dmm_dev_new(test, "x", b, NULL, d);
	struct dmm_dev *y = dmm_dev_new(test, "y", b, NULL, d);
	struct dmm_dev *z = dmm_dev_new(test, "z", b, NULL, d);

	lk_add(test, x, y);	/* x consumes y */
	lk_add(test, y, z);	/* y consumes z */
	dmm_log_clear(test);
	dmc_device_release_driver(z->dev);
	DMM_EXPECT_LOG(test, "remove:x:d remove:y:d remove:z:d");
	dmm_dev_unregister(x);
	dmm_dev_unregister(y);
	dmm_dev_unregister(z);
}

static void link_unbound_consumer_untouched_by_supplier_unbind(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *d = dmm_drv_new(test, b, "d");
	struct dmm_dev *s = dmm_dev_new(test, "s", b, NULL, d);
	struct dmm_dev *c = dmm_dev_new(test, "c", b, NULL, NULL);

	lk_add(test, c, s);
	dmc_device_release_driver(s->dev);
	DMM_EXPECT_LOG(test, "probe:s:d remove:s:d");
	KUNIT_EXPECT_TRUE(test, dmc_device_is_registered(c->dev));
	dmm_dev_unregister(c);
	dmm_dev_unregister(s);
}

static void link_null_arguments_fail_without_crash(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmc_device_link *link = (void *)1;
	int ret = 0;

	DMM_TOLERATE_MISUSE(test, dmc_device_link_del(NULL));
	DMM_TOLERATE_MISUSE(test, ret = dmc_device_link_remove(NULL, a->dev));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, ret = dmc_device_link_remove(a->dev, NULL));
	KUNIT_EXPECT_LT(test, ret, 0);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_find(NULL, a->dev));
	KUNIT_EXPECT_NULL(test, link);
	link = (void *)1;
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_find(a->dev, NULL));
	KUNIT_EXPECT_NULL(test, link);
	dmm_dev_unregister(a);
}

static int link_test_init(struct kunit *test)
{
	return dmm_init(test, "lk");
}

static struct kunit_case link_test_cases[] = {
	KUNIT_CASE(link_add_null_fails_einval),
	KUNIT_CASE(link_add_to_itself_fails_einval),
	KUNIT_CASE(link_add_unregistered_device_fails_einval),
	KUNIT_CASE(link_add_direct_cycle_fails_einval),
	KUNIT_CASE(link_add_indirect_cycle_fails_einval),
	KUNIT_CASE(link_add_supplier_descendant_of_consumer_fails_einval),
	KUNIT_CASE(link_add_existing_link_fails_eexist),
	KUNIT_CASE(link_find_is_directional),
	KUNIT_CASE(link_remove_returns_0_then_enoent),
	KUNIT_CASE(link_del_drops_the_dependency),
	KUNIT_CASE(link_refcounts_back_after_link_del),
	KUNIT_CASE(link_consumer_deletion_removes_its_links),
	KUNIT_CASE(link_supplier_deletion_removes_its_links),
	KUNIT_CASE(link_consumer_defers_on_supplier_without_driver),
	KUNIT_CASE(link_consumer_binds_once_supplier_binds),
	KUNIT_CASE(link_consumer_waits_for_every_supplier),
	KUNIT_CASE(link_supplier_release_unbinds_consumer_first),
	KUNIT_CASE(link_supplier_driver_unregister_unbinds_consumer_first),
	KUNIT_CASE(link_supplier_del_unbinds_consumer_first),
	KUNIT_CASE(link_unbind_cascades_along_a_chain),
	KUNIT_CASE(link_unbound_consumer_untouched_by_supplier_unbind),
	KUNIT_CASE(link_null_arguments_fail_without_crash),
	{}
};

static struct kunit_suite link_test_suite = {
	.name = "dmcore-link",
	.init = link_test_init,
	.exit = dmct_exit,
	.test_cases = link_test_cases,
};

kunit_test_suites(&link_test_suite);
