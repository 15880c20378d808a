// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the filesystem "dmcore" (dmcfs.c) seen through a kernel mount of
 * it, as a process sees it: a deletion waits for a show in flight on its
 * object and returns with none left; a store runs through the same
 * active reference; dmc_sysfs_notify() marks a polled file; an open file
 * of a removed object fails with ENODEV and its name is gone.
 *
 * The objects are plain kobjects of a type of this file's, at the top
 * level, whose show can be parked on a completion. Skipped when the
 * filesystem is not registered (dmcore loaded with export=0).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <dmcore/bus.h>
#include <dmcore/device.h>
#include <dmcore/driver.h>
#include <dmcore/kobject.h>

struct fst_obj {
	struct dmc_kobject kobj;
	bool park;			/* show of "value" parks */
	struct completion in_show;	/* show entered */
	struct completion go;		/* let a parked show return */
	struct completion released;
	int value;
	int stores;
};

static void fst_release(struct dmc_kobject *kobj)
{
	struct fst_obj *o = container_of(kobj, struct fst_obj, kobj);

	complete(&o->released);	/* freed by the test, which waits for this */
}

static ssize_t fst_show(struct dmc_kobject *kobj, struct dmc_attribute *attr,
			char *buf)
{
	struct fst_obj *o = container_of(kobj, struct fst_obj, kobj);

	if (READ_ONCE(o->park)) {
		complete(&o->in_show);
		wait_for_completion(&o->go);
	}
	return sysfs_emit(buf, "%d\n", READ_ONCE(o->value));
}

static ssize_t fst_store(struct dmc_kobject *kobj, struct dmc_attribute *attr,
			 const char *buf, size_t count)
{
	struct fst_obj *o = container_of(kobj, struct fst_obj, kobj);
	int v, err;

	err = kstrtoint(buf, 0, &v);
	if (err)
		return err;
	WRITE_ONCE(o->value, v);
	o->stores++;
	return count;
}

static const struct dmc_sysfs_ops fst_sysfs_ops = {
	.show = fst_show,
	.store = fst_store,
};

static struct dmc_attribute fst_value = { .name = "value", .mode = 0644 };
static struct dmc_attribute fst_other = { .name = "other", .mode = 0444 };
static struct dmc_attribute *fst_attrs[] = { &fst_value, &fst_other, NULL };
static const struct dmc_attribute_group fst_group = { .attrs = fst_attrs };
static const struct dmc_attribute_group *fst_groups[] = { &fst_group, NULL };

static const struct dmc_kobj_type fst_ktype = {
	.name = "dmcfs-test",
	.release = fst_release,
	.sysfs_ops = &fst_sysfs_ops,
	.default_groups = fst_groups,
};

#define FST_FILES	4

/* @files: open files, closed by the exit if a test stopped early */
struct fst_ctx {
	struct vfsmount *mnt;
	struct file *files[FST_FILES];
	bool leak;	/* a thread may still use them: leave them */
};

static int fst_init(struct kunit *test)
{
	struct file_system_type *type = get_fs_type("dmcore");
	struct fst_ctx *ctx;

	if (!type)
		kunit_skip(test, "the filesystem dmcore is not registered (export=0)");
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->mnt = kern_mount(type);
	module_put(type->owner);	/* get_fs_type()'s; the mount holds its own */
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->mnt));
	test->priv = ctx;
	return 0;
}

static void fst_exit(struct kunit *test)
{
	struct fst_ctx *ctx = test->priv;

	int i;

	if (!ctx || ctx->leak)
		return;
	for (i = 0; i < FST_FILES; i++)
		if (ctx->files[i])
			fput(ctx->files[i]);
	flush_delayed_fput();
	if (!IS_ERR_OR_NULL(ctx->mnt))
		kern_unmount(ctx->mnt);
}

static struct fst_obj *fst_add(struct kunit *test, const char *name)
{
	struct fst_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	init_completion(&o->in_show);
	init_completion(&o->go);
	init_completion(&o->released);
	o->value = 7;
	KUNIT_ASSERT_EQ(test, dmc_kobject_init_and_add(&o->kobj, &fst_ktype, NULL,
						       "%s", name), 0);
	return o;
}

