# docs/: `make check-docs` compiles and runs every example program marked in README.md and
# docs/*.md (```c example=NAME, docs/guide.md "Examples in these pages";
# scripts/doc_examples.sh), linked with this variant's libadapt.a, and checks that the
# Markdown links and backticked repository paths of those pages resolve inside the repository
# (scripts/doc_refs.sh). `make test` runs it in the release variant (CHECKS);
# `make VARIANT=asan check-docs` runs the examples under ASan+UBSan.

.PHONY: check-docs
check-docs: $(LIB_A)
	@VARIANT=$(VARIANT) SAN_FLAGS="$(SAN_FLAGS)" CC="$(CC)" CXX="$(CXX)" LIBS_CORE="$(LIBS_CORE)" \
	  bash scripts/doc_examples.sh
	@bash scripts/doc_refs.sh
CHECKS += check-docs
