// SPDX-License-Identifier: GPL-2.0
/*
 * Managed resources (devres): a device's list of what its driver acquired,
 * released newest first when the binding ends. The counterpart of the
 * devres half of drivers/base/; include/dmcore/devres.h is the API.
 *
 * Each resource is one allocation: a header (struct dmc_devres: the list
 * entry, the release function, which names it in the tree, and the size) followed
 * by the caller's data, whose address is what the caller sees. The list
 * is the device's private p->devres_head under p->devres_lock, a spinlock,
 * so resources may be added and looked up from any context that may
 * allocate with the given flags; release functions run with no lock held.
 *
 * Who releases: dd.c when a probe fails (before the device's driver is
 * cleared) and after a driver's remove; device.c at the device's last put,
 * for resources added outside a binding. A probe finding resources
 * already on the list is refused with -EBUSY, as Linux's really_probe()
 * refuses one: they would be released with a binding they do not belong
 * to. The tree shows the list in each device's "devres" file.
 * Groups of resources are in devres_group.c; their markers are resources
 * of this list whose release does nothing but free what they own.
 */

#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <dmcore/devres.h>

#include "base.h"

/* May @dev hold resources? Added at least once (it has its private part). */
bool dmc_devres_dev_ok(struct dmc_device *dev, const char *what)
{
	if (!dev) {
		pr_err_ratelimited("dmcore: %s: no device\n", what);
		return false;
	}
	if (DMC_MISUSE(!dev->p, "%s on device '%s', which was never added\n",
		       what, dev->kobj.name ?: "(unnamed)"))
		return false;
	return true;
}

/* A resource's block; its data zeroed only if @gfp says so. */
void *dmc_devres_alloc_raw(dmc_dr_release_t release, size_t size, gfp_t gfp)
{
	struct dmc_devres *dr;

	if (!release || size > SIZE_MAX - sizeof(*dr))
		return NULL;
	dr = kmalloc(sizeof(*dr) + size, gfp);
	if (!dr)
		return NULL;
	INIT_LIST_HEAD(&dr->entry);
	dr->release = release;
	dr->size = size;
	return dr->data;
}

/**
 * __dmc_devres_alloc() - allocate a resource (use dmc_devres_alloc())
 * @release: its release function, which also names it in the tree
 * @size: bytes of data
 * @gfp: allocation flags; the data is zeroed
 * @name: the release function's name, as Linux's; unused (the tree prints
 *	@release's symbol, which stays printable if its module goes)
 *
 * The resource is on no device until dmc_devres_add(); free it with
 * dmc_devres_free() until then.
 *
 * Context: as @gfp allows.
 * Return: the data, or NULL (no memory, no @release, or @size too big).
 */
void *__dmc_devres_alloc(dmc_dr_release_t release, size_t size, gfp_t gfp,
			 const char *name)
{
	return dmc_devres_alloc_raw(release, size, gfp | __GFP_ZERO);
}
EXPORT_SYMBOL_GPL(__dmc_devres_alloc);

/**
 * dmc_devres_free() - free a resource that is on no device
 * @res: its data, or NULL
 *
 * Context: any.
 */
void dmc_devres_free(void *res)
{
	struct dmc_devres *dr;

	if (!res)
		return;
	dr = to_devres(res);
	if (DMC_MISUSE(!list_empty(&dr->entry),
		       "devres_free of a %ps resource that is on a device\n", dr->release))
		return;	/* leaked rather than freed under the device's list */
	kfree(dr);
}
EXPORT_SYMBOL_GPL(dmc_devres_free);

/**
 * dmc_devres_add() - give a resource to a device
 * @dev: the device, added at least once
 * @res: its data, from dmc_devres_alloc(), on no device
 *
 * The device owns it from now on: it is released with the device's other
 * resources, newest first. On a device never added (no list to keep it),
 * a misuse is counted and the resource is freed without its release; a
 * resource already on a device, or none, is a misuse and left alone.
 *
 * Context: any; takes @dev's devres lock.
 */
