/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's managed resources (devres): what a driver acquires for a device
 * while binding it, released by the core when the binding ends. The
 * counterpart of include/linux/device/devres.h's core (drivers/base/
 * devres.c) with Linux's names after the dmc_ prefix.
 *
 * A resource is a block from dmc_devres_alloc() with a release function,
 * added to a device's list. The core releases the list, newest first, when
 * a probe fails, after a driver's remove, and at the device's last put
 * (for what was added outside a binding). The list is in the tree: the
 * device's "devres" file names each resource, oldest first.
 *
 * Groups (dmc_devres_open_group() and friends) mark a stretch of the list
 * to release or forget together, as a driver's sub-component would.
 *
 * Not in dmcore (yet): page and per-CPU allocations, devm_kmemdup(),
 * devm_kstrdup_const().
 */
#ifndef _DMCORE_DEVRES_H
#define _DMCORE_DEVRES_H

#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct dmc_device;

typedef void (*dmc_dr_release_t)(struct dmc_device *dev, void *res);
typedef int (*dmc_dr_match_t)(struct dmc_device *dev, void *res, void *match_data);

void *__dmc_devres_alloc(dmc_dr_release_t release, size_t size, gfp_t gfp,
			 const char *name) __malloc;
/* A resource named after its release function, as Linux's devres_alloc(). */
#define dmc_devres_alloc(release, size, gfp)				\
	__dmc_devres_alloc(release, size, gfp, #release)
void dmc_devres_free(void *res);
void dmc_devres_add(struct dmc_device *dev, void *res);
void *dmc_devres_find(struct dmc_device *dev, dmc_dr_release_t release,
		      dmc_dr_match_t match, void *match_data);
void *dmc_devres_get(struct dmc_device *dev, void *new_res,
		     dmc_dr_match_t match, void *match_data);
void *dmc_devres_remove(struct dmc_device *dev, dmc_dr_release_t release,
			dmc_dr_match_t match, void *match_data);
int dmc_devres_destroy(struct dmc_device *dev, dmc_dr_release_t release,
		       dmc_dr_match_t match, void *match_data);
int dmc_devres_release(struct dmc_device *dev, dmc_dr_release_t release,
		       dmc_dr_match_t match, void *match_data);
int dmc_devres_release_all(struct dmc_device *dev);

/* Groups: a stretch of a device's resources, released or forgotten together */
void *dmc_devres_open_group(struct dmc_device *dev, void *id, gfp_t gfp);
void dmc_devres_close_group(struct dmc_device *dev, void *id);
void dmc_devres_remove_group(struct dmc_device *dev, void *id);
int dmc_devres_release_group(struct dmc_device *dev, void *id);

void *dmc_devm_kmalloc(struct dmc_device *dev, size_t size, gfp_t gfp) __malloc;
static inline void *dmc_devm_kzalloc(struct dmc_device *dev, size_t size, gfp_t gfp)
{
	return dmc_devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}

void dmc_devm_kfree(struct dmc_device *dev, const void *p);
void *dmc_devm_krealloc(struct dmc_device *dev, void *ptr, size_t new_size,
			gfp_t gfp);
char *dmc_devm_kstrdup(struct dmc_device *dev, const char *s, gfp_t gfp) __malloc;
__printf(3, 0)
char *dmc_devm_kvasprintf(struct dmc_device *dev, gfp_t gfp, const char *fmt,
			  va_list ap) __malloc;
__printf(3, 4)
char *dmc_devm_kasprintf(struct dmc_device *dev, gfp_t gfp, const char *fmt,
			 ...) __malloc;

int __dmc_devm_add_action(struct dmc_device *dev, void (*action)(void *),
			  void *data, const char *name);
/* @action(@data) when the resources are released; named after @action. */
#define dmc_devm_add_action(dev, action, data)				\
	__dmc_devm_add_action(dev, action, data, #action)

static inline int __dmc_devm_add_action_or_reset(struct dmc_device *dev,
						 void (*action)(void *),
						 void *data, const char *name)
{
	int ret = __dmc_devm_add_action(dev, action, data, name);

	if (ret && action)
		action(data);
	return ret;
}

/* As dmc_devm_add_action(), but runs @action(@data) at once if it fails. */
#define dmc_devm_add_action_or_reset(dev, action, data)			\
	__dmc_devm_add_action_or_reset(dev, action, data, #action)
void dmc_devm_remove_action(struct dmc_device *dev, void (*action)(void *),
			    void *data);
void dmc_devm_release_action(struct dmc_device *dev, void (*action)(void *),
			     void *data);

#endif /* _DMCORE_DEVRES_H */
