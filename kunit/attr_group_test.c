// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: attribute groups (kobject_group.c, kobject_attr.c) seen through
 * a kernel mount of the tree, as a process sees them: named and unnamed
 * groups, is_visible() and dmc_sysfs_update_group(), binary attributes
 * at offsets, refused groups that change nothing, a group's removal
 * waiting for a show and a store in flight (kthreads parked on
 * completions) after which its open files fail and new opens too, a
 * driver's dev_groups following the binding, a class's class_groups,
 * and the kernel's samples/kobject/kobject-example.c ported by a rename.
 * Skipped when the filesystem is not registered (export=0).
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
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <dmcore/bus.h>
#include <dmcore/class.h>
#include <dmcore/device.h>
#include <dmcore/driver.h>
#include <dmcore/kobject.h>

/* ==== samples/kobject/kobject-example.c, ported by a rename ============== */
/*
 * The sample's code with kobject_create_and_add -> dmc_kobject_create_and_add,
 * kobject_put -> dmc_kobject_put, sysfs_create_group ->
 * dmc_sysfs_create_group, __ATTR -> __DMC_ATTR, struct kobject ->
 * struct dmc_kobject, struct kobj_attribute -> struct dmc_kobj_attribute,
 * struct attribute(_group) -> struct dmc_attribute(_group); its init and
 * exit are called by the test. The one change that is not a rename:
 * dmcore has no kernel_kobj ("/sys/kernel"), so the object is made at the
 * tree's top level (NULL parent), as README's "where dmcore differs" says.
 */

/*
 * This module shows how to create a simple subdirectory in sysfs called
 * /sys/kernel/kobject-example  In that directory, 3 files are created:
 * "foo", "baz", and "bar".  If an integer is written to these files, it can be
 * later read out of it.
 */

static int foo;
static int baz;
static int bar;

/*
 * The "foo" file where a static variable is read from and written to.
 */
static ssize_t foo_show(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%d\n", foo);
}

static ssize_t foo_store(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			 const char *buf, size_t count)
{
	int ret;

	ret = kstrtoint(buf, 10, &foo);
	if (ret < 0)
		return ret;

	return count;
}

/* Sysfs attributes cannot be world-writable. */
static struct dmc_kobj_attribute foo_attribute =
	__DMC_ATTR(foo, 0664, foo_show, foo_store);

/*
 * More complex function where we determine which variable is being accessed by
 * looking at the attribute for the "baz" and "bar" files.
 */
static ssize_t b_show(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
		      char *buf)
{
	int var;

	if (strcmp(attr->attr.name, "baz") == 0)
		var = baz;
	else
		var = bar;
	return sysfs_emit(buf, "%d\n", var);
}

static ssize_t b_store(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
		       const char *buf, size_t count)
{
	int var, ret;

	ret = kstrtoint(buf, 10, &var);
	if (ret < 0)
		return ret;

	if (strcmp(attr->attr.name, "baz") == 0)
		baz = var;
	else
		bar = var;
	return count;
}

static struct dmc_kobj_attribute baz_attribute =
	__DMC_ATTR(baz, 0664, b_show, b_store);
static struct dmc_kobj_attribute bar_attribute =
	__DMC_ATTR(bar, 0664, b_show, b_store);

/*
 * Create a group of attributes so that we can create and destroy them all
 * at once.
 */
static struct dmc_attribute *attrs[] = {
	&foo_attribute.attr,
	&baz_attribute.attr,
	&bar_attribute.attr,
	NULL,	/* need to NULL terminate the list of attributes */
};

/*
 * An unnamed attribute group will put all of the attributes directly in
 * the kobject directory.  If we specify a name, a subdirectory will be
 * created for the attributes with the directory being the name of the
 * attribute group.
 */
static struct dmc_attribute_group attr_group = {
	.attrs = attrs,
};

static struct dmc_kobject *example_kobj;

static int example_init(void)
{
	int retval;

	/*
	 * Create a simple kobject with the name of "kobject_example",
	 * located under /sys/kernel/
	 *
	 * As this is a simple directory, no uevent will be sent to
	 * userspace.  That is why this function should not be used for
	 * any type of dynamic kobjects, where the name and number are
	 * not known ahead of time.
	 */
	example_kobj = dmc_kobject_create_and_add("kobject_example", NULL);
	if (!example_kobj)
		return -ENOMEM;

	/* Create the files associated with this kobject */
	retval = dmc_sysfs_create_group(example_kobj, &attr_group);
	if (retval)
		dmc_kobject_put(example_kobj);

	return retval;
}