/* Delete (if still in the tree), drop, wait for the release, free. */
static void fst_done(struct kunit *test, struct fst_obj *o)
{
	flush_delayed_fput();	/* a kthread's fput() is deferred */
	dmc_kobject_del(&o->kobj);
	dmc_kobject_put(&o->kobj);
	if (!wait_for_completion_timeout(&o->released, 10 * HZ)) {
		KUNIT_FAIL(test, "object not released 10 s after its last put");
		return;	/* leaked rather than freed under someone */
	}
	kfree(o);
}

static struct file *fst_open(struct kunit *test, const char *path, int flags)
{
	struct fst_ctx *ctx = test->priv;
	struct path root = { .mnt = ctx->mnt, .dentry = ctx->mnt->mnt_root };
	struct file *f = file_open_root(&root, path, flags, 0);
	int i;

	for (i = 0; !IS_ERR(f) && i < FST_FILES; i++) {
		if (!ctx->files[i]) {
			ctx->files[i] = f;
			break;
		}
	}
	return f;
}

static void fst_close(struct kunit *test, struct file *f)
{
	struct fst_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < FST_FILES; i++)
		if (ctx->files[i] == f)
			ctx->files[i] = NULL;
	__fput_sync(f);	/* now, not from a task work: the test runs in a kthread */
}

static ssize_t fst_read(struct file *f, char *buf, size_t size)
{
	loff_t pos = 0;
	ssize_t n = kernel_read(f, buf, size - 1, &pos);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static bool fst_task_blocked(struct task_struct *t)
{
	int seen = 0, i;

	for (i = 0; i < 500 && seen < 3; i++) {
		if (READ_ONCE(t->__state) == TASK_UNINTERRUPTIBLE)
			seen++;
		else
			seen = 0;
		msleep(20);
	}
	return seen >= 3;
}

struct fst_job {
	struct fst_obj *o;
	struct file *f;
	char buf[32];
	ssize_t ret;
	struct completion done;
};

static int fst_reader(void *data)
{
	struct fst_job *j = data;

	j->ret = fst_read(j->f, j->buf, sizeof(j->buf));
	complete(&j->done);
	return 0;
}

static int fst_deleter(void *data)
{
	struct fst_job *j = data;

	dmc_kobject_del(&j->o->kobj);
	complete(&j->done);
	return 0;
}

/*
 * A show parked on another CPU: the deletion of its object waits for it
 * (the deleter sleeps, and its dmc_kobject_del() has not returned) and
 * returns once the show did; the show's value reaches its reader; then
 * the open file gives ENODEV and the name is gone.
 */
static void dmcfs_delete_waits_for_show_in_flight(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-park");
	struct task_struct *tr, *td;
	struct fst_job *rd, *del;
	bool blocked, early, done;
	struct file *f, *g;
	char buf[16];

	rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	del = kunit_kzalloc(test, sizeof(*del), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, rd && del);
	init_completion(&rd->done);
	init_completion(&del->done);
	f = fst_open(test, "dmcfs-test-park/value", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	g = fst_open(test, "dmcfs-test-park/other", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));

	WRITE_ONCE(o->park, true);
	rd->f = f;
	tr = kthread_run(fst_reader, rd, "dmcfs-test-rd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tr));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&o->in_show, 10 * HZ));

	del->o = o;
	td = kthread_run(fst_deleter, del, "dmcfs-test-del");
	KUNIT_ASSERT_FALSE(test, IS_ERR(td));
	get_task_struct(td);
	blocked = fst_task_blocked(td);
	early = completion_done(&del->done);
	put_task_struct(td);
	complete(&o->go);
	done = wait_for_completion_timeout(&del->done, 10 * HZ) &&
	       wait_for_completion_timeout(&rd->done, 10 * HZ);
	if (!done) {
		KUNIT_FAIL(test, "deleter or reader still running after 10 s");
		((struct fst_ctx *)test->priv)->leak = true;
		return;	/* the object and the files are left to them */
	}
	KUNIT_EXPECT_TRUE(test, blocked);
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_EQ(test, rd->ret, (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, rd->buf, "7\n");

	/* Gone: the open files fail, the name is not found. */
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, fst_read(g, buf, sizeof(buf)), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(fst_open(test, "dmcfs-test-park/value", O_RDONLY)),
			(long)-ENOENT);
	fst_close(test, f);
	fst_close(test, g);
	fst_done(test, o);
}

/* With nobody in a callback, a deletion does not wait. */
static void dmcfs_delete_with_files_open_does_not_wait(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-open");
	struct file *f;
	char buf[16];

	f = fst_open(test, "dmcfs-test-open/value", O_RDWR);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)2);
	dmc_kobject_del(&o->kobj);	/* returns: no callback in flight */
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, kernel_write(f, "1", 1, &f->f_pos), (ssize_t)-ENODEV);
	fst_close(test, f);
	fst_done(test, o);
}

