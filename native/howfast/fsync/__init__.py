"""The fsync subject: what one durable write costs.

One layout for every subject (copy it for a new one):

* ``plan.py``: its sizes, quick and full (the one place to change them);
* ``experiments.py``: its cases, how one case is measured, and ``measure(profile, out)``,
  which runs every experiment and hands it to the results store;
* ``crosscheck.py``: the same jobs through the standard tool (here fio);
* ``report.py``: tables, chart data and the words a reader sees, from the stored set;
* ``native/src/fsync/``: the C++ loops, and ``bind.cpp`` exposing them to ``_native``.

The chapter (``chapters/fsync.qmd``) reads ``howfast.book.results("fsync")``.
"""