static void example_exit(void)
{
	dmc_kobject_put(example_kobj);
}

/* ==== the test's mount and files ============================================ */

#define AGT_FILES	6

struct agt_ctx {
	struct vfsmount *mnt;
	struct file *files[AGT_FILES];
	bool leak;	/* a thread may still use them: leave them */
};

static int agt_init(struct kunit *test)
{
	struct file_system_type *type = get_fs_type("dmcore");
	struct agt_ctx *ctx;

	if (!type)
		kunit_skip(test, "the filesystem dmcore is not registered (export=0)");
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->mnt = kern_mount(type);
	module_put(type->owner);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->mnt));
	test->priv = ctx;
	return 0;
}

static void agt_exit(struct kunit *test)
{
	struct agt_ctx *ctx = test->priv;
	int i;

	if (!ctx || ctx->leak)
		return;
	for (i = 0; i < AGT_FILES; i++)
		if (ctx->files[i])
			fput(ctx->files[i]);
	flush_delayed_fput();
	if (!IS_ERR_OR_NULL(ctx->mnt))
		kern_unmount(ctx->mnt);
}

static struct file *agt_open(struct kunit *test, const char *path, int flags)
{
	struct agt_ctx *ctx = test->priv;
	struct path root = { .mnt = ctx->mnt, .dentry = ctx->mnt->mnt_root };
	struct file *f = file_open_root(&root, path, flags, 0);
	int i;

	for (i = 0; !IS_ERR(f) && i < AGT_FILES; i++) {
		if (!ctx->files[i]) {
			ctx->files[i] = f;
			break;
		}
	}
	return f;
}

static void agt_close(struct kunit *test, struct file *f)
{
	struct agt_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < AGT_FILES; i++)
		if (ctx->files[i] == f)
			ctx->files[i] = NULL;
	__fput_sync(f);
}

/* The errno of opening @path (0 if it opens), the file closed again. */
static int agt_open_err(struct kunit *test, const char *path, int flags)
{
	struct file *f = agt_open(test, path, flags);

	if (IS_ERR(f))
		return PTR_ERR(f);
	agt_close(test, f);
	return 0;
}

/* The mode bits of @path, or a negative errno. */
static int agt_mode(struct kunit *test, const char *path)
{
	struct file *f = agt_open(test, path, O_PATH);
	int mode;

	if (IS_ERR(f))
		return PTR_ERR(f);
	mode = file_inode(f)->i_mode & 07777;
	agt_close(test, f);
	return mode;
}

static ssize_t agt_read(struct file *f, char *buf, size_t size)
{
	loff_t pos = 0;
	ssize_t n = kernel_read(f, buf, size - 1, &pos);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Read @path whole into @buf; the length or a negative errno. */
static ssize_t agt_cat(struct kunit *test, const char *path, char *buf, size_t size)
{
	struct file *f = agt_open(test, path, O_RDONLY);
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = agt_read(f, buf, size);
	agt_close(test, f);
	return n;
}

static ssize_t agt_echo(struct kunit *test, const char *path, const char *val)
{
	struct file *f = agt_open(test, path, O_WRONLY);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	agt_close(test, f);
	return n;
}

static bool agt_task_blocked(struct task_struct *t)
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

/* ==== kobject-example, through the tree ==================================== */

static void attr_group_kobject_example_port(struct kunit *test)
{
	char buf[32];

	foo = 0;
	bar = 0;
	baz = 0;
	KUNIT_ASSERT_EQ(test, example_init(), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "kobject_example/foo"), 0664);
	KUNIT_EXPECT_EQ(test, agt_echo(test, "kobject_example/foo", "12\n"), (ssize_t)3);
	KUNIT_EXPECT_EQ(test, agt_echo(test, "kobject_example/baz", "34"), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, agt_echo(test, "kobject_example/bar", "56"), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, agt_echo(test, "kobject_example/bar", "x"), (ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, foo, 12);
	KUNIT_EXPECT_EQ(test, baz, 34);
	KUNIT_EXPECT_EQ(test, bar, 56);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "kobject_example/baz", buf, sizeof(buf)),
			(ssize_t)3);
	KUNIT_EXPECT_STREQ(test, buf, "34\n");
	KUNIT_EXPECT_EQ(test, agt_cat(test, "kobject_example/bar", buf, sizeof(buf)),
			(ssize_t)3);
	KUNIT_EXPECT_STREQ(test, buf, "56\n");
	/* A second init: the name is taken, nothing is made. */
	KUNIT_EXPECT_NULL(test, dmc_kobject_create_and_add("kobject_example", NULL));
	example_exit();		/* the last put deletes it with its group */
	dmc_kobject_flush_releases();
	KUNIT_EXPECT_EQ(test, agt_mode(test, "kobject_example/foo"), -ENOENT);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "kobject_example"), -ENOENT);
}