/*
 * A write is one store() through the active reference; the mode is
 * checked at open as sysfs checks it; a bad value's errno comes back.
 */
static void dmcfs_store_and_modes(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-store");
	loff_t pos = 0;
	struct file *f;
	char buf[16];

	f = fst_open(test, "dmcfs-test-store/value", O_RDWR);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, kernel_write(f, "42", 2, &pos), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, o->value, 42);
	KUNIT_EXPECT_EQ(test, kernel_write(f, "x", 1, &pos), (ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, o->stores, 1);
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)3);
	KUNIT_EXPECT_STREQ(test, buf, "42\n");
	fst_close(test, f);
	/* 0444: refused for writing at open, root or not. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(fst_open(test, "dmcfs-test-store/other", O_WRONLY)),
			(long)-EACCES);
	fst_done(test, o);
}

/*
 * A write is refused, at open, for nothing: an empty write stores
 * nothing; the file position moves as in sysfs.
 */
static void dmcfs_empty_write_stores_nothing(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-empty");
	loff_t pos = 0;
	struct file *f;

	f = fst_open(test, "dmcfs-test-empty/value", O_WRONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, kernel_write(f, "", 0, &pos), (ssize_t)0);
	KUNIT_EXPECT_EQ(test, o->stores, 0);
	KUNIT_EXPECT_EQ(test, kernel_write(f, "5", 1, &pos), (ssize_t)1);
	KUNIT_EXPECT_EQ(test, pos, (loff_t)1);
	KUNIT_EXPECT_EQ(test, o->stores, 1);
	fst_close(test, f);
	fst_done(test, o);
}

/*
 * dmc_sysfs_notify() marks the open files of that attribute (POLLPRI),
 * and of no other; a read at position 0 clears the mark; the object's
 * removal marks them all (POLLERR).
 */