void dmc_devres_add(struct dmc_device *dev, void *res)
{
	struct dmc_devres *dr;
	unsigned long flags;

	if (DMC_MISUSE(!res, "devres_add of no resource\n"))
		return;
	dr = to_devres(res);
	/* First: a resource on a device must not be freed below. */
	if (DMC_MISUSE(!list_empty(&dr->entry),
		       "devres_add of a %ps resource already on a device\n", dr->release))
		return;
	if (!dmc_devres_dev_ok(dev, "devres_add")) {
		kfree(dr);
		return;
	}
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	list_add_tail(&dr->entry, &dev->p->devres_head);
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
}
EXPORT_SYMBOL_GPL(dmc_devres_add);

/* The newest resource of @dev with @release accepted by @match. Locked. */
struct dmc_devres *dmc_devres_find_locked(struct dmc_device *dev,
					  dmc_dr_release_t release,
					  dmc_dr_match_t match, void *match_data)
{
	struct dmc_devres *dr;

	lockdep_assert_held(&dev->p->devres_lock);
	list_for_each_entry_reverse(dr, &dev->p->devres_head, entry) {
		if (dr->release != release)
			continue;
		if (match && !match(dev, dr->data, match_data))
			continue;
		return dr;
	}
	return NULL;
}

/**
 * dmc_devres_find() - find a resource of a device
 * @dev: the device
 * @release: the resource's release function
 * @match: called for each candidate, newest first, under the devres lock
 *	(must not sleep); NULL: the newest with @release
 * @match_data: for @match
 *
 * Context: any; @match runs under a spinlock.
 * Return: its data, or NULL. It stays the device's: valid until released.
 */
void *dmc_devres_find(struct dmc_device *dev, dmc_dr_release_t release,
		      dmc_dr_match_t match, void *match_data)
{
	struct dmc_devres *dr;
	unsigned long flags;

	if (!dmc_devres_dev_ok(dev, "devres_find"))
		return NULL;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	dr = dmc_devres_find_locked(dev, release, match, match_data);
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	return dr ? dr->data : NULL;
}
EXPORT_SYMBOL_GPL(dmc_devres_find);

/**
 * dmc_devres_get() - find a resource, or add a new one
 * @dev: the device
 * @new_res: a resource on no device, with the release function looked for
 * @match: as for dmc_devres_find()
 * @match_data: for @match
 *
 * If @dev has a matching resource, @new_res is freed and that one is
 * returned; else @new_res is added and returned. Atomic against other
 * callers for the same device.
 *
 * Context: any; takes @dev's devres lock.
 * Return: the resource the device holds, or NULL when @dev was never added
 * (@new_res is freed then) or @new_res is none or on a device already (a
 * misuse: left alone).
 */
void *dmc_devres_get(struct dmc_device *dev, void *new_res,
		     dmc_dr_match_t match, void *match_data)
{
	struct dmc_devres *new_dr, *dr;
	unsigned long flags;

	if (DMC_MISUSE(!new_res, "devres_get with no resource\n"))
		return NULL;
	new_dr = to_devres(new_res);
	if (DMC_MISUSE(!list_empty(&new_dr->entry),
		       "devres_get of a %ps resource already on a device\n",
		       new_dr->release))
		return NULL;
	if (!dmc_devres_dev_ok(dev, "devres_get")) {
		kfree(new_dr);
		return NULL;
	}
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	dr = dmc_devres_find_locked(dev, new_dr->release, match, match_data);
	if (!dr) {
		list_add_tail(&new_dr->entry, &dev->p->devres_head);
		dr = new_dr;
		new_dr = NULL;
	}
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	kfree(new_dr);
	return dr->data;
}
EXPORT_SYMBOL_GPL(dmc_devres_get);

/**
 * dmc_devres_remove() - take a resource back from a device, unreleased
 * @dev: the device
 * @release: as for dmc_devres_find()
 * @match: as for dmc_devres_find()
 * @match_data: for @match
 *
 * Context: any; takes @dev's devres lock.
 * Return: its data, now the caller's (dmc_devres_free() it), or NULL.
 */