/* ==== groups on a plain kobject =============================================== */

static bool agt_show_hidden;

static ssize_t agt_show(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%s\n", attr->attr.name);
}

static ssize_t agt_store(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			 const char *buf, size_t count)
{
	return count;
}

static struct dmc_kobj_attribute agt_a = __DMC_ATTR(a, 0644, agt_show, agt_store);
static struct dmc_kobj_attribute agt_b = __DMC_ATTR(b, 0444, agt_show, NULL);
static struct dmc_kobj_attribute agt_hid = __DMC_ATTR(hid, 0644, agt_show, agt_store);
static struct dmc_kobj_attribute agt_c = __DMC_ATTR(c, 0644, agt_show, agt_store);
static struct dmc_kobj_attribute agt_a2 = __DMC_ATTR(a, 0444, agt_show, NULL);

/* "hid" shows only while agt_show_hidden; "b" is given 0400. */
static umode_t agt_is_visible(struct dmc_kobject *kobj, struct dmc_attribute *attr, int n)
{
	if (attr == &agt_hid.attr)
		return READ_ONCE(agt_show_hidden) ? 0600 : 0;
	if (attr == &agt_b.attr)
		return 0400;
	return attr->mode;
}

static struct dmc_attribute *agt_named_attrs[] = { &agt_a.attr, &agt_b.attr,
						    &agt_hid.attr, NULL };
static const struct dmc_attribute_group agt_named = {
	.name = "grp",
	.is_visible = agt_is_visible,
	.attrs = agt_named_attrs,
};

static struct dmc_attribute *agt_top_attrs[] = { &agt_c.attr, &agt_hid.attr, NULL };
static const struct dmc_attribute_group agt_top = {
	.is_visible = agt_is_visible,
	.attrs = agt_top_attrs,
};

static void attr_group_named_unnamed_is_visible(struct kunit *test)
{
	struct dmc_kobject *k = dmc_kobject_create_and_add("agt-vis", NULL);
	struct file *f;
	char buf[16];

	KUNIT_ASSERT_NOT_NULL(test, k);
	WRITE_ONCE(agt_show_hidden, false);
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_named), 0);
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_top), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp"), 0755);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp/a"), 0644);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp/b"), 0400);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp/hid"), -ENOENT);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/c"), 0644);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/hid"), -ENOENT);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "agt-vis/grp/a", buf, sizeof(buf)), (ssize_t)2);
	KUNIT_EXPECT_STREQ(test, buf, "a\n");
	/* Files of a group's directory are not in the object's own. */
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/a"), -ENOENT);

	/* Visibility changes only when the group is updated, as in Linux. */
	WRITE_ONCE(agt_show_hidden, true);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp/hid"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_update_group(k, &agt_named), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp/hid"), 0600);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/hid"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_update_group(k, &agt_top), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/hid"), 0600);

	/* Hidden again: an open file of it fails, new opens too. */
	f = agt_open(test, "agt-vis/hid", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, agt_read(f, buf, sizeof(buf)), (ssize_t)4);
	WRITE_ONCE(agt_show_hidden, false);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_update_group(k, &agt_top), 0);
	KUNIT_EXPECT_EQ(test, agt_read(f, buf, sizeof(buf)), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/hid"), -ENOENT);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/c"), 0644);
	agt_close(test, f);

	/* A named group it does not have cannot be updated. */
	dmc_sysfs_remove_group(k, &agt_named);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_update_group(k, &agt_named), -EINVAL);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/grp"), -ENOENT);
	dmc_sysfs_remove_group(k, &agt_top);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-vis/c"), -ENOENT);
	KUNIT_EXPECT_FALSE(test, dmc_kobj_test_flag(k, DMC_KOBJ_HAS_GROUPS));
	dmc_kobject_del(k);
	dmc_kobject_put(k);
}

