# model/: `make model-check` runs spin on the Promela models of the runtime's
# protocols (model/*.pml; docs/design.md, "Model checking"): each correct
# model must verify exhaustively and each seeded-bug variant must give a
# counterexample. Scratch files go to build/model/. `make test` runs it in
# the release variant (CHECKS); about 90 s of CPU in all (each new model a
# few seconds, most of it compiling pan.c).

.PHONY: model-check
model-check:
	@MODEL_OUT="$(CURDIR)/build/model" bash model/run.sh
CHECKS += model-check
