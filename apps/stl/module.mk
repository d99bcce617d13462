# apps/stl: the C++17 front end <adapt/stl.hpp> (header-only, above the
# algorithms layer: it sees the public headers only) and its test.
#
#   make VARIANT=release build/release/apps/stl/test_stl   (also tsan, asan)
#
# The test runs in `make test` (EXTRA_TESTS) in every variant; the headers
# are installed with the library (packaging/module.mk, STL_HEADERS).

STL_DIR  := apps/stl
STL_B    := $(B)/apps/stl
STL_TEST := $(STL_B)/test_stl
STL_HEADERS     := $(STL_DIR)/include/adapt/stl.hpp
STL_DETAIL_HDRS := $(wildcard $(STL_DIR)/include/adapt/stl/*.hpp)

$(B)/obj/$(STL_DIR)/%.o: CPPFLAGS_ALL += -I$(STL_DIR)/include

$(STL_TEST): $(B)/obj/$(STL_DIR)/test_stl.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $< $(LIB_A) $(LIBS_CORE)

EXTRA_TESTS += $(STL_TEST)

.PHONY: stl
stl: $(STL_TEST)