/* ==== refused groups change nothing ============================================ */

static struct dmc_attribute *agt_empty_attrs[] = { NULL };
static const struct dmc_attribute_group agt_no_attrs = { .name = "none" };
static struct dmc_attribute *agt_dup_attrs[] = { &agt_a.attr, &agt_a2.attr, NULL };
static const struct dmc_attribute_group agt_dup = { .attrs = agt_dup_attrs };
static struct dmc_attribute *agt_a2_attrs[] = { &agt_a2.attr, NULL };
static const struct dmc_attribute_group agt_child_named = {
	.name = "child", .attrs = agt_empty_attrs,
};

static struct dmc_attribute *agt_c_attrs[] = { &agt_c.attr, NULL };
static const struct dmc_attribute_group agt_file_named = {
	.name = "c", .attrs = agt_a2_attrs,
};

static const struct dmc_attribute_group agt_only_c = { .attrs = agt_c_attrs };
static struct dmc_attribute *agt_bad_attrs[] = { &agt_b.attr, NULL };
static const struct dmc_attribute_group agt_bad_name = {
	.name = "x/y", .attrs = agt_bad_attrs,
};

static const struct dmc_attribute_group *agt_list_fails[] = {
	&agt_only_c, &agt_dup, NULL,
};

static void attr_group_refused_change_nothing(struct kunit *test)
{
	struct dmc_kobject *k = dmc_kobject_create_and_add("agt-bad", NULL);
	struct dmc_kobject *child, *dead;

	KUNIT_ASSERT_NOT_NULL(test, k);
	child = dmc_kobject_create_and_add("child", k);
	KUNIT_ASSERT_NOT_NULL(test, child);

	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(NULL, &agt_top), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_no_attrs), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_bad_name), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_file(k, NULL), -EINVAL);
	/* A name twice in the group; a group named like a child. */
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_dup), -EEXIST);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/a"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_child_named), -EEXIST);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/child"), 0755);

	/* Added twice; a file that exists; a group named like a file. */
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_only_c), 0);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_only_c), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_file(k, &agt_c.attr), -EEXIST);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(k, &agt_file_named), -EEXIST);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/c"), 0644);
	/* A child cannot take the name of a file now. */
	KUNIT_EXPECT_NULL(test, dmc_kobject_create_and_add("c", k));

	/* A list whose second group fails: the first goes again. */
	dmc_sysfs_remove_group(k, &agt_only_c);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_groups(k, agt_list_fails), -EEXIST);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/c"), -ENOENT);
	KUNIT_EXPECT_FALSE(test, dmc_kobj_test_flag(k, DMC_KOBJ_HAS_GROUPS));
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_groups(k, NULL), 0);

	/* One file, then gone. */
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_file(k, &agt_a2.attr), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/a"), 0444);
	dmc_sysfs_remove_file(k, &agt_a2.attr);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/a"), -ENOENT);
	/* Removing what it does not have changes nothing. */
	dmc_sysfs_remove_group(k, &agt_only_c);
	dmc_sysfs_remove_file(k, &agt_a2.attr);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bad/child"), 0755);

	/* Not in the tree: refused. */
	dead = dmc_kobject_create_and_add("agt-dead", NULL);
	KUNIT_ASSERT_NOT_NULL(test, dead);
	dmc_kobject_del(dead);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_create_group(dead, &agt_top), -EINVAL);
	KUNIT_EXPECT_FALSE(test, dmc_kobj_test_flag(dead, DMC_KOBJ_HAS_GROUPS));
	dmc_kobject_put(dead);

	/* Deleted with its groups: they go with it. */
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(child, &agt_top), 0);
	KUNIT_EXPECT_TRUE(test, dmc_kobj_test_flag(child, DMC_KOBJ_HAS_GROUPS));
	dmc_kobject_del(child);
	KUNIT_EXPECT_FALSE(test, dmc_kobj_test_flag(child, DMC_KOBJ_HAS_GROUPS));
	dmc_kobject_put(child);
	dmc_kobject_del(k);
	dmc_kobject_put(k);
}

/* ==== binary attributes ======================================================== */

static u8 agt_blob[16];

static ssize_t blob_read(struct file *file, struct dmc_kobject *kobj,
			 struct dmc_bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	memcpy(buf, agt_blob + off, count);
	return count;
}