void *dmc_devres_remove(struct dmc_device *dev, dmc_dr_release_t release,
			dmc_dr_match_t match, void *match_data)
{
	struct dmc_devres *dr;
	unsigned long flags;

	if (!dmc_devres_dev_ok(dev, "devres_remove"))
		return NULL;
	spin_lock_irqsave(&dev->p->devres_lock, flags);
	dr = dmc_devres_find_locked(dev, release, match, match_data);
	if (dr)
		list_del_init(&dr->entry);
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	return dr ? dr->data : NULL;
}
EXPORT_SYMBOL_GPL(dmc_devres_remove);

/**
 * dmc_devres_destroy() - remove a resource and free it, unreleased
 * @dev: the device
 * @release: as for dmc_devres_find()
 * @match: as for dmc_devres_find()
 * @match_data: for @match
 *
 * Context: any; takes @dev's devres lock.
 * Return: 0, or -ENOENT when no resource matched.
 */
int dmc_devres_destroy(struct dmc_device *dev, dmc_dr_release_t release,
		       dmc_dr_match_t match, void *match_data)
{
	void *res = dmc_devres_remove(dev, release, match, match_data);

	if (!res)
		return -ENOENT;
	dmc_devres_free(res);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_devres_destroy);

/**
 * dmc_devres_release() - remove a resource, release it and free it
 * @dev: the device
 * @release: as for dmc_devres_find(); called with no lock held
 * @match: as for dmc_devres_find()
 * @match_data: for @match
 *
 * Context: as @release allows; takes @dev's devres lock around the search.
 * Return: 0, or -ENOENT when no resource matched.
 */
int dmc_devres_release(struct dmc_device *dev, dmc_dr_release_t release,
		       dmc_dr_match_t match, void *match_data)
{
	void *res = dmc_devres_remove(dev, release, match, match_data);

	if (!res)
		return -ENOENT;
	release(dev, res);
	dmc_devres_free(res);
	return 0;
}
EXPORT_SYMBOL_GPL(dmc_devres_release);

/* ---- group markers (devres_group.c has the rest) ------------------------------ */

/* The markers' releases: nothing to release; they identify the markers. */
void dmc_devres_group_open_release(struct dmc_device *dev, void *res)
{
	struct dmc_devres_group *grp = res;

	/*
	 * Never closed: the closing marker was never on a list, and is ours.
	 * (Closed, it was on the list after this one, so released already.)
	 */
	if (!grp->closed)
		kfree(grp->close);
}

void dmc_devres_group_close_release(struct dmc_device *dev, void *res)
{
}

/* Is @dr a group's marker rather than a resource? */
static bool dmc_devres_is_marker(struct dmc_devres *dr)
{
	return dr->release == dmc_devres_group_open_release ||
	       dr->release == dmc_devres_group_close_release;
}

/*
 * Release @todo's entries newest first and free them, with no lock held.
 * Return: how many were resources (not group markers).
 */
int dmc_devres_release_list(struct dmc_device *dev, struct list_head *todo)
{
	struct dmc_devres *dr, *tmp;
	int n = 0;

	list_for_each_entry_safe_reverse(dr, tmp, todo, entry) {
		list_del_init(&dr->entry);
		if (!dmc_devres_is_marker(dr))
			n++;
		dr->release(dev, dr->data);
		kfree(dr);
	}
	return n;
}

/*
 * Release every resource of @dev, newest first, until none is left: the
 * list is taken whole under the lock and released with no lock held; what
 * was added meanwhile (another thread of the driver, or a release function
 * itself) is released in the next round, so the list is empty on return
 * unless someone keeps adding. The core's calls: a failed probe and an
 * unbind (device lock held), the deletion and the last put.
 */
int __dmc_devres_release_all(struct dmc_device *dev)
{
	unsigned long flags;
	LIST_HEAD(todo);
	int n = 0;

	for (;;) {
		spin_lock_irqsave(&dev->p->devres_lock, flags);
		list_splice_init(&dev->p->devres_head, &todo);
		spin_unlock_irqrestore(&dev->p->devres_lock, flags);
		if (list_empty(&todo))
			return n;
		n += dmc_devres_release_list(dev, &todo);
	}
}

