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
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
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
	struct dmc_device_link *link = dmc_device_link_add(c->dev, s->dev, 0);

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

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(NULL, a->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, NULL, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	dmm_dev_unregister(a);
}

static void link_add_to_itself_fails_einval(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmc_device_link *link = NULL;

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, a->dev, 0));
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
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, n->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(n->dev, a->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(a->dev, gone->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(gone->dev, a->dev, 0));
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
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(b->dev, a->dev, 0));
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
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(c->dev, a->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	/* a depending on c directly as well is no cycle */
	link = dmc_device_link_add(a->dev, c->dev, 0);
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

	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(p->dev, c->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	DMM_TOLERATE_MISUSE(test, link = dmc_device_link_add(p->dev, g->dev, 0));
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(p->dev, g->dev));
	dmm_dev_unregister(g);
	dmm_dev_unregister(c);
	dmm_dev_unregister(p);
}

/* As Linux: adding a managed link that exists returns it (issue 15). */
static void link_add_existing_link_returns_it(struct kunit *test)
{
	struct dmm_dev *a = dmm_dev_new(test, "a", NULL, NULL, NULL);
	struct dmm_dev *b = dmm_dev_new(test, "b", NULL, NULL, NULL);
	struct dmc_device_link *link = lk_add(test, a, b), *again = NULL;

	again = dmc_device_link_add(a->dev, b->dev, 0);
	KUNIT_EXPECT_PTR_EQ(test, again, link);
	KUNIT_EXPECT_PTR_EQ(test, dmc_device_link_find(a->dev, b->dev), link);
	/* One managed reference: one delete removes it. */
	dmc_device_link_del(link);
	KUNIT_EXPECT_NULL(test, dmc_device_link_find(a->dev, b->dev));
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

/* long chains and ladders: no recursion, nothing exponential */

/*
 * Stack use of an operation: paint the unused stack below the caller,
 * run it, and see how far down the paint was overwritten. The test runs
 * in its own kthread; interrupts run on their own stacks.
 */
#define LK_PAINT	0x6b6b6b6b6b6b6b6bUL
#define LK_PAINT_SKIP	512	/* left alone below the stack pointer */

static noinline unsigned long lk_stack_paint(void)
{
	unsigned long lo = (unsigned long)(end_of_stack(current) + 1);
	unsigned long hi = (current_stack_pointer - LK_PAINT_SKIP) &
			   ~(sizeof(long) - 1);

	if (hi > lo)
		__memset((void *)lo, 0x6b, hi - lo);
	return hi;
}

static noinline unsigned long lk_stack_used(unsigned long hi)
{
	unsigned long p = (unsigned long)(end_of_stack(current) + 1);

	for (; p < hi; p += sizeof(long))
		if (READ_ONCE_NOCHECK(*(unsigned long *)p) != LK_PAINT)
			break;
	return hi > p ? hi - p : 0;
}

/* How much more stack a long case may use than a short one. */
#define LK_STACK_SLACK	2048

/* n devices "d<n>-<i>", on bus @b (or none), wanting driver @d (or none). */
static struct dmm_dev **lk_devs(struct kunit *test, unsigned int n,
				struct dmm_bus *b, struct dmm_drv *d)
{
	struct dmm_dev **v = kunit_kcalloc(test, n, sizeof(*v), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, v);
	for (i = 0; i < n; i++) {
		v[i] = dmm_dev_new(test, dmm_str(test, "d%u-%u", n, i), b, NULL, d);
		cond_resched();	/* thousands under KASAN: no soft lockup */
	}
	return v;
}

struct lk_order {
	struct dmc_device **want;	/* in the order they must come */
	unsigned int n;
	unsigned int next;		/* want[next] is the one expected */
};

static int lk_order_fn(struct dmc_device *dev, void *data)
{
	struct lk_order *o = data;

	if (o->next < o->n && dev == o->want[o->next])
		o->next++;
	return 0;
}

/* Do @want's devices come in the power order in that order? */
static bool lk_in_power_order(struct kunit *test, struct dmc_device **want,
			      unsigned int n)
{
	struct lk_order o = { .want = want, .n = n };

	KUNIT_EXPECT_EQ(test, dmc_dpm_walk(&o, lk_order_fn), 0);
	return o.next == n;
}

/*
 * A chain d0 <- d1 <- ... (each consumes the one before), built front to
 * back; then a cycle closing it is refused (the search goes the whole
 * chain up) and a new supplier of d0 moves the whole chain (the reorder
 * goes the whole chain down). Return the stack both used.
 */
static unsigned long lk_chain(struct kunit *test, unsigned int n)
{
	struct dmm_dev **d = lk_devs(test, n, NULL, NULL);
	struct dmc_device_link *link;
	struct dmc_device **want;
	unsigned long hi, used;
	struct dmm_dev *s;
	unsigned int i;

	for (i = 1; i < n; i++) {
		lk_add(test, d[i], d[i - 1]);
		cond_resched();
	}
	s = dmm_dev_new(test, dmm_str(test, "s%u", n), NULL, NULL, NULL);

	hi = lk_stack_paint();
	link = dmc_device_link_add(d[0]->dev, d[n - 1]->dev, 0);
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);
	link = dmc_device_link_add(d[0]->dev, s->dev, 0);
	used = lk_stack_used(hi);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(link));

	want = kunit_kcalloc(test, n + 1, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	want[0] = s->dev;
	for (i = 0; i < n; i++)
		want[i + 1] = d[i]->dev;
	KUNIT_EXPECT_TRUE_MSG(test, lk_in_power_order(test, want, n + 1),
			      "chain of %u out of power order", n);
	return used;
}