static ssize_t blob_write(struct file *file, struct dmc_kobject *kobj,
			  struct dmc_bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	memcpy(agt_blob + off, buf, count);
	return count;
}

static ssize_t secret_read(struct file *file, struct dmc_kobject *kobj,
			   struct dmc_bin_attribute *attr, char *buf, loff_t off, size_t count)
{
	return -EIO;
}

static DMC_BIN_ATTR_RW(blob, sizeof(agt_blob));
static DMC_BIN_ATTR_RO(secret, 4);

static umode_t agt_bin_visible(struct dmc_kobject *kobj, struct dmc_bin_attribute *attr,
			       int n)
{
	return attr == &dmc_bin_attr_secret ? 0 : attr->attr.mode;
}

static struct dmc_bin_attribute *agt_bin_attrs[] = {
	&dmc_bin_attr_blob, &dmc_bin_attr_secret, NULL,
};

static const struct dmc_attribute_group agt_bin_group = {
	.name = "bin",
	.is_bin_visible = agt_bin_visible,
	.bin_attrs = agt_bin_attrs,
};

static void attr_group_bin_attributes(struct kunit *test)
{
	struct dmc_kobject *k = dmc_kobject_create_and_add("agt-bin", NULL);
	char buf[32];
	struct file *f;
	loff_t pos;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, k);
	for (i = 0; i < sizeof(agt_blob); i++)
		agt_blob[i] = 'a' + i;
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_bin_group), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bin/bin/blob"), 0644);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bin/bin/secret"), -ENOENT);
	f = agt_open(test, "agt-bin/bin/blob", O_RDWR);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, i_size_read(file_inode(f)), (loff_t)16);
	pos = 4;
	KUNIT_EXPECT_EQ(test, kernel_read(f, buf, 3, &pos), (ssize_t)3);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "efg", 3), 0);
	KUNIT_EXPECT_EQ(test, pos, (loff_t)7);
	/* Clipped at the size; nothing past it. */
	pos = 14;
	KUNIT_EXPECT_EQ(test, kernel_read(f, buf, 8, &pos), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, kernel_read(f, buf, 8, &pos), (ssize_t)0);
	pos = 2;
	KUNIT_EXPECT_EQ(test, kernel_write(f, "XY", 2, &pos), (ssize_t)2);
	KUNIT_EXPECT_EQ(test, memcmp(agt_blob, "abXYe", 5), 0);
	pos = 15;
	KUNIT_EXPECT_EQ(test, kernel_write(f, "123", 3, &pos), (ssize_t)1);
	KUNIT_EXPECT_EQ(test, agt_blob[15], (u8)'1');
	pos = 16;
	KUNIT_EXPECT_EQ(test, kernel_write(f, "z", 1, &pos), (ssize_t)-EFBIG);
	dmc_sysfs_remove_group(k, &agt_bin_group);
	pos = 0;
	KUNIT_EXPECT_EQ(test, kernel_read(f, buf, 4, &pos), (ssize_t)-ENODEV);
	agt_close(test, f);

	/* One binary file, its read's errno coming back. */
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_bin_file(k, &dmc_bin_attr_secret), 0);
	f = agt_open(test, "agt-bin/secret", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	pos = 0;
	KUNIT_EXPECT_EQ(test, kernel_read(f, buf, 4, &pos), (ssize_t)-EIO);
	agt_close(test, f);
	dmc_sysfs_remove_bin_file(k, &dmc_bin_attr_secret);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-bin/secret"), -ENOENT);
	dmc_kobject_del(k);
	dmc_kobject_put(k);
}

/* ==== a group's removal drains its files ========================================= */

static struct completion agt_in_cb, agt_go;
static bool agt_park;
static int agt_stored;

static ssize_t park_show(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			 char *buf)
{
	if (READ_ONCE(agt_park)) {
		complete(&agt_in_cb);
		wait_for_completion(&agt_go);
	}
	return sysfs_emit(buf, "parked\n");
}

static ssize_t park_store(struct dmc_kobject *kobj, struct dmc_kobj_attribute *attr,
			  const char *buf, size_t count)
{
	if (READ_ONCE(agt_park)) {
		complete(&agt_in_cb);
		wait_for_completion(&agt_go);
	}
	WRITE_ONCE(agt_stored, agt_stored + 1);
	return count;
}

