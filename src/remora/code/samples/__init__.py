"""The sample_data agent's toolkit: argument sets offered as fixtures, and tests that read them.

- :mod:`.sample_sets`: the sets worth offering (sound, sourced, each reaching its own case),
  from the value search of :mod:`remora.code.values` called through
  :mod:`remora.code.probes`; what a kept set is and which candidates are sound
  (:mod:`.kept_sets`); a class's sets, kept for what its members return
  (:mod:`.instance_sets`);
- :mod:`.sample_fixtures`: those sets as pytest fixtures in the tests' conftest, and the
  parametrized tests that read them; :mod:`.sample_files`, the files they go in;
- :mod:`.sample_tests`: the agent's change written and run (``write_sample_fixtures``);
- :mod:`.fixtures`: the JSON fixture file of example argument sets (``sample_fixture``).

It stands on :mod:`remora.code.values` and :mod:`remora.code.probes`, apart from
:mod:`remora.code.testgen`.
"""

from remora.code.samples import fixtures, sample_tests

__all__ = ["fixtures", "sample_tests"]
