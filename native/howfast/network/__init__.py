"""The network subject: how fast this machine talks to itself over TCP, HTTP and Redis.

Everything runs on 127.0.0.1 and every server is started and stopped by the experiment
that measures it (an ephemeral port, a scratch directory, stopped on every exit).

* ``plan.py``: its sizes, quick, full and smoke (the one place to change them);
* ``experiments.py``: TCP bulk and ping-pong, our HTTP server under our load generator
  (closed loop, then open loop across offered rates), and ``measure(profile, out)``;
* ``redis.py``: a Redis server owned by the experiment, redis-benchmark and redis-py;
* ``crosscheck.py``: our load generator beside wrk, our server beside nginx, our TCP
  stream beside iperf3;
* ``report.py``: tables, chart data and the words a reader sees;
* ``native/src/network/``: the C++ loops, server and load generator.

The chapter (``chapters/networks.qmd``) reads ``howfast.book.results("network")``.
"""
