# model/: `make model-check` runs spin on the Promela models of the runtime's
# protocols (model/*.pml; docs/design.md, "Model checking"): each correct
# model must verify exhaustively and each seeded-bug variant must give a
# counterexample. Scratch files go to build/model/; the summary, as a CSV
# (scripts/reliability_csv.py), to $(B)/reliability-results/model_check.csv,
# which `make docs-figures` copies to docs/figures/ (docs/reliability.md). `make test` runs it in
# the release variant (CHECKS); about 45 s of CPU in all (each new model a
# few seconds, most of it compiling pan.c).

.PHONY: model-check
model-check:
	@mkdir -p $(B)/reliability-results
	@MODEL_OUT="$(CURDIR)/build/model" bash model/run.sh >$(B)/reliability-results/model-check.log; \
	rc=$$?; cat $(B)/reliability-results/model-check.log; [ $$rc = 0 ] || exit $$rc; \
	python3 scripts/reliability_csv.py model <$(B)/reliability-results/model-check.log \
	  >$(B)/reliability-results/model_check.csv
CHECKS += model-check
