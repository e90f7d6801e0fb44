/* cxi_sweep: the start of every mode, in the order it must happen. */
#include "sweep_mpi.h"

int sw_bootstrap(struct sw *w)
{
	sw_boot_provider(w);
	/* The device (-d auto or a list) and rank 0's memory are agreed on
	 * before any endpoint opens: a bad one ends every rank with exit 2. */
	if (sw_pick_device(w) != 0 || sw_agree_memory(w) != 0)
		return 2;
	sw_boot_fabric(w);
	return 0;
}
