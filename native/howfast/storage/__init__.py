"""The storage subject: RAM against disk, the engine matrix (sync / POSIX aio /
io_uring), buffered against O_DIRECT, the page cache, block sizes, queue depths and
parallel jobs. Laid out as every subject (see ``howfast.fsync``): ``plan``,
``experiments``, ``crosscheck`` (fio), ``report``; C++ in ``native/src/storage/``."""