/**
 * dmc_devres_release_all() - release every resource of a device
 * @dev: the device
 *
 * Newest first, with no lock held but the device lock; resources added
 * while this runs are released too. The core calls it itself when a probe
 * fails, after a driver's remove, when the device is deleted and at its
 * last put; a bus may call it from its own probe or remove.
 *
 * Context: process context if a release function may sleep; caller holds
 * the device lock (so that no unbind of the core runs the list at once
 * and lets the driver's module go while its release functions run here).
 * Return: the number released, or -ENODEV when @dev was never added.
 */
int dmc_devres_release_all(struct dmc_device *dev)
{
	if (!dev || !dev->p)
		return -ENODEV;
	lockdep_assert_held(&dev->mutex);
	return __dmc_devres_release_all(dev);
}
EXPORT_SYMBOL_GPL(dmc_devres_release_all);

/* Has @dev any resource? For the probe's check. Any context. */
bool dmc_devres_any(struct dmc_device *dev)
{
	return !list_empty_careful(&dev->p->devres_head);
}

static void dmc_devm_kmalloc_release(struct dmc_device *dev, void *res);
static void dmc_devm_action_release(struct dmc_device *dev, void *res);

/* What names @dr in the tree: its release function, or an action's. */
static const void *dmc_devres_sym(struct dmc_devres *dr)
{
	if (dr->release == dmc_devm_action_release)
		return *(void **)dr->data;	/* struct dmc_devm_action's first */
	return dr->release;
}

/**
 * dmc_devres_show() - the device's resources, for its "devres" file
 * @dev: the device
 * @buf: a page
 *
 * One line per resource, oldest first: its size in bytes, then its name:
 * "devm_kmalloc" for managed memory, "group <" and "group >" for the
 * markers of a group's start and end, the function of an action, the
 * release function of any other (as %ps prints them: a symbol, with its
 * module if it is one's, or an address once that module is gone).
 *
 * Return: the length written.
 */
ssize_t dmc_devres_show(struct dmc_device *dev, char *buf)
{
	struct dmc_devres *dr;
	unsigned long flags;
	size_t len = 0;

	spin_lock_irqsave(&dev->p->devres_lock, flags);
	list_for_each_entry(dr, &dev->p->devres_head, entry) {
		if (len + KSYM_SYMBOL_LEN + 32 >= PAGE_SIZE) {
			len += scnprintf(buf + len, PAGE_SIZE - len, "...\n");
			break;
		}
		if (dr->release == dmc_devm_kmalloc_release)
			len += scnprintf(buf + len, PAGE_SIZE - len, "%zu devm_kmalloc\n",
					 dr->size);
		else if (dr->release == dmc_devres_group_open_release)
			len += scnprintf(buf + len, PAGE_SIZE - len, "0 group <\n");
		else if (dr->release == dmc_devres_group_close_release)
			len += scnprintf(buf + len, PAGE_SIZE - len, "0 group >\n");
		else
			len += scnprintf(buf + len, PAGE_SIZE - len, "%zu %ps\n",
					 dr->size, dmc_devres_sym(dr));
	}
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);
	return len;
}

/* ---- managed memory ---------------------------------------------------------- */

static void dmc_devm_kmalloc_release(struct dmc_device *dev, void *res)
{
	/* The memory is the resource: freed with it. */
}

static int dmc_devm_kmalloc_match(struct dmc_device *dev, void *res, void *data)
{
	return res == data;
}

/**
 * dmc_devm_kmalloc() - memory freed when @dev's resources are released
 * @dev: the device, added at least once
 * @size: bytes
 * @gfp: allocation flags (__GFP_ZERO: dmc_devm_kzalloc())
 *
 * Context: as @gfp allows.
 * Return: the memory; ZERO_SIZE_PTR for @size 0, as kmalloc(); NULL for
 * no memory or a device never added.
 */
void *dmc_devm_kmalloc(struct dmc_device *dev, size_t size, gfp_t gfp)
{
	void *p;

	if (!dmc_devres_dev_ok(dev, "devm_kmalloc"))
		return NULL;
	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	p = dmc_devres_alloc_raw(dmc_devm_kmalloc_release, size, gfp);
	if (p)
		dmc_devres_add(dev, p);
	return p;
}
EXPORT_SYMBOL_GPL(dmc_devm_kmalloc);