static void dmcfs_notify_marks_polled_file(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-poll");
	struct file *f, *g;
	char buf[16];

	f = fst_open(test, "dmcfs-test-poll/value", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	g = fst_open(test, "dmcfs-test-poll/other", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, fst_read(g, buf, sizeof(buf)), (ssize_t)2);
	KUNIT_EXPECT_FALSE(test, vfs_poll(f, NULL) & EPOLLPRI);

	WRITE_ONCE(o->value, 8);
	dmc_sysfs_notify(&o->kobj, NULL, "value");
	dmc_sysfs_notify(&o->kobj, "power", "other");	/* another group: nobody */
	KUNIT_EXPECT_TRUE(test, vfs_poll(f, NULL) & EPOLLPRI);
	KUNIT_EXPECT_FALSE(test, vfs_poll(g, NULL) & EPOLLPRI);
	KUNIT_EXPECT_EQ(test, fst_read(f, buf, sizeof(buf)), (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, buf, "8\n");
	KUNIT_EXPECT_FALSE(test, vfs_poll(f, NULL) & EPOLLPRI);

	dmc_kobject_del(&o->kobj);
	KUNIT_EXPECT_TRUE(test, vfs_poll(f, NULL) & EPOLLERR);
	KUNIT_EXPECT_TRUE(test, vfs_poll(g, NULL) & EPOLLERR);
	fst_close(test, f);
	fst_close(test, g);
	fst_done(test, o);
}

struct fst_notifier {
	struct fst_obj *o;
	atomic_t stop;
	unsigned long sent;
};

static int fst_notify_loop(void *data)
{
	struct fst_notifier *n = data;

	while (!atomic_read(&n->stop)) {
		dmc_sysfs_notify(&n->o->kobj, NULL, "value");
		n->sent++;
		cond_resched();
	}
	return 0;
}

/*
 * Notifies on another CPU while files of the object are opened, closed
 * and its node comes and goes (no file open: nothing is kept): nothing
 * faults (the node list is read under RCU only).
 */
static void dmcfs_notify_races_open_and_close(struct kunit *test)
{
	struct fst_obj *o = fst_add(test, "dmcfs-test-race");
	struct fst_notifier *n;
	struct task_struct *t;
	struct file *f;
	int i;

	n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	n->o = o;
	t = kthread_run(fst_notify_loop, n, "dmcfs-test-notify");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	for (i = 0; i < 2000; i++) {
		f = fst_open(test, "dmcfs-test-race/value", O_RDONLY);
		if (IS_ERR(f)) {
			KUNIT_FAIL(test, "open %d: %ld", i, PTR_ERR(f));
			break;
		}
		/* A notify may come between the open and this: a mark, or none. */
		KUNIT_EXPECT_TRUE(test, vfs_poll(f, NULL) & EPOLLIN);
		fst_close(test, f);	/* the node goes with its last inode */
	}
	atomic_set(&n->stop, 1);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_GT(test, n->sent, 0UL);
	fst_done(test, o);
}

/* ---- a store that waits for a deletion: power/state ---------------------- */

struct fst_pm {
	struct dmc_bus_type bus;
	struct dmc_driver drv;
	struct dmc_device *x, *y;
	struct completion in_suspend, go, y_released;
	bool y_gone;
};

static struct fst_pm *fst_pm_cur;

static int fst_pm_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	return 1;
}

static int fst_pm_probe(struct dmc_device *dev)
{
	return 0;
}

/* X's suspend, under the power-transition mutex: parks, then deletes Y. */
static int fst_pm_suspend(struct dmc_device *dev)
{
	struct fst_pm *pm = fst_pm_cur;

	if (dev != pm->x || pm->y_gone)
		return 0;
	complete(&pm->in_suspend);
	wait_for_completion_timeout(&pm->go, 10 * HZ);
	pm->y_gone = true;
	dmc_device_unregister(pm->y);
	return 0;
}

static void fst_pm_release(struct dmc_device *dev)
{
	struct fst_pm *pm = fst_pm_cur;

	if (dev == pm->y)
		complete(&pm->y_released);
	kfree(dev);
}

static struct dmc_device *fst_pm_dev(struct kunit *test, struct fst_pm *pm,
				     const char *name)
{
	struct dmc_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dmc_device_initialize(dev);
	dev->bus = &pm->bus;
	dev->release = fst_pm_release;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(dev, "%s", name), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_add(dev), 0);
	return dev;
}

struct fst_pm_job {
	struct fst_pm *pm;
	struct file *f;
	ssize_t ret;
	struct completion done;
};

static int fst_pm_suspender(void *data)
{
	struct fst_pm_job *j = data;

	j->ret = dmc_device_suspend(j->pm->x);
	complete(&j->done);
	return 0;
}

static int fst_pm_writer(void *data)
{
	struct fst_pm_job *j = data;
	loff_t pos = 0;

	j->ret = kernel_write(j->f, "suspend", 7, &pos);
	complete(&j->done);
	return 0;
}

/*
 * Y's power/state is written through the tree while X's suspend, under
 * the power-transition mutex, deletes Y: the store waits for the mutex,
 * the deletion for the callbacks in flight on Y. The store breaks its
 * active reference (dmc_attribute.break_active), so the deletion does
 * not wait for it: both finish, and the store fails as for a device no
 * longer registered. Without that, this is a deadlock (found by review).
 */
