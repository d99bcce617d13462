/* The cases of tests/stl/test_stl_use.cpp, run by test_stl. */
#ifndef TESTS_STL_TEST_STL_USE_H
#define TESTS_STL_TEST_STL_USE_H

namespace stl_use {

/* Runs every case on the initialised runtime (workers: for the messages);
 * sets *nchecks to the checks made; returns the number that failed, each
 * reported on stderr. */
int run(int workers, int *nchecks);

} // namespace stl_use

#endif /* TESTS_STL_TEST_STL_USE_H */
