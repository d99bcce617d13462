/* The cases of tests/stl/test_stl_use.cpp, run by test_stl. */
#ifndef TESTS_STL_TEST_STL_USE_H
#define TESTS_STL_TEST_STL_USE_H

namespace stl_use {

/* Runs every case on the initialised runtime (workers: for the messages),
 * counting its checks and failures in stl_test::checks and
 * stl_test::failures (stl_test_util.h), each failure reported on stderr. */
void run(int workers);

} // namespace stl_use

#endif /* TESTS_STL_TEST_STL_USE_H */
