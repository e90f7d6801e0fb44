/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of hostile names read for the unit tests (hostile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile.h"

#ifndef CXD_HOSTILE_NAMES
#error "CXD_HOSTILE_NAMES: the table's path (tests/tests.cmake)"
#endif

#define ROWS 64

/* One escape at *p (after its backslash) appended to h; the count of
 * characters it took, 0 when it is not one. */
static size_t unescape(const char *p, struct hostile *h)
{
	unsigned v;
	int k;

	if (strchr("\\tnr", *p) && *p) {
		h->name[h->len++] = *p == 't' ? '\t' : *p == 'n' ? '\n' :
				    *p == 'r' ? '\r' : '\\';
		return 1;
	}
	if (*p == 'x' && sscanf(p + 1, "%2x", &v) == 1) {
		h->name[h->len++] = (char) v;
		return 3;
	}
	if (*p == '*' && h->len && sscanf(p + 1, "%u;%n", &v, &k) == 1 &&
	    v >= 1 && v < sizeof(h->name) - h->len) {
		memset(h->name + h->len, h->name[h->len - 1], v - 1);
		h->len += v - 1;
		return (size_t) k + 1;
	}
	return 0;
}

static int parse(char *line, struct hostile *h)
{
	char *fate = strchr(line, '\t'), *raw = fate ? strchr(fate + 1,
							      '\t') : NULL;

	if (raw == NULL)
		return -1;
	*fate++ = '\0';
	*raw++ = '\0';
	snprintf(h->id, sizeof(h->id), "%.31s", line);
	h->carry = strcmp(fate, "carry") == 0;
	h->len = 0;
	for (char *p = raw; *p && *p != '\n' && h->len + 1 < sizeof(h->name);
	     p++) {
		size_t k = *p == '\\' ? unescape(p + 1, h) : 0;

		if (*p == '\\' && k == 0)
			return -1;
		if (k == 0)
			h->name[h->len++] = *p;
		p += k;
	}
	h->name[h->len] = '\0';
	return 0;
}

const struct hostile *hostile_names(size_t *n)
{
	static struct hostile rows[ROWS];
	static size_t nrows;
	char line[512];
	FILE *f;

	*n = nrows;
	if (nrows)
		return rows;
	f = fopen(CXD_HOSTILE_NAMES, "r");
	if (f == NULL) {
		perror(CXD_HOSTILE_NAMES);
		return NULL;
	}
	while (fgets(line, sizeof(line), f) && nrows < ROWS) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (parse(line, &rows[nrows]) != 0) {
			fprintf(stderr, "%s: a bad line: %s", CXD_HOSTILE_NAMES,
				line);
			fclose(f);
			return NULL;
		}
		nrows++;
	}
	fclose(f);
	*n = nrows;
	return rows;
}

const struct hostile *hostile_row(const char *id)
{
	size_t n;
	const struct hostile *t = hostile_names(&n);

	for (size_t i = 0; t && i < n; i++)
		if (strcmp(t[i].id, id) == 0)
			return &t[i];
	return NULL;
}