static struct dmc_kobj_attribute agt_park_attr = __DMC_ATTR_RW(park);
static struct dmc_attribute *agt_park_attrs[] = { &agt_park_attr.attr, NULL };
static const struct dmc_attribute_group agt_park_group = {
	.name = "p",
	.attrs = agt_park_attrs,
};

struct agt_job {
	struct dmc_kobject *k;
	struct file *f;
	bool write;
	char buf[32];
	ssize_t ret;
	struct completion done;
};

static int agt_io_fn(void *data)
{
	struct agt_job *j = data;
	loff_t pos = 0;

	if (j->write)
		j->ret = kernel_write(j->f, "1", 1, &pos);
	else
		j->ret = agt_read(j->f, j->buf, sizeof(j->buf));
	complete(&j->done);
	return 0;
}

static int agt_remover_fn(void *data)
{
	struct agt_job *j = data;

	dmc_sysfs_remove_group(j->k, &agt_park_group);
	complete(&j->done);
	return 0;
}

/*
 * A show (or a store) parked on another CPU: the group's removal waits
 * for it (the remover sleeps, has not returned) and returns once it did;
 * the callback's result reaches the caller; then the open file gives
 * ENODEV, the name is gone and a new open fails.
 */
static void agt_remove_waits(struct kunit *test, bool write)
{
	struct dmc_kobject *k = dmc_kobject_create_and_add("agt-park", NULL);
	struct agt_job *io, *rm;
	struct task_struct *tio, *trm;
	bool blocked, early, done;
	struct file *f;
	char buf[16];

	KUNIT_ASSERT_NOT_NULL(test, k);
	io = kunit_kzalloc(test, sizeof(*io), GFP_KERNEL);
	rm = kunit_kzalloc(test, sizeof(*rm), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, io && rm);
	init_completion(&io->done);
	init_completion(&rm->done);
	init_completion(&agt_in_cb);
	init_completion(&agt_go);
	agt_stored = 0;
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_park_group), 0);
	f = agt_open(test, "agt-park/p/park", O_RDWR);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));

	WRITE_ONCE(agt_park, true);
	io->f = f;
	io->write = write;
	tio = kthread_run(agt_io_fn, io, "agt-io");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tio));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&agt_in_cb, 10 * HZ));

	rm->k = k;
	trm = kthread_run(agt_remover_fn, rm, "agt-rm");
	KUNIT_ASSERT_FALSE(test, IS_ERR(trm));
	get_task_struct(trm);
	blocked = agt_task_blocked(trm);
	early = completion_done(&rm->done);
	put_task_struct(trm);
	/* Removed from the tree already, though not returned: no new opens. */
	KUNIT_EXPECT_EQ(test, agt_open_err(test, "agt-park/p/park", O_RDONLY), -ENOENT);
	WRITE_ONCE(agt_park, false);
	complete(&agt_go);
	done = wait_for_completion_timeout(&rm->done, 10 * HZ) &&
	       wait_for_completion_timeout(&io->done, 10 * HZ);
	if (!done) {
		KUNIT_FAIL(test, "remover or reader still running after 10 s");
		((struct agt_ctx *)test->priv)->leak = true;
		return;
	}
	KUNIT_EXPECT_TRUE(test, blocked);
	KUNIT_EXPECT_FALSE(test, early);
	if (write) {
		KUNIT_EXPECT_EQ(test, io->ret, (ssize_t)1);
		KUNIT_EXPECT_EQ(test, agt_stored, 1);
	} else {
		KUNIT_EXPECT_EQ(test, io->ret, (ssize_t)7);
		KUNIT_EXPECT_STREQ(test, io->buf, "parked\n");
	}
	KUNIT_EXPECT_EQ(test, agt_read(f, buf, sizeof(buf)), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, kernel_write(f, "1", 1, &f->f_pos), (ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, agt_open_err(test, "agt-park/p/park", O_RDONLY), -ENOENT);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "agt-park/p"), -ENOENT);
	/* Added again: a new file works; the old one stays shut. */
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_park_group), 0);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "agt-park/p/park", buf, sizeof(buf)), (ssize_t)7);
	agt_close(test, f);
	dmc_kobject_del(k);	/* drops the group */
	dmc_kobject_put(k);
}

static void attr_group_remove_waits_for_show(struct kunit *test)
{
	agt_remove_waits(test, false);
}

static void attr_group_remove_waits_for_store(struct kunit *test)
{
	agt_remove_waits(test, true);
}

