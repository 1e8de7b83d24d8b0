"""The memtable subject: the seed's O_DIRECT memtable, its flush modes, durability and
crash safety. Laid out as every subject (see ``howfast.fsync``): ``plan``,
``experiments``, ``crosscheck`` (fio), ``report``, plus ``crash`` (SIGKILL and recovery);
C++ in ``native/src/memtable/``."""
