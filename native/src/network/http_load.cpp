// The HTTP load generator: `connections` keep-alive connections to 127.0.0.1:port spread
// over `threads` threads, each thread one epoll loop, one request outstanding per
// connection.
//
// Closed loop (rate 0): a connection sends its next request as soon as the response to
// the previous one is complete; latency runs from that send. Like wrk.
// Open loop (rate > 0): connection i of C sends request k at the intended time
// start + (i + k * C) / rate. When the server falls behind, a request goes out late, as
// soon as its connection is free, and its latency still runs from the intended time: the
// wait a real user arriving on schedule would have seen. Like wrk2; without it a slow
// server would slow the generator down and hide its own queueing (coordinated omission).
//
// After `seconds` no new request goes out; responses still owed are awaited for `grace`
// seconds, then counted as errors. Every latency goes into the histogram.
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <string>

#include "common/errors.hpp"
#include "common/system.hpp"
#include "network/network.hpp"
#include "network/threads.hpp"

namespace howfast {

namespace {

constexpr std::size_t kBufSize = 16384;

struct Client {
  OwnedFd fd;
  std::size_t used = 0;
  bool waiting = false;   // a request is outstanding
  uint64_t sent_at = 0;   // when the outstanding request went out
  uint64_t intended = 0;  // open loop: when the outstanding (or next) request was due
  char buf[kBufSize];
};

// Length of the first complete response in buf, 0 when incomplete, -1 when malformed.
// ok is set to whether its status is 200.
long response_length(const char* buf, std::size_t used, bool& ok) {
  const char* end = static_cast<const char*>(memmem(buf, used, "\r\n\r\n", 4));
  if (!end) return used == kBufSize ? -1 : 0;
  std::size_t head = static_cast<std::size_t>(end - buf) + 4;
  ok = head > 12 && std::memcmp(buf, "HTTP/1.", 7) == 0 && std::memcmp(buf + 9, "200", 3) == 0;
  long body = 0;
  const char* p = buf;
  while (p < end) {
    const char* eol = static_cast<const char*>(memmem(p, static_cast<std::size_t>(end - p) + 2, "\r\n", 2));
    if (!eol) break;
    if (eol - p > 15 && strncasecmp(p, "content-length:", 15) == 0) body = std::strtol(p + 15, nullptr, 10);
    p = eol + 2;
  }
  if (body < 0) return -1;
  std::size_t total = head + static_cast<std::size_t>(body);
  if (total > kBufSize) return -1;
  return used >= total ? static_cast<long>(total) : 0;
}

}  // namespace

HttpLoadResult http_load(const HttpLoadConfig& c, Poller& poller) {
  require(c.port >= 1 && c.port <= 65535, "port must be 1 to 65535, got " + std::to_string(c.port));
  require(c.connections >= 1 && c.connections <= 10000,
          "connections must be 1 to 10000, got " + std::to_string(c.connections));
  require(c.threads >= 1 && c.threads <= 64, "threads must be 1 to 64, got " + std::to_string(c.threads));
  require(c.seconds > 0 && c.seconds <= 600, "seconds must be above 0 and at most 600, got " + std::to_string(c.seconds));
  require(c.rate >= 0 && c.rate <= 1e8, "rate must be 0 (closed loop) or a positive rate up to 1e8 requests/s, got " +
                                            std::to_string(c.rate));
  require(c.grace >= 0 && c.grace <= 60, "grace must be 0 to 60 seconds, got " + std::to_string(c.grace));
  require(!c.path.empty() && c.path[0] == '/', "path must start with '/', got '" + c.path + "'");
  const int port = static_cast<int>(c.port);
  const int n = static_cast<int>(c.connections);
  const int threads = static_cast<int>(std::min<int64_t>(c.threads, c.connections));
  const std::string request = "GET " + c.path + " HTTP/1.1\r\nHost: " + c.host + "\r\n\r\n";

  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < n; ++i) {
    auto cl = std::make_unique<Client>();
    cl->fd = connect_loopback(port);
    set_nonblocking(cl->fd.get());
    clients.push_back(std::move(cl));
  }

  std::atomic<bool> stop{false}, go{false};
  std::atomic<int> lost{0};
  std::vector<HttpLoadResult> parts(static_cast<std::size_t>(threads));
  uint64_t start = 0;
  const uint64_t duration = static_cast<uint64_t>(c.seconds * 1e9);
  const uint64_t grace = static_cast<uint64_t>(c.grace * 1e9);
  const bool open = c.rate > 0;
  const double gap_ns = open ? 1e9 / c.rate : 0.0;  // between two requests, over all connections