/**
 * dmc_devm_kfree() - free managed memory before its release
 * @dev: the device it was allocated for
 * @p: the memory, or NULL or ZERO_SIZE_PTR (nothing to do)
 *
 * Memory that is not @dev's managed memory is a misuse: counted, left
 * alone.
 *
 * Context: any.
 */
void dmc_devm_kfree(struct dmc_device *dev, const void *p)
{
	if (ZERO_OR_NULL_PTR(p))
		return;
	DMC_MISUSE(dmc_devres_destroy(dev, dmc_devm_kmalloc_release,
				      dmc_devm_kmalloc_match, (void *)p),
		   "devm_kfree of memory that is not managed for '%s'\n",
		   dev ? dev->kobj.name : "(no device)");
}
EXPORT_SYMBOL_GPL(dmc_devm_kfree);

/**
 * dmc_devm_krealloc() - resize managed memory
 * @dev: the device the memory is managed for
 * @ptr: the memory, or NULL or ZERO_SIZE_PTR (then as dmc_devm_kmalloc())
 * @new_size: bytes wanted; 0 frees @ptr (as dmc_devm_kfree())
 * @gfp: allocation flags; with __GFP_ZERO the bytes past the old size are
 *	zeroed
 *
 * The memory keeps its place among the device's resources (it is released
 * when it would have been). Memory that does not shrink below what was
 * asked for stays where it is; larger memory is a new block, the old
 * contents copied and the old block freed. Memory that is not @dev's
 * managed memory is a misuse: counted, nothing changes, NULL returned.
 *
 * Context: as @gfp allows.
 * Return: the memory (@ptr or a new address); ZERO_SIZE_PTR for
 * @new_size 0; NULL on failure, @ptr then unchanged and still managed.
 */
void *dmc_devm_krealloc(struct dmc_device *dev, void *ptr, size_t new_size,
			gfp_t gfp)
{
	struct dmc_devres *old_dr, *new_dr;
	unsigned long flags;
	void *p;

	if (unlikely(!new_size)) {
		dmc_devm_kfree(dev, ptr);
		return ZERO_SIZE_PTR;
	}
	if (unlikely(ZERO_OR_NULL_PTR(ptr)))
		return dmc_devm_kmalloc(dev, new_size, gfp);
	if (!dmc_devres_dev_ok(dev, "devm_krealloc"))
		return NULL;
	p = dmc_devres_alloc_raw(dmc_devm_kmalloc_release, new_size, gfp);
	if (!p)
		return NULL;
	new_dr = to_devres(p);

	spin_lock_irqsave(&dev->p->devres_lock, flags);
	old_dr = dmc_devres_find_locked(dev, dmc_devm_kmalloc_release,
					dmc_devm_kmalloc_match, ptr);
	if (old_dr && new_size <= old_dr->size)
		new_dr = NULL;		/* it fits: keep it */
	else if (old_dr)
		list_replace_init(&old_dr->entry, &new_dr->entry);
	spin_unlock_irqrestore(&dev->p->devres_lock, flags);

	if (!old_dr) {
		kfree(new_dr);
		DMC_MISUSE(true, "devm_krealloc of memory that is not managed for '%s'\n",
			   dev->kobj.name ?: "(unnamed)");
		return NULL;
	}
	if (!new_dr) {
		kfree(to_devres(p));
		return ptr;
	}
	/* Off every list now: only the caller may still use the old block. */
	memcpy(new_dr->data, old_dr->data, old_dr->size);
	kfree(old_dr);
	return new_dr->data;
}
EXPORT_SYMBOL_GPL(dmc_devm_krealloc);

/**
 * dmc_devm_kstrdup() - a managed copy of a string
 * @dev: the device
 * @s: the string, or NULL
 * @gfp: allocation flags
 *
 * Return: the copy, or NULL (no memory, @s NULL).
 */
char *dmc_devm_kstrdup(struct dmc_device *dev, const char *s, gfp_t gfp)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	p = dmc_devm_kmalloc(dev, len, gfp);
	if (p)
		memcpy(p, s, len);
	return p;
}
EXPORT_SYMBOL_GPL(dmc_devm_kstrdup);