static void dmcfs_power_state_store_races_deletion_in_suspend(struct kunit *test)
{
	struct fst_pm_job *sus, *wr;
	struct task_struct *ts, *tw;
	struct fst_pm *pm;
	bool blocked, done;
	struct file *f;

	pm = kunit_kzalloc(test, sizeof(*pm), GFP_KERNEL);
	sus = kunit_kzalloc(test, sizeof(*sus), GFP_KERNEL);
	wr = kunit_kzalloc(test, sizeof(*wr), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, pm && sus && wr);
	init_completion(&pm->in_suspend);
	init_completion(&pm->go);
	init_completion(&pm->y_released);
	init_completion(&sus->done);
	init_completion(&wr->done);
	fst_pm_cur = pm;
	pm->bus.name = "dmcfs-test-pm";
	pm->bus.match = fst_pm_match;
	pm->drv.name = "dmcfs-test-pm";
	pm->drv.bus = &pm->bus;
	pm->drv.probe = fst_pm_probe;
	pm->drv.suspend = fst_pm_suspend;
	KUNIT_ASSERT_EQ(test, dmc_bus_register(&pm->bus), 0);
	KUNIT_ASSERT_EQ(test, dmc_driver_register(&pm->drv), 0);
	pm->x = fst_pm_dev(test, pm, "dmcfs-test-pm-x");
	pm->y = fst_pm_dev(test, pm, "dmcfs-test-pm-y");

	f = fst_open(test, "devices/dmcfs-test-pm-y/power/state", O_WRONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	sus->pm = pm;
	ts = kthread_run(fst_pm_suspender, sus, "dmcfs-test-sus");
	KUNIT_ASSERT_FALSE(test, IS_ERR(ts));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&pm->in_suspend, 10 * HZ));
	wr->pm = pm;
	wr->f = f;
	tw = kthread_run(fst_pm_writer, wr, "dmcfs-test-wr");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tw));
	get_task_struct(tw);
	blocked = fst_task_blocked(tw);	/* waiting for the mutex X's suspend holds */
	put_task_struct(tw);
	complete(&pm->go);
	done = wait_for_completion_timeout(&sus->done, 10 * HZ) &&
	       wait_for_completion_timeout(&wr->done, 10 * HZ);
	if (!done) {
		KUNIT_FAIL(test, "deadlock: suspend or power/state write still running after 10 s");
		((struct fst_ctx *)test->priv)->leak = true;
		return;	/* everything is left to them */
	}
	KUNIT_EXPECT_TRUE(test, blocked);
	KUNIT_EXPECT_EQ(test, sus->ret, (ssize_t)0);
	KUNIT_EXPECT_EQ(test, wr->ret, (ssize_t)-EINVAL);
	fst_close(test, f);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&pm->y_released, 10 * HZ));
	dmc_device_resume(pm->x);
	dmc_device_unregister(pm->x);
	dmc_driver_unregister(&pm->drv);
	dmc_bus_unregister(&pm->bus);
	/* x's release reads @pm: done before the test frees it (delayed release). */
	dmc_kobject_flush_releases();
}

static struct kunit_case dmcfs_test_cases[] = {
	KUNIT_CASE(dmcfs_delete_waits_for_show_in_flight),
	KUNIT_CASE(dmcfs_delete_with_files_open_does_not_wait),
	KUNIT_CASE(dmcfs_store_and_modes),
	KUNIT_CASE(dmcfs_empty_write_stores_nothing),
	KUNIT_CASE(dmcfs_power_state_store_races_deletion_in_suspend),
	KUNIT_CASE(dmcfs_notify_marks_polled_file),
	KUNIT_CASE(dmcfs_notify_races_open_and_close),
	{}
};

static struct kunit_suite dmcfs_test_suite = {
	.name = "dmcore-dmcfs",
	.init = fst_init,
	.exit = fst_exit,
	.test_cases = dmcfs_test_cases,
};

kunit_test_suites(&dmcfs_test_suite);
