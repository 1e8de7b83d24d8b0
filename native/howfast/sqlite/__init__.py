"""The SQLite subject: inserts as sqlite-bench runs them, through the C API and Python's
sqlite3. Laid out as every subject (see ``howfast.fsync``): ``plan``, ``experiments``,
``crosscheck`` (the sqlite3 shell), ``report``; C++ in ``native/src/sqlite/``."""
