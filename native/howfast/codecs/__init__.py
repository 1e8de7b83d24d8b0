"""The codecs subject: what compressing, decompressing and sorting cost on this machine's
CPU (napkin-math's remaining rows), and what serializing records costs.

* ``plan.py``: inputs, levels, sizes and run lengths, quick, full and smoke side by side;
* ``experiments.py``: the native loops over the compression libraries (libzstd, liblz4,
  libsnappy, zlib, libbrotli) on five inputs, each round trip checked byte for byte; the
  sorts of 64-bit integers (std::sort, std::stable_sort, an LSD radix sort written here)
  and the same sorts from Python (numpy, polars), each output checked for order and sum;
  the same access-log records as JSON (simdjson, RapidJSON; Python's json, orjson,
  msgspec) and as a plain length-prefixed dump, every field checked after each pass;
* ``crosscheck.py``: our zstd and lz4 loops beside ``zstd -b`` and ``lz4 -b``;
* ``report.py``: tables, chart data and the sentences whose words depend on the data;
* ``native/src/codecs/`` and ``native/src/serial/``: the C++ loops.

The chapter (``chapters/compress-encode-sort.qmd``) reads ``howfast.store.results("codecs")``.
"""
