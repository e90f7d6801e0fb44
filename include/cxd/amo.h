/* Atomic operation and type names, sizes and the originals' validity table. */
#ifndef CXD_AMO_H
#define CXD_AMO_H

#include <stdbool.h>
#include <stddef.h>

const char *cxd_amo_op_name(unsigned op);
const char *cxd_cswap_op_name(unsigned cop);
const char *cxd_amo_type_name(unsigned type);
/* Case-insensitive lookup; -1 when unknown. */
int cxd_amo_op_parse(const char *s);
int cxd_cswap_op_parse(const char *s);
int cxd_amo_type_parse(const char *s);
size_t cxd_amo_type_size(unsigned type);
/* The originals' table of valid operation, comparison and type triples. */
bool cxd_amo_valid(unsigned op, unsigned cop, unsigned type);

#endif
