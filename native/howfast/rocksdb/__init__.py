"""The RocksDB subject: seed 000's db_bench tests through librocksdb's C++ API. Laid out
as every subject (see ``howfast.fsync``): ``plan``, ``experiments``, ``crosscheck``
(db_bench), ``report``; C++ in ``native/src/rocksdb/``."""
