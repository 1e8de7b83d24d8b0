"""The hashing subject: how many bytes per second a hash function eats, and what one
hash costs, on this machine's CPU.

* ``plan.py``: input sizes and run lengths, quick, full and smoke side by side;
* ``experiments.py``: the native loops over the maintained libraries (OpenSSL's
  libcrypto, libxxhash, libmurmurhash, ISA-L), the crc32 instruction, two hashes written
  here (FNV-1a 64, the kernel's jhash), the same hashes called from Python, and the
  CPU features and code paths the libraries can use;
* ``crosscheck.py``: our OpenSSL loops beside ``openssl speed``, our xxHash loops beside
  ``xxhsum -b``;
* ``report.py``: tables, chart data and the sentences whose words depend on the data;
* ``native/src/hashing/``: the C++ loops.

The chapter (``chapters/hashing.qmd``) reads ``howfast.store.results("hashing")``.
"""