static void link_chain_cycle_check_and_reorder_use_flat_stack(struct kunit *test)
{
	unsigned long shallow, deep;

	dmm_ctx(test)->log_mask = 0;
	shallow = lk_chain(test, 4);
	deep = lk_chain(test, 256);
	KUNIT_EXPECT_LE_MSG(test, deep, shallow + LK_STACK_SLACK,
			    "a chain of 256 took %lu bytes of stack, of 4: %lu",
			    deep, shallow);
}

static void link_chain_of_3000(struct kunit *test)
{
	unsigned long shallow, deep;

	dmm_ctx(test)->log_mask = 0;
	shallow = lk_chain(test, 4);
	deep = lk_chain(test, 3000);
	KUNIT_EXPECT_LE(test, deep, shallow + LK_STACK_SLACK);
}

/*
 * A ladder of diamonds: a[k] supplies b[k] and c[k], which both supply
 * a[k+1]. From a[0] there are 2^40 paths down; a new supplier of a[0]
 * must still reorder it in one visit per device.
 */
#define LK_DIAMONDS	40

static void link_ladder_of_diamonds_reorders_fast(struct kunit *test)
{
	struct dmm_dev *a[LK_DIAMONDS + 1], *b[LK_DIAMONDS], *c[LK_DIAMONDS];
	struct dmc_device *want[4];
	struct dmc_device_link *link;
	unsigned long start;
	struct dmm_dev *s;
	unsigned int k;

	dmm_ctx(test)->log_mask = 0;
	for (k = 0; k <= LK_DIAMONDS; k++)
		a[k] = dmm_dev_new(test, dmm_str(test, "a%u", k), NULL, NULL, NULL);
	for (k = 0; k < LK_DIAMONDS; k++) {
		b[k] = dmm_dev_new(test, dmm_str(test, "b%u", k), NULL, NULL, NULL);
		c[k] = dmm_dev_new(test, dmm_str(test, "c%u", k), NULL, NULL, NULL);
		lk_add(test, b[k], a[k]);
		lk_add(test, c[k], a[k]);
		lk_add(test, a[k + 1], b[k]);
		lk_add(test, a[k + 1], c[k]);
	}
	s = dmm_dev_new(test, "s", NULL, NULL, NULL);

	start = jiffies;
	lk_add(test, a[0], s);
	KUNIT_EXPECT_LT_MSG(test, jiffies - start, 5UL * HZ,
			    "reorder of %u diamonds took %u ms", LK_DIAMONDS,
			    jiffies_to_msecs(jiffies - start));
	/* and the cycle search over the ladder, the other way up */
	link = dmc_device_link_add(s->dev, a[LK_DIAMONDS]->dev, 0);
	KUNIT_EXPECT_EQ(test, lk_err(link), (long)-EINVAL);

	for (k = 0; k < LK_DIAMONDS; k++) {
		want[0] = k ? a[k - 1]->dev : s->dev;
		want[1] = a[k]->dev;
		want[2] = b[k]->dev;
		want[3] = a[k + 1]->dev;
		KUNIT_EXPECT_TRUE_MSG(test, lk_in_power_order(test, want, 4),
				      "diamond %u: b out of order", k);
		want[2] = c[k]->dev;
		KUNIT_EXPECT_TRUE_MSG(test, lk_in_power_order(test, want, 4),
				      "diamond %u: c out of order", k);
	}
}