/* With nobody in a callback, a removal does not wait for open files. */
static void attr_group_remove_with_files_open(struct kunit *test)
{
	struct dmc_kobject *k = dmc_kobject_create_and_add("agt-open", NULL);
	struct file *f;
	char buf[16];

	KUNIT_ASSERT_NOT_NULL(test, k);
	WRITE_ONCE(agt_park, false);
	KUNIT_ASSERT_EQ(test, dmc_sysfs_create_group(k, &agt_park_group), 0);
	f = agt_open(test, "agt-open/p/park", O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, agt_read(f, buf, sizeof(buf)), (ssize_t)7);
	dmc_sysfs_remove_group(k, &agt_park_group);
	KUNIT_EXPECT_EQ(test, agt_read(f, buf, sizeof(buf)), (ssize_t)-ENODEV);
	agt_close(test, f);
	dmc_kobject_del(k);
	dmc_kobject_put(k);
}

/* ==== a driver's dev_groups, a class's class_groups ============================= */

static ssize_t serial_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s-serial\n", dmc_dev_name(dev));
}
static DMC_DEVICE_ATTR_RO(serial);

static ssize_t uevent_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	return 0;
}
static DMC_DEVICE_ATTR_RO(uevent);	/* the device's own "uevent": a clash */

static struct dmc_attribute *agt_drv_attrs[] = { &dmc_dev_attr_serial.attr, NULL };
DMC_ATTRIBUTE_GROUPS(agt_drv);
static struct dmc_attribute *agt_clash_attrs[] = { &dmc_dev_attr_uevent.attr, NULL };
DMC_ATTRIBUTE_GROUPS(agt_clash);

static int agt_probes, agt_removes;

static int agt_probe(struct dmc_device *dev)
{
	agt_probes++;
	return 0;
}

static void agt_remove(struct dmc_device *dev)
{
	agt_removes++;
}

static void agt_dev_release(struct dmc_device *dev)
{
	kfree(dev);
}

static void attr_group_driver_dev_groups(struct kunit *test)
{
	static struct dmc_bus_type bus = { .name = "agt-bus" };
	static struct dmc_driver drv = {
		.name = "agt-drv", .bus = &bus, .probe = agt_probe,
		.remove = agt_remove, .dev_groups = agt_drv_groups,
	};
	static struct dmc_driver bad = {
		.name = "agt-bad", .bus = &bus, .probe = agt_probe,
		.remove = agt_remove, .dev_groups = agt_clash_groups,
	};
	struct dmc_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	char buf[32];

	KUNIT_ASSERT_NOT_NULL(test, dev);
	agt_probes = 0;
	agt_removes = 0;
	KUNIT_ASSERT_EQ(test, dmc_bus_register(&bus), 0);
	dmc_device_initialize(dev);
	dev->bus = &bus;
	dev->release = agt_dev_release;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(dev, "agt-dev"), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_add(dev), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-dev/serial"), -ENOENT);

	/* A driver whose dev_groups clash: the probe fails after its remove. */
	KUNIT_ASSERT_EQ(test, dmc_driver_register(&bad), 0);
	KUNIT_EXPECT_FALSE(test, dmc_device_is_bound(dev));
	KUNIT_EXPECT_EQ(test, agt_probes, 1);
	KUNIT_EXPECT_EQ(test, agt_removes, 1);
	dmc_driver_unregister(&bad);

	KUNIT_ASSERT_EQ(test, dmc_driver_register(&drv), 0);
	KUNIT_EXPECT_TRUE(test, dmc_device_is_bound(dev));
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-dev/serial"), 0444);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "devices/agt-dev/serial", buf, sizeof(buf)),
			(ssize_t)15);
	KUNIT_EXPECT_STREQ(test, buf, "agt-dev-serial\n");
	dmc_device_release_driver(dev);
	KUNIT_EXPECT_EQ(test, agt_removes, 2);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-dev/serial"), -ENOENT);
	KUNIT_EXPECT_FALSE(test, dmc_kobj_test_flag(&dev->kobj, DMC_KOBJ_HAS_GROUPS));
	KUNIT_EXPECT_EQ(test, dmc_device_attach(dev), 1);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-dev/serial"), 0444);
	dmc_driver_unregister(&drv);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-dev/serial"), -ENOENT);
	dmc_device_unregister(dev);
	dmc_bus_unregister(&bus);
}

