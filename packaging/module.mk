# packaging/: `make install`, `make uninstall`, the pkg-config files (adapt,
# adapt-static, adapt-iso), the CMake package (adaptConfig.cmake, adaptConfigVersion.cmake)
# and `make check-consumers`, which builds a pkg-config and a CMake consumer
# against a staged install and runs them without LD_LIBRARY_PATH.
#
# Every generated file is relocatable (paths relative to the file itself), so
# a DESTDIR-staged tree works where it is. The shared library's directory is
# put in the pkg-config link line as an rpath when LIBDIR is not one the
# dynamic loader searches by default (e.g. PREFIX=$HOME/.local).

PKG_B   := $(B)/packaging
PKG_GEN := $(PKG_B)/adapt.pc $(PKG_B)/adapt-static.pc $(PKG_B)/adapt-iso.pc $(PKG_B)/adaptConfig.cmake \
           $(PKG_B)/adaptConfigVersion.cmake
CMAKEDIR ?= $(LIBDIR)/cmake/adapt
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The runtime's and the algorithms' public headers, merged into one include/adapt/.
PUBLIC_HEADERS := $(wildcard libadapt/include/adapt/*.h) $(wildcard algorithms/include/adapt/*.h)
# The C++ front end (stl/): <adapt/stl.hpp> and its <adapt/stl/*.hpp>.
STL_PUBLIC_HEADERS := $(wildcard stl/include/adapt/*.hpp)
STL_PUBLIC_DETAIL  := $(wildcard stl/include/adapt/stl/*.hpp)
# <adapt/iso.hpp> (apps/isosurface/core) and its libraries (apps/isosurface/module.mk).
ISO_PUBLIC_HEADERS := apps/isosurface/core/include/adapt/iso.hpp

, := ,
# Directories the loader searches without an rpath (ld.so.conf on Debian).
PKG_SYSTEM_LIBDIRS := /lib /usr/lib /usr/local/lib /lib64 /usr/lib64 \
                      /lib/$(shell $(CC) -print-multiarch 2>/dev/null) \
                      /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)
PKG_RPATH := $(if $(filter $(patsubst %/,%,$(LIBDIR)),$(PKG_SYSTEM_LIBDIRS)),, -Wl$(,)-rpath$(,)$${libdir})
pkg_rel = $(shell realpath -m --relative-to='$(1)' '$(2)')

# Regenerated at each install (the paths come from the command line).
.PHONY: FORCE_PKG
FORCE_PKG:
$(PKG_B)/%: packaging/%.in FORCE_PKG
	@mkdir -p $(dir $@)
	@sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
	  -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' \
	  -e 's|@PC_TO_PREFIX@|$(call pkg_rel,$(PKGCONFIGDIR),$(PREFIX))|g' \
	  -e 's|@PC_TO_INCLUDEDIR@|$(call pkg_rel,$(PKGCONFIGDIR),$(INCLUDEDIR))|g' \
	  -e 's|@PC_RPATH@|$(PKG_RPATH)|g' -e 's|@CM_RPATH@|$(if $(PKG_RPATH),TRUE,FALSE)|g' \
	  -e 's|@CM_TO_LIBDIR@|$(call pkg_rel,$(CMAKEDIR),$(LIBDIR))|g' \
	  -e 's|@CM_TO_INCLUDEDIR@|$(call pkg_rel,$(CMAKEDIR),$(INCLUDEDIR))|g' \
	  -e "s|@SIZEOF_VOID_P@|$$(getconf LONG_BIT | awk '{print $$1/8}')|g" $< > $@.tmp
	@mv $@.tmp $@

# The directories install makes; those it creates (not there before) are
# listed, without DESTDIR, in CMAKEDIR/installed-dirs (kept across
# installs), which uninstall removes when they are empty.
INSTALL_DIRS = $(INCLUDEDIR)/adapt/stl $(LIBDIR) $(PKGCONFIGDIR) $(CMAKEDIR) \
               $(if $(strip $(INSTALL_BINS)),$(BINDIR))
PKG_DIRS_LIST = $(DESTDIR)$(CMAKEDIR)/installed-dirs

install: lib $(PKG_GEN) $(INSTALL_BINS)
	@new=""; for d in $(INSTALL_DIRS); do \
	  while [ "$$d" != / ] && [ ! -d "$(DESTDIR)$$d" ]; do new="$$new $$d"; d=$$(dirname "$$d"); done; \
	done; install -d $(DESTDIR)$(CMAKEDIR) && \
	{ cat $(PKG_DIRS_LIST) 2>/dev/null || true; for d in $$new; do echo "$$d"; done; } | sort -u \
	  > $(PKG_DIRS_LIST).tmp && mv $(PKG_DIRS_LIST).tmp $(PKG_DIRS_LIST)
	install -d $(DESTDIR)$(INCLUDEDIR)/adapt $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(CMAKEDIR)
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/adapt/
	install -d $(DESTDIR)$(INCLUDEDIR)/adapt/stl
	install -m 644 $(STL_PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/adapt/
	install -m 644 $(STL_PUBLIC_DETAIL) $(DESTDIR)$(INCLUDEDIR)/adapt/stl/
	install -m 644 $(ISO_PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/adapt/
	install -m 644 $(LIB_A) $(ISO_LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO_REAL) $(ISO_LIB_SO_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO_REAL)) $(DESTDIR)$(LIBDIR)/$(LIB_SO_NAME)
	ln -sf $(LIB_SO_NAME) $(DESTDIR)$(LIBDIR)/libadapt.so
	ln -sf $(notdir $(ISO_LIB_SO_REAL)) $(DESTDIR)$(LIBDIR)/$(ISO_LIB_SO_NAME)
	ln -sf $(ISO_LIB_SO_NAME) $(DESTDIR)$(LIBDIR)/libadapt-iso.so
	install -m 644 $(PKG_B)/adapt.pc $(PKG_B)/adapt-static.pc $(PKG_B)/adapt-iso.pc \
	  $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 644 $(PKG_B)/adaptConfig.cmake $(PKG_B)/adaptConfigVersion.cmake $(DESTDIR)$(CMAKEDIR)/
ifneq ($(strip $(INSTALL_BINS)),)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(INSTALL_BINS) $(DESTDIR)$(BINDIR)/
	@echo "install: libadapt $(VERSION) and $(notdir $(INSTALL_BINS)) in $(DESTDIR)$(PREFIX)"
else
	@echo "install: libadapt $(VERSION) in $(DESTDIR)$(PREFIX); adapt-isosurface not built" \
	  "(VTK 9.1 headers not found in $(VTK_INC); \`make deps\` installs them)"
endif
	@if [ -z "$(DESTDIR)" ] && [ -z "$(PKG_RPATH)" ] && command -v ldconfig >/dev/null 2>&1; then \
	  ldconfig 2>/dev/null || true; fi

# Removes what install wrote (also the app, whether or not it is built now),
# then the directories it created, deepest first, those left empty.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/adapt/,$(notdir $(PUBLIC_HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/adapt/,$(notdir $(STL_PUBLIC_HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/adapt/stl/,$(notdir $(STL_PUBLIC_DETAIL)))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/adapt/,$(notdir $(ISO_PUBLIC_HEADERS)))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/adapt/stl 2>/dev/null
	rm -f $(DESTDIR)$(LIBDIR)/libadapt.a $(DESTDIR)$(LIBDIR)/$(notdir $(LIB_SO_REAL)) \
	  $(DESTDIR)$(LIBDIR)/$(LIB_SO_NAME) $(DESTDIR)$(LIBDIR)/libadapt.so
	rm -f $(DESTDIR)$(LIBDIR)/libadapt-iso.a $(DESTDIR)$(LIBDIR)/$(notdir $(ISO_LIB_SO_REAL)) \
	  $(DESTDIR)$(LIBDIR)/$(ISO_LIB_SO_NAME) $(DESTDIR)$(LIBDIR)/libadapt-iso.so
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/adapt.pc $(DESTDIR)$(PKGCONFIGDIR)/adapt-static.pc \
	  $(DESTDIR)$(PKGCONFIGDIR)/adapt-iso.pc
	rm -f $(DESTDIR)$(CMAKEDIR)/adaptConfig.cmake $(DESTDIR)$(CMAKEDIR)/adaptConfigVersion.cmake
	rm -f $(DESTDIR)$(BINDIR)/adapt-isosurface
	@dirs=$$(sort -r $(PKG_DIRS_LIST) 2>/dev/null || true); rm -f $(PKG_DIRS_LIST); \
	rmdir $(DESTDIR)$(INCLUDEDIR)/adapt $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true; \
	for d in $$dirs; do rmdir "$(DESTDIR)$$d" 2>/dev/null || true; done
	@echo "uninstall: done ($(DESTDIR)$(PREFIX))"

# Staged installs, consumers built and run without LD_LIBRARY_PATH, uninstall
# leaves nothing, and an install without VTK installs the library. The
# script's install runs in a make of its own: everything it installs is
# built first, by this make, so that no object is built by two makes at once
# (each would build it, and the slower one again after the other's write).
.PHONY: check-consumers
check-consumers: lib $(INSTALL_BINS)
	@bash packaging/check_consumers.sh "$(MAKE)" "$(abspath $(B))/consumers"
CHECKS += check-consumers