/*
 * A chain of n bound devices, each consuming the one before; unbinding
 * d0 unbinds all, last first. Return the stack the unbind used.
 */
static unsigned long lk_unbind_chain(struct kunit *test, unsigned int n)
{
	struct dmm_bus *b = dmm_bus_new(test, dmm_str(test, "bus%u", n));
	struct dmm_drv *drv = dmm_drv_new(test, b, dmm_str(test, "drv%u", n));
	struct dmm_dev **d = lk_devs(test, n, b, drv);
	unsigned long hi, used;
	unsigned int i;

	for (i = 1; i < n; i++) {
		lk_add(test, d[i], d[i - 1]);
		cond_resched();
	}
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, dmc_device_is_bound(d[i]->dev));
	hi = lk_stack_paint();
	dmc_device_release_driver(d[0]->dev);
	used = lk_stack_used(hi);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(d[i]->dev));
		KUNIT_EXPECT_EQ(test, atomic_read(&d[i]->removes), 1);
	}
	return used;
}

static void link_unbind_consumers_of_chain_uses_flat_stack(struct kunit *test)
{
	unsigned long shallow, deep;

	dmm_ctx(test)->log_mask = 0;
	shallow = lk_unbind_chain(test, 2);
	deep = lk_unbind_chain(test, 64);
	KUNIT_EXPECT_LE_MSG(test, deep, shallow + LK_STACK_SLACK,
			    "unbinding a chain of 64 took %lu bytes of stack, of 2: %lu",
			    deep, shallow);
}

static void link_unbind_consumers_of_chain_of_3000(struct kunit *test)
{
	unsigned long shallow, deep;

	dmm_ctx(test)->log_mask = 0;
	shallow = lk_unbind_chain(test, 2);
	deep = lk_unbind_chain(test, 3000);
	KUNIT_EXPECT_LE(test, deep, shallow + LK_STACK_SLACK);
}

static void link_unbind_consumers_of_ladder_deepest_first(struct kunit *test)
{
	struct dmm_bus *b = dmm_bus_new(test, "bus");
	struct dmm_drv *drv = dmm_drv_new(test, b, "d");
	struct dmm_dev *a0 = dmm_dev_new(test, "a0", b, NULL, drv);
	struct dmm_dev *b0 = dmm_dev_new(test, "b0", b, NULL, drv);
	struct dmm_dev *c0 = dmm_dev_new(test, "c0", b, NULL, drv);
	struct dmm_dev *a1 = dmm_dev_new(test, "a1", b, NULL, drv);

	lk_add(test, b0, a0);
	lk_add(test, c0, a0);
	lk_add(test, a1, b0);
	lk_add(test, a1, c0);
	dmm_log_clear(test);
	dmc_device_release_driver(a0->dev);
	DMM_EXPECT_LOG(test, "remove:a1:d remove:b0:d remove:c0:d remove:a0:d");
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

/* A short name that lives as long as the test. */
static const char *lk_name(struct kunit *test, char prefix, unsigned int i)
{
	char *name = kunit_kzalloc(test, 12, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, name);
	snprintf(name, 12, "%c%u", prefix, i);
	return name;
}

/*
 * A link added while one of its devices is being deleted: the deletion
 * peeks at the device's links without the links mutex, so the add must
 * see the deletion and undo itself, or be seen by it. Either way no link
 * survives and both devices are released. A kthread spinning on the
 * other CPU adds as the test deletes, with the deletion delayed by a few
 * microseconds more each round, so that the add lands before, inside and
 * after the deletion's window (the outcomes are counted, not required).
 */
struct lk_race {
	atomic_t go;
	struct completion done;
	struct dmc_device *c, *s;
	struct dmc_device_link *link;
};

static int lk_race_add(void *data)
{
	struct lk_race *r = data;

	while (!atomic_read(&r->go))
		cond_resched();
	r->link = dmc_device_link_add(r->c, r->s, 0);
	complete(&r->done);
	return 0;
}

static void link_add_racing_deletion_leaves_no_link(struct kunit *test)
{
	unsigned int i, made = 0, refused = 0;
	struct task_struct *t;
	struct lk_race r;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	for (i = 0; i < 400; i++) {
		struct dmm_dev *s = dmm_dev_new(test, lk_name(test, 's', i), NULL, NULL, NULL);
		struct dmm_dev *c = dmm_dev_new(test, lk_name(test, 'c', i), NULL, NULL, NULL);
		struct dmm_dev *victim = i & 1 ? c : s, *other = i & 1 ? s : c;

		atomic_set(&r.go, 0);
		init_completion(&r.done);
		r.c = c->dev;
		r.s = s->dev;
		t = kthread_create(lk_race_add, &r, "lk-race");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, cpumask_any_but(cpu_online_mask, raw_smp_processor_id()));
		wake_up_process(t);
		dmm_dev_get(victim);
		atomic_set(&r.go, 1);
		udelay(i % 40);
		dmm_dev_unregister(victim);
		wait_for_completion(&r.done);
		if (IS_ERR(r.link)) {
			KUNIT_EXPECT_EQ(test, PTR_ERR(r.link), (long)-EINVAL);
			refused++;
		} else {
			made++;
		}
		KUNIT_EXPECT_NULL(test, dmc_device_link_find(c->dev, s->dev));
		dmm_dev_put(victim);
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_EQ_MSG(test, victim->released, 1U, "round %u", i);
		dmm_dev_get(other);
		dmm_dev_unregister(other);
		dmm_dev_put(other);
		dmc_kobject_flush_releases();
		KUNIT_EXPECT_EQ_MSG(test, other->released, 1U, "round %u", i);
	}
	kunit_info(test, "links made then purged: %u, refused: %u\n", made, refused);
}

