"""The cpu subject: what a load from memory, a byte of bandwidth, a lock, a system call,
a context switch and a new thread cost on this machine.

* ``plan.py``: working sets, buffer sizes and counts, quick, full and smoke side by side;
* ``experiments.py``: the cases, how one is measured (the C++ loops of
  ``native/src/cpu/``), and ``measure(profile, out)``;
* ``crosscheck.py``: the same jobs through ``perf bench sched pipe``, ``sysbench
  memory`` and ``perf bench mem memcpy``;
* ``report.py``: tables, chart data and the sentences whose words depend on the data.

The chapter (``chapters/cpu-and-memory.qmd``) reads ``howfast.store.results("cpu")``.
"""