static ssize_t model_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "m1\n");
}
static DMC_DEVICE_ATTR_RO(model);

static ssize_t secret_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "s\n");
}
static DMC_DEVICE_ATTR_ADMIN_RO(secret);

static bool agt_dev_secret;

static umode_t agt_dev_visible(struct dmc_kobject *kobj, struct dmc_attribute *attr, int n)
{
	return attr == &dmc_dev_attr_secret.attr && !READ_ONCE(agt_dev_secret) ? 0 : attr->mode;
}

static struct dmc_attribute *agt_own_attrs[] = {
	&dmc_dev_attr_model.attr, &dmc_dev_attr_secret.attr, NULL,
};

static const struct dmc_attribute_group agt_own_group = {
	.name = "info",
	.is_visible = agt_dev_visible,
	.attrs = agt_own_attrs,
};

static const struct dmc_attribute_group *agt_own_groups[] = { &agt_own_group, NULL };

/*
 * A device's own groups (dev->groups), which the tree derives from the
 * model: is_visible() is asked at each look (README: where dmcore
 * differs), and dmc_sysfs_update_group() has nothing to do for them.
 */
static void attr_group_device_groups_is_visible(struct kunit *test)
{
	struct dmc_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	char buf[16];

	KUNIT_ASSERT_NOT_NULL(test, dev);
	WRITE_ONCE(agt_dev_secret, false);
	dmc_device_initialize(dev);
	dev->release = agt_dev_release;
	dev->groups = agt_own_groups;
	KUNIT_ASSERT_EQ(test, dmc_device_set_name(dev, "agt-own"), 0);
	KUNIT_ASSERT_EQ(test, dmc_device_add(dev), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-own/info/model"), 0444);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "devices/agt-own/info/model", buf, sizeof(buf)),
			(ssize_t)3);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-own/info/secret"), -ENOENT);
	WRITE_ONCE(agt_dev_secret, true);
	KUNIT_EXPECT_EQ(test, dmc_sysfs_update_group(&dev->kobj, &agt_own_group), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "devices/agt-own/info/secret"), 0400);
	/* Its name is the device's: a group of that name cannot be added. */
	KUNIT_EXPECT_EQ(test, dmc_device_add_group(dev, &agt_own_group), -EEXIST);
	dmc_device_unregister(dev);
}

static ssize_t version_show(struct dmc_class *cls, struct dmc_class_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s 1\n", cls->name);
}
static DMC_CLASS_ATTR_RO(version);
static struct dmc_attribute *agt_cls_attrs[] = { &dmc_class_attr_version.attr, NULL };
DMC_ATTRIBUTE_GROUPS(agt_cls);

static void attr_group_class_groups(struct kunit *test)
{
	static struct dmc_class cls = { .name = "agt-class", .class_groups = agt_cls_groups };
	char buf[32];

	KUNIT_ASSERT_EQ(test, dmc_class_register(&cls), 0);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "class/agt-class/version"), 0444);
	KUNIT_EXPECT_EQ(test, agt_cat(test, "class/agt-class/version", buf, sizeof(buf)),
			(ssize_t)12);
	KUNIT_EXPECT_STREQ(test, buf, "agt-class 1\n");
	dmc_class_unregister(&cls);
	KUNIT_EXPECT_EQ(test, agt_mode(test, "class/agt-class/version"), -ENOENT);
}

static struct kunit_case attr_group_test_cases[] = {
	KUNIT_CASE(attr_group_kobject_example_port),
	KUNIT_CASE(attr_group_named_unnamed_is_visible),
	KUNIT_CASE(attr_group_refused_change_nothing),
	KUNIT_CASE(attr_group_bin_attributes),
	KUNIT_CASE(attr_group_remove_waits_for_show),
	KUNIT_CASE(attr_group_remove_waits_for_store),
	KUNIT_CASE(attr_group_remove_with_files_open),
	KUNIT_CASE(attr_group_driver_dev_groups),
	KUNIT_CASE(attr_group_class_groups),
	KUNIT_CASE(attr_group_device_groups_is_visible),
	{}
};

static struct kunit_suite attr_group_test_suite = {
	.name = "dmcore-attr-groups",
	.init = agt_init,
	.exit = agt_exit,
	.test_cases = attr_group_test_cases,
};

kunit_test_suites(&attr_group_test_suite);