static struct kunit_case link_test_cases[] = {
	KUNIT_CASE(link_add_null_fails_einval),
	KUNIT_CASE(link_add_to_itself_fails_einval),
	KUNIT_CASE(link_add_unregistered_device_fails_einval),
	KUNIT_CASE(link_add_direct_cycle_fails_einval),
	KUNIT_CASE(link_add_indirect_cycle_fails_einval),
	KUNIT_CASE(link_add_supplier_descendant_of_consumer_fails_einval),
	KUNIT_CASE(link_add_existing_link_returns_it),
	KUNIT_CASE(link_find_is_directional),
	KUNIT_CASE(link_remove_returns_0_then_enoent),
	KUNIT_CASE(link_del_drops_the_dependency),
	KUNIT_CASE(link_refcounts_back_after_link_del),
	KUNIT_CASE(link_consumer_deletion_removes_its_links),
	KUNIT_CASE(link_supplier_deletion_removes_its_links),
	KUNIT_CASE(link_add_racing_deletion_leaves_no_link),
	KUNIT_CASE(link_consumer_defers_on_supplier_without_driver),
	KUNIT_CASE(link_consumer_binds_once_supplier_binds),
	KUNIT_CASE(link_consumer_waits_for_every_supplier),
	KUNIT_CASE(link_supplier_release_unbinds_consumer_first),
	KUNIT_CASE(link_supplier_driver_unregister_unbinds_consumer_first),
	KUNIT_CASE(link_supplier_del_unbinds_consumer_first),
	KUNIT_CASE(link_unbind_cascades_along_a_chain),
	KUNIT_CASE(link_unbound_consumer_untouched_by_supplier_unbind),
	KUNIT_CASE(link_null_arguments_fail_without_crash),
	KUNIT_CASE(link_unbind_consumers_of_ladder_deepest_first),
	KUNIT_CASE(link_chain_cycle_check_and_reorder_use_flat_stack),
	KUNIT_CASE(link_unbind_consumers_of_chain_uses_flat_stack),
	KUNIT_CASE(link_ladder_of_diamonds_reorders_fast),
	KUNIT_CASE(link_chain_of_3000),
	KUNIT_CASE(link_unbind_consumers_of_chain_of_3000),
	{}
};

static struct kunit_suite link_test_suite = {
	.name = "dmcore-link",
	.init = link_test_init,
	.exit = dmct_exit,
	.test_cases = link_test_cases,
};

kunit_test_suites(&link_test_suite);