  {
    Workers workers(stop);
    for (int t = 0; t < threads; ++t) {
      workers.spawn([&, t] {
        HttpLoadResult& r = parts[static_cast<std::size_t>(t)];
        std::vector<Client*> mine;
        for (int i = t; i < n; i += threads) mine.push_back(clients[static_cast<std::size_t>(i)].get());
        OwnedFd ep(epoll_create1(EPOLL_CLOEXEC));
        if (ep.get() < 0) throw_errno("epoll_create1");
        auto watch = [&](std::size_t j) {
          epoll_event ev{};
          ev.events = EPOLLIN | EPOLLRDHUP;
          ev.data.u64 = j;
          if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, mine[j]->fd.get(), &ev) < 0) throw_errno("epoll_ctl");
        };
        for (std::size_t j = 0; j < mine.size(); ++j) watch(j);
        while (!go.load()) std::this_thread::yield();
        const uint64_t t0 = start;
        const uint64_t send_end = t0 + duration;
        // open loop: connection i's first request is due at i / rate
        for (std::size_t j = 0; j < mine.size(); ++j)
          mine[j]->intended = t0 + static_cast<uint64_t>(static_cast<double>(t + j * threads) * gap_ns);
        const uint64_t per_conn = static_cast<uint64_t>(gap_ns * n);

        auto send = [&](Client& cl, uint64_t now) {
          std::size_t off = 0;
          while (off < request.size()) {
            ssize_t put = ::send(cl.fd.get(), request.data() + off, request.size() - off, MSG_NOSIGNAL);
            if (put < 0) {
              if (errno == EINTR || errno == EAGAIN) continue;
              return false;
            }
            off += static_cast<std::size_t>(put);
          }
          cl.waiting = true;
          cl.sent_at = now;
          ++r.sent;
          return true;
        };
        // the server closed or reset a connection: count it, and connect again while the
        // run lasts (a server that is gone makes connect fail: that ends the run)
        auto replace = [&](std::size_t j, uint64_t now) {
          Client& cl = *mine[j];
          ++r.errors;
          lost.fetch_add(1);
          epoll_ctl(ep.get(), EPOLL_CTL_DEL, cl.fd.get(), nullptr);  // see HttpServer: close() may not
          cl.fd.reset();
          cl.used = 0;
          cl.waiting = false;
          if (now >= send_end) return false;
          try {
            cl.fd = connect_loopback(port);
          } catch (const SysError& e) {
            throw SysError(e.err(),
                           "the server on 127.0.0.1:" + std::to_string(port) + " went away mid-run (" +
                               std::to_string(lost.load()) + " connections lost); reconnecting failed: " + e.what(),
                           e.path());
          }
          set_nonblocking(cl.fd.get());
          watch(j);
          return true;
        };

        if (!open)
          for (std::size_t j = 0; j < mine.size(); ++j)
            if (!send(*mine[j], now_ns())) replace(j, now_ns());

        epoll_event events[256];
        for (;;) {
          uint64_t now = now_ns();
          if (stop.load(std::memory_order_relaxed)) break;
          std::size_t outstanding = 0;
          uint64_t next_due = UINT64_MAX;
          for (std::size_t j = 0; j < mine.size(); ++j) {
            Client& cl = *mine[j];
            if (cl.waiting) {
              ++outstanding;
            } else if (open && cl.fd.get() >= 0 && cl.intended < send_end) {
              if (cl.intended <= now) {
                if (send(cl, now)) ++outstanding;
                else replace(j, now);
              } else {
                next_due = std::min(next_due, cl.intended);
              }
            }
          }
          if (now >= send_end && outstanding == 0) break;
          if (now >= send_end + grace) {
            r.errors += outstanding;  // never answered
            break;
          }
          if (open && outstanding == 0 && next_due == UINT64_MAX) break;
          // sleep until a response arrives or the next request is due (10 ms at most)
          uint64_t wait = 10'000'000;
          if (next_due != UINT64_MAX) wait = std::min(wait, next_due > now ? next_due - now : 0);
          timespec ts{static_cast<time_t>(wait / 1'000'000'000ull), static_cast<long>(wait % 1'000'000'000ull)};
          int k = epoll_pwait2(ep.get(), events, 256, &ts, nullptr);
          if (k < 0) {
            if (errno == EINTR) continue;
            throw_errno("epoll_pwait2 (load generator)");
          }
          now = now_ns();
          for (int e = 0; e < k; ++e) {
            std::size_t j = static_cast<std::size_t>(events[e].data.u64);
            Client& cl = *mine[j];
            if (cl.fd.get() < 0) continue;
            bool dead = false;
            for (;;) {
              ssize_t got = ::recv(cl.fd.get(), cl.buf + cl.used, kBufSize - cl.used, 0);
              if (got < 0) {
                if (errno == EINTR) continue;
                if (errno != EAGAIN && errno != EWOULDBLOCK) dead = true;
                break;
              }
              if (got == 0) {
                dead = true;
                break;
              }
              cl.used += static_cast<std::size_t>(got);
              r.bytes += static_cast<uint64_t>(got);
              bool ok = false;
              long len = response_length(cl.buf, cl.used, ok);
              if (len < 0) {
                dead = true;
                break;
              }
              if (len == 0) continue;
              std::memmove(cl.buf, cl.buf + len, cl.used - static_cast<std::size_t>(len));
              cl.used -= static_cast<std::size_t>(len);
              if (!cl.waiting) {  // an answer nobody asked for
                dead = true;
                break;
              }
              cl.waiting = false;
              const uint64_t done = now_ns();
              if (!ok) ++r.errors;
              ++r.requests;
              r.latency.add(done - (open ? cl.intended : cl.sent_at));
              r.elapsed_ns = std::max(r.elapsed_ns, done - t0);
              if (open) {
                cl.intended += per_conn;
                if (cl.intended <= done && cl.intended < send_end && !send(cl, done)) dead = true;
              } else if (done < send_end && !send(cl, done)) {
                dead = true;
              }
              break;
            }
            if (dead) replace(j, now);
          }
        }
        r.send_window_ns = std::min<uint64_t>(now_ns() - t0, duration);
        r.cpu_ns = thread_cpu_ns();
      });
    }
    start = now_ns();
    go = true;
    workers.join(poller);
  }
  HttpLoadResult total;
  for (auto& p : parts) {
    total.requests += p.requests;
    total.sent += p.sent;
    total.errors += p.errors;
    total.bytes += p.bytes;
    total.elapsed_ns = std::max(total.elapsed_ns, p.elapsed_ns);
    total.send_window_ns = std::max(total.send_window_ns, p.send_window_ns);
    total.cpu_ns += p.cpu_ns;
    total.latency.merge(p.latency);
  }
  return total;
}

}  // namespace howfast