/**
 * dmc_devm_kvasprintf() - a managed formatted string
 * @dev: the device
 * @gfp: allocation flags
 * @fmt: printf-style format
 * @ap: its arguments
 *
 * Return: the string, or NULL.
 */
char *dmc_devm_kvasprintf(struct dmc_device *dev, gfp_t gfp, const char *fmt,
			  va_list ap)
{
	va_list aq;
	int len;
	char *p;

	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0)
		return NULL;
	p = dmc_devm_kmalloc(dev, len + 1, gfp);
	if (p)
		vsnprintf(p, len + 1, fmt, ap);
	return p;
}
EXPORT_SYMBOL_GPL(dmc_devm_kvasprintf);

/**
 * dmc_devm_kasprintf() - a managed formatted string
 * @dev: the device
 * @gfp: allocation flags
 * @fmt: printf-style format, then its arguments
 *
 * Return: the string, or NULL.
 */
char *dmc_devm_kasprintf(struct dmc_device *dev, gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = dmc_devm_kvasprintf(dev, gfp, fmt, ap);
	va_end(ap);
	return p;
}
EXPORT_SYMBOL_GPL(dmc_devm_kasprintf);

/* ---- managed actions ----------------------------------------------------------- */

struct dmc_devm_action {
	void (*action)(void *data);	/* first: dmc_devres_sym() reads it */
	void *data;
};

static void dmc_devm_action_release(struct dmc_device *dev, void *res)
{
	struct dmc_devm_action *a = res;

	a->action(a->data);
}

static int dmc_devm_action_match(struct dmc_device *dev, void *res, void *p)
{
	struct dmc_devm_action *a = res, *want = p;

	return a->action == want->action && a->data == want->data;
}

/**
 * __dmc_devm_add_action() - run a function when @dev's resources are released
 * @dev: the device, added at least once
 * @action: the function
 * @data: its argument
 * @name: @action's name (dmc_devm_add_action() passes it, as Linux's);
 *	unused: the tree prints @action's symbol
 *
 * On failure @action is not run: dmc_devm_add_action_or_reset() runs it.
 *
 * Context: may sleep (GFP_KERNEL).
 * Return: 0, -ENOMEM, or -EINVAL (no @action, a device never added).
 */
int __dmc_devm_add_action(struct dmc_device *dev, void (*action)(void *),
			  void *data, const char *name)
{
	struct dmc_devm_action *a;

	if (!action || !dmc_devres_dev_ok(dev, "devm_add_action"))
		return -EINVAL;
	a = dmc_devres_alloc_raw(dmc_devm_action_release, sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->action = action;
	a->data = data;
	dmc_devres_add(dev, a);
	return 0;
}
EXPORT_SYMBOL_GPL(__dmc_devm_add_action);

/**
 * dmc_devm_remove_action() - forget an action without running it
 * @dev: the device
 * @action: the function given to dmc_devm_add_action()
 * @data: and its argument
 *
 * Removing an action that is not there is a misuse: counted.
 *
 * Context: any.
 */
void dmc_devm_remove_action(struct dmc_device *dev, void (*action)(void *),
			    void *data)
{
	struct dmc_devm_action want = { .action = action, .data = data };

	DMC_MISUSE(dmc_devres_destroy(dev, dmc_devm_action_release,
				      dmc_devm_action_match, &want),
		   "devm_remove_action of an action '%s' does not have\n",
		   dev ? dev->kobj.name : "(no device)");
}
EXPORT_SYMBOL_GPL(dmc_devm_remove_action);

/**
 * dmc_devm_release_action() - run an action now and forget it
 * @dev: the device
 * @action: the function given to dmc_devm_add_action()
 * @data: and its argument
 *
 * Context: as @action allows.
 */
void dmc_devm_release_action(struct dmc_device *dev, void (*action)(void *),
			     void *data)
{
	struct dmc_devm_action want = { .action = action, .data = data };

	DMC_MISUSE(dmc_devres_release(dev, dmc_devm_action_release,
				      dmc_devm_action_match, &want),
		   "devm_release_action of an action '%s' does not have\n",
		   dev ? dev->kobj.name : "(no device)");
}
EXPORT_SYMBOL_GPL(dmc_devm_release_action);
