# libadapt: top-level build.
#
#   make            build the library (release variant)
#   make test       install missing Debian packages, then run the cmocka suite
#                   normally, under ThreadSanitizer and under ASan+UBSan
#   make bench      benchmarks (bench/), release build
#   make demo       the isosurface demo (apps/isosurface)
#   make install PREFIX=/usr/local
#
# Variants build into build/<variant>/ so objects never mix:
#   release (default), tsan, asan.   e.g. make VARIANT=tsan tests
# CC, CXX, CFLAGS, CXXFLAGS, LDFLAGS, PREFIX may be overridden.

VARIANT ?= release
PREFIX  ?= /usr/local
CC      ?= cc
CXX     ?= c++
CFLAGS  ?= -O2 -g
CXXFLAGS ?= -O2 -g
LDFLAGS ?=

B := build/$(VARIANT)

ifeq ($(VARIANT),release)
  SAN_FLAGS :=
else ifeq ($(VARIANT),tsan)
  SAN_FLAGS := -fsanitize=thread -O1 -DADAPT_DEBUG=1
else ifeq ($(VARIANT),asan)
  SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -DADAPT_DEBUG=1
else
  $(error VARIANT must be release, tsan or asan)
endif

WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CPPFLAGS_ALL := -Ilibadapt/include -Ilibadapt/src -Ialgorithms -D_GNU_SOURCE $(CPPFLAGS)
ALL_CFLAGS   := -std=c11 $(WARN) -fPIC -pthread -MMD -MP $(CFLAGS) $(SAN_FLAGS)
ALL_CXXFLAGS := -std=c++17 -Wall -Wextra -Wno-unused-parameter -fPIC -pthread -MMD -MP $(CXXFLAGS) $(SAN_FLAGS)
LIBS_CORE    := -lhwloc -lpthread -lm
ALL_LDFLAGS  := -pthread $(LDFLAGS) $(SAN_FLAGS)

LIB_SRCS := $(wildcard libadapt/src/*.c) $(wildcard algorithms/*.c)
LIB_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS))
LIB_A    := $(B)/libadapt.a
LIB_SO   := $(B)/libadapt.so

TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRCS))
TEST_SUPPORT := $(filter-out tests/test_%.c,$(wildcard tests/*.c))
TEST_SUPPORT_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(TEST_SUPPORT))

# Modules append to these: INSTALL_BINS (installed to PREFIX/bin), EXTRA_TESTS
# (more test binaries of this variant, run by test-run after TEST_BINS).
INSTALL_BINS :=
EXTRA_TESTS :=
DEMO_DEPS :=
BENCH_RUNS :=

.PHONY: all lib tests test test-run test-variants bench demo install clean deps deps-core help
.DEFAULT_GOAL := all

all: lib
lib: $(LIB_A) $(LIB_SO)

help:
	@sed -n '2,16p' Makefile

deps:
	@bash scripts/deps.sh all
deps-core:
	@bash scripts/deps.sh core

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(ALL_CFLAGS) -c $< -o $@

$(B)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) $(ALL_CXXFLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libadapt.so.0 $(ALL_LDFLAGS) -o $@ $^ $(LIBS_CORE)

$(B)/tests/%: tests/%.c $(TEST_SUPPORT_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Itests $(ALL_CFLAGS) -o $@ $< $(TEST_SUPPORT_OBJS) $(LIB_A) $(ALL_LDFLAGS) -lcmocka $(LIBS_CORE)

tests: $(TEST_BINS)

-include bench/module.mk
-include apps/isosurface/module.mk
-include apps/stl/module.mk

# Runs every test binary of this variant; stops at the first failure.
test-run: tests $(EXTRA_TESTS)
	@set -e; for t in $(TEST_BINS) $(EXTRA_TESTS); do \
	  echo "== [$(VARIANT)] $$t"; \
	  ADAPT_TEST_VARIANT=$(VARIANT) $$t; \
	done

test: deps
	$(MAKE) --no-print-directory VARIANT=release test-run
	$(MAKE) --no-print-directory VARIANT=tsan test-run
	$(MAKE) --no-print-directory VARIANT=asan test-run
	@echo "make test: all variants passed (release, tsan, asan+ubsan)"


bench: deps
	$(MAKE) --no-print-directory VARIANT=release bench-run

demo: deps
	$(MAKE) --no-print-directory VARIANT=release demo-run

adapt.pc: adapt.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1|g' $< > $@

install: lib adapt.pc $(INSTALL_BINS)
	install -d $(DESTDIR)$(PREFIX)/include/adapt $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 libadapt/include/adapt/*.h $(DESTDIR)$(PREFIX)/include/adapt/
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libadapt.so.0
	ln -sf libadapt.so.0 $(DESTDIR)$(PREFIX)/lib/libadapt.so
	install -m 644 adapt.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	@for b in $(INSTALL_BINS); do install -m 755 $$b $(DESTDIR)$(PREFIX)/bin/; done
	rm -f adapt.pc
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null 2>&1; then ldconfig 2>/dev/null || true; fi

clean:
	rm -rf build adapt.pc

-include $(shell find build -name '*.d' 2>/dev/null)
