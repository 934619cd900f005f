// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering DAMON access layer: resolve unexported symbols at load time.
 *
 * mm/damon exports nothing, so a module cannot link against damon_start()
 * and friends.  For each function we need, a kprobe is registered disabled
 * (it is never armed: registration only looks the symbol up and checks that
 * it is kernel text) and unregistered at once; its address is then installed
 * as the target of a static call.
 *
 * Why static calls and not function pointers: with CONFIG_X86_KERNEL_IBT
 * (Debian's default) the kernel seals every function whose address is never
 * taken in the kernel image by overwriting its ENDBR instruction at boot.  An
 * indirect call into such a function raises #CP and oopses on IBT hardware.
 * static_call_update() patches each call site into a direct CALL, which IBT
 * does not check.  Only this file touches symbol addresses; the rest of the
 * module uses mmt_call(fn)(...).  See Documentation/damon-symbols.rst.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/static_call.h>

#include "mmt_damon.h"

#define MMT_FN(fn) DEFINE_STATIC_CALL_NULL(mmt_##fn, fn)
#include "mmt_damon_funcs.h"
#undef MMT_FN

/* Optional: read to warn about NUMA balancing; absent means "unknown". */
static int *mmt_numa_balancing_ptr;
DEFINE_STATIC_CALL_NULL(mmt_kallsyms_lookup_name, kallsyms_lookup_name);

static void *mmt_lookup(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	void *addr;

	if (register_kprobe(&kp))
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/*
 * Test hook: one more symbol that must resolve, so that the refusal path can
 * be exercised on a kernel that has every DAMON symbol.  Load time only.
 */
static char *require_symbol;
module_param(require_symbol, charp, 0400);
MODULE_PARM_DESC(require_symbol,
	"Testing: refuse to load unless this symbol also resolves");

/*
 * Look @name up; with @update, point the static call (@key, @tramp) at it.
 * Return: 0, or 1 (after naming it in the log) when it does not resolve.
 */
static int mmt_resolve_one(const char *name, struct static_call_key *key,
			   void *tramp, bool update)
{
	void *addr = mmt_lookup(name);

	if (!addr) {
		pr_err("cannot resolve DAMON symbol %s\n", name);
		return 1;
	}
	if (update)
		__static_call_update(key, tramp, addr);
	return 0;
}

/* Every function of mmt_damon_funcs.h; Return: how many did not resolve. */
static int mmt_resolve_all(bool update)
{
	int missing = 0;

#define MMT_FN(fn) (missing += mmt_resolve_one(#fn, &STATIC_CALL_KEY(mmt_##fn), \
					       STATIC_CALL_TRAMP_ADDR(mmt_##fn), \
					       update))
#include "mmt_damon_funcs.h"
#undef MMT_FN
	return missing;
}

/**
 * mmt_damon_resolve() - point every static call at its DAMON function.
 *
 * Return: 0, or -ENOENT after naming each missing symbol in the log; then
 * no static call was updated and the module must not load.
 */
int mmt_damon_resolve(void)
{
	int missing;
	void *addr;

	missing = mmt_resolve_all(false);
	if (require_symbol && !mmt_lookup(require_symbol)) {
		pr_err("cannot resolve required symbol %s\n", require_symbol);
		missing++;
	}
	if (missing) {
		pr_err("%d symbol(s) missing: this kernel lacks CONFIG_DAMON_PADDR or has an incompatible DAMON; not loading\n",
		       missing);
		return -ENOENT;
	}
	/* all resolved a moment ago: kernel text does not go away */
	mmt_resolve_all(true);

	addr = mmt_lookup("kallsyms_lookup_name");
	if (addr) {
		static_call_update(mmt_kallsyms_lookup_name,
				   (typeof(&kallsyms_lookup_name))addr);
		mmt_numa_balancing_ptr = (int *)static_call(
			mmt_kallsyms_lookup_name)("sysctl_numa_balancing_mode");
	}
	return 0;
}

/* NUMA balancing mode (the numa_balancing sysctl), or -1 if unknown. */
int mmt_numa_balancing_mode(void)
{
	return mmt_numa_balancing_ptr ? READ_ONCE(*mmt_numa_balancing_ptr) : -1;
}
