"""The test agent's toolkit: tests found by measuring, written as the project writes them.

- :mod:`.test_search`: ``search_tests``, candidates (the value search's, the model's:
  :mod:`.model_cases`, asked when :mod:`.model_asks` says it pays) run under coverage;
- :mod:`.written_tests`: test functions from a model's cases or sources, or observed;
  their asserts (:mod:`.observed_asserts`) and names (:mod:`.test_names`, ending in what
  the test asserts: :mod:`.outcome_words`);
- :mod:`.kept_tests`: which tests stay (they pass twice and each keeps a line, a branch or
  a killed mutant: :mod:`.mutation_check` on :mod:`.mutants`), laid out by
  :mod:`.test_layout`.

It stands on :mod:`remora.code.values` and :mod:`remora.code.probes`; nothing else of
``code`` but the toolkit's list imports it.
"""

from remora.code.testgen import kept_tests, test_search, written_tests

__all__ = ["kept_tests", "test_search", "written_tests"]
