# docs/: `make check-docs` compiles and runs every example program marked in README.md and
# docs/*.md (```c example=NAME, docs/guide.md "Examples in these pages";
# scripts/doc_examples.sh), linked with this variant's libadapt.a, and checks that the
# Markdown links and backticked repository paths of those pages resolve inside the repository
# (scripts/doc_refs.sh), that every generated figure table equals what its CSV in
# docs/figures/ gives (scripts/doc_tables.py --check), and that no page speaks of
# session stops or has dated sections (scripts/doc_history.sh), and that `make help`
# lists every phony target (scripts/check_help.sh). `make test` runs it
# in the release variant (CHECKS); `make VARIANT=asan check-docs` runs the examples
# under ASan+UBSan.
#
# `make docs-figures` copies the CSV files of the last `make bench`, `make fault`,
# `make model-check`, `make fuzz` and `make soak` runs ($(B)/bench-results/,
# $(B)/fault-results/, $(B)/reliability-results/) over their namesakes in docs/figures/ and regenerates every
# table from them; `make docs-tables` regenerates the tables only.

.PHONY: check-docs
check-docs: $(LIB_A) $(ISO_LIB_A) $(DOC_DEPS)
	@VARIANT=$(VARIANT) SAN_FLAGS="$(SAN_FLAGS)" CC="$(CC)" CXX="$(CXX)" LIBS_CORE="$(LIBS_CORE)" \
	  DOC_VTK_CXXFLAGS="$(DOC_VTK_CXXFLAGS)" DOC_VTK_LIBS="$(DOC_VTK_LIBS)" bash scripts/doc_examples.sh
	@bash scripts/doc_refs.sh
	@python3 scripts/doc_tables.py --check README.md docs/*.md && echo "doc-tables: every table matches its CSV"
	@bash scripts/doc_history.sh
	@bash scripts/check_help.sh "$(MAKE)"
CHECKS += check-docs

.PHONY: docs-tables docs-figures
docs-tables:
	python3 scripts/doc_tables.py README.md docs/*.md
docs-figures:
	@for f in docs/figures/*.csv; do \
	  n=$$(basename $$f); \
	  if [ -f $(B)/bench-results/$$n ]; then cp $(B)/bench-results/$$n $$f && echo "docs-figures: $$f"; fi; \
	  if [ -f $(B)/fault-results/$$n ]; then cp $(B)/fault-results/$$n $$f && echo "docs-figures: $$f"; fi; \
	  if [ -f $(B)/reliability-results/$$n ]; then cp $(B)/reliability-results/$$n $$f && echo "docs-figures: $$f"; fi; \
	done
	python3 scripts/doc_tables.py README.md docs/*.md
