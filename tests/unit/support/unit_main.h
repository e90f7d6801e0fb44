/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The main of a unit test that runs one cmocka group with no group
 * setup or teardown: CXD_UNIT_MAIN(cmocka_unit_test(a), ...). The test
 * includes <cmocka.h> (after its <setjmp.h> and friends) before this.
 */
#ifndef CXD_TEST_UNIT_MAIN_H
#define CXD_TEST_UNIT_MAIN_H

#define CXD_UNIT_MAIN(...)                                          \
	int main(void)                                              \
	{                                                           \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };  \
                                                                    \
		return cmocka_run_group_tests(tests, NULL, NULL);   \
	}

#endif
