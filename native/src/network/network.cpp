// Sockets on 127.0.0.1, the latency histogram, and the two raw TCP loops: bulk streams
// and ping-pong request/response.
#include "network/network.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>

#include "common/errors.hpp"
#include "network/threads.hpp"

namespace howfast {

const char kHelloResponse[] =
    "HTTP/1.1 200 OK\r\n"
    "Content-Length: 13\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n"
    "\r\n"
    "Hello, World!";
const std::size_t kHelloResponseSize = sizeof(kHelloResponse) - 1;

void OwnedFd::reset() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

namespace {

sockaddr_in loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

std::string where(int port) { return "127.0.0.1:" + std::to_string(port); }

}  // namespace

void set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_errno("fcntl(O_NONBLOCK)");
}

OwnedFd listen_loopback(int port, int backlog) {
  require(port >= 0 && port <= 65535, "port must be 0 (ephemeral) to 65535, got " + std::to_string(port));
  OwnedFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  int one = 1;
  if (setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0) throw_errno("setsockopt(SO_REUSEADDR)");
  sockaddr_in addr = loopback(port);
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0)
    throw_errno("bind " + where(port) + (errno == EADDRINUSE ? " (the port is in use)" : ""), where(port));
  if (listen(fd.get(), backlog) < 0) throw_errno("listen", where(port));
  return fd;
}

int local_port(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) < 0) throw_errno("getsockname");
  return ntohs(addr.sin_port);
}

OwnedFd connect_loopback(int port) {
  require(port > 0 && port <= 65535, "port must be 1 to 65535, got " + std::to_string(port));
  OwnedFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  sockaddr_in addr = loopback(port);
  int rc;
  do {
    rc = connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0)
    throw_errno("connect to " + where(port) + (errno == ECONNREFUSED ? " (no server is listening there)" : ""),
                where(port));
  int one = 1;
  if (setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) throw_errno("setsockopt(TCP_NODELAY)");
  return fd;
}

// ---- Histogram ------------------------------------------------------------------------

int Histogram::index(uint64_t ns) {
  if (ns < static_cast<uint64_t>(kSub)) return static_cast<int>(ns);
  int msb = 63 - __builtin_clzll(ns);
  int shift = msb - 7;
  return (shift + 1) * kSub + static_cast<int>((ns >> shift) - kSub);
}

uint64_t Histogram::upper(int index) {
  if (index < kSub) return static_cast<uint64_t>(index);
  int shift = index / kSub - 1;
  uint64_t sub = static_cast<uint64_t>(index % kSub + kSub);
  return ((sub + 1) << shift) - 1;
}

void Histogram::merge(const Histogram& o) {
  for (int i = 0; i < kBuckets; ++i) counts_[i] += o.counts_[i];
  total_ += o.total_;
  sum_ += o.sum_;
  if (o.max_ > max_) max_ = o.max_;
}

uint64_t Histogram::percentile(double q) const {
  if (total_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(total_)));
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(upper(i), max_);
  }
  return max_;
}

void Histogram::nonempty(std::vector<uint64_t>& edges, std::vector<uint64_t>& counts) const {
  for (int i = 0; i < kBuckets; ++i) {
    if (counts_[i] == 0) continue;
    edges.push_back(std::min(upper(i), max_));
    counts.push_back(counts_[i]);
  }
}

// ---- TCP bulk -------------------------------------------------------------------------

TcpBulkResult tcp_bulk(const TcpBulkConfig& c, Poller& poller) {
  require(c.streams >= 1 && c.streams <= 64, "streams must be 1 to 64, got " + std::to_string(c.streams));
  require(c.seconds > 0 && c.seconds <= 600, "seconds must be above 0 and at most 600, got " + std::to_string(c.seconds));
  require(c.write_size >= 1 && c.write_size <= (64 << 20),
          "write_size must be 1 byte to 64 MiB, got " + std::to_string(c.write_size));
  const int n = static_cast<int>(c.streams);
  OwnedFd listener = listen_loopback(0, n + 8);
  const int port = local_port(listener.get());
  std::vector<OwnedFd> senders, receivers;
  for (int i = 0; i < n; ++i) {
    senders.push_back(connect_loopback(port));
    OwnedFd r(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (r.get() < 0) throw_errno("accept");
    // a blocked read or write wakes every 200 ms to see whether the run was stopped
    timeval tick{0, 200000};
    if (setsockopt(r.get(), SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick) < 0 ||
        setsockopt(senders.back().get(), SOL_SOCKET, SO_SNDTIMEO, &tick, sizeof tick) < 0)
      throw_errno("setsockopt(SO_RCVTIMEO/SO_SNDTIMEO)");
    receivers.push_back(std::move(r));
  }
  std::vector<uint64_t> sent(n, 0), received(n, 0), finished(n, 0);
  std::atomic<bool> stop{false}, go{false};
  std::atomic<uint64_t> start{0};
  std::vector<char> out(static_cast<std::size_t>(c.write_size), 'x');
  const uint64_t duration = static_cast<uint64_t>(c.seconds * 1e9);
  {
    Workers workers(stop);
    for (int i = 0; i < n; ++i) {
      workers.spawn([&, i] {
        std::vector<char> in(1 << 20);
        while (!go.load()) std::this_thread::yield();
        for (;;) {
          ssize_t got = ::read(receivers[i].get(), in.data(), in.size());
          if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
              if (stop.load() && now_ns() - start.load() > duration + 2'000'000'000ull) break;
              continue;
            }
            throw_errno("read (bulk receiver)");
          }
          if (got == 0) break;
          received[i] += static_cast<uint64_t>(got);
        }
        finished[i] = now_ns();
      });
      workers.spawn([&, i] {
        while (!go.load()) std::this_thread::yield();
        const uint64_t t0 = start.load();
        const int fd = senders[i].get();
        while (!stop.load() && now_ns() - t0 < duration) {
          ssize_t put = ::write(fd, out.data(), out.size());
          if (put < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            throw_errno("write (bulk sender)");
          }
          sent[i] += static_cast<uint64_t>(put);
        }
        if (shutdown(fd, SHUT_WR) < 0) throw_errno("shutdown (bulk sender)");
      });
    }
    start = now_ns();
    go = true;
    workers.join(poller);
  }
  TcpBulkResult r;
  uint64_t last = start.load();
  for (int i = 0; i < n; ++i) {
    r.bytes_sent += sent[i];
    r.bytes_received += received[i];
    last = std::max(last, finished[i]);
  }
  r.elapsed_ns = last - start.load();
  return r;
}

// ---- TCP ping-pong --------------------------------------------------------------------

PingPongResult tcp_ping_pong(const PingPongConfig& c, Poller& poller) {
  require(c.connections >= 1 && c.connections <= 4096,
          "connections must be 1 to 4096, got " + std::to_string(c.connections));
  require(c.seconds > 0 && c.seconds <= 600, "seconds must be above 0 and at most 600, got " + std::to_string(c.seconds));
  require(c.message_size >= 1 && c.message_size <= 65536,
          "message_size must be 1 to 65536 bytes, got " + std::to_string(c.message_size));
  const int n = static_cast<int>(c.connections);
  const std::size_t size = static_cast<std::size_t>(c.message_size);
  OwnedFd listener = listen_loopback(0, n + 8);
  const int port = local_port(listener.get());
  std::vector<OwnedFd> clients, served;
  for (int i = 0; i < n; ++i) {
    clients.push_back(connect_loopback(port));
    OwnedFd s(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (s.get() < 0) throw_errno("accept");
    int one = 1;
    if (setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) throw_errno("setsockopt(TCP_NODELAY)");
    served.push_back(std::move(s));
    set_nonblocking(clients.back().get());
  }
  std::atomic<bool> stop{false};
  PingPongResult result;
  const uint64_t duration = static_cast<uint64_t>(c.seconds * 1e9);
  {
    Workers workers(stop);
    // the echo server: one epoll thread
    workers.spawn([&] {
      OwnedFd ep(epoll_create1(EPOLL_CLOEXEC));
      if (ep.get() < 0) throw_errno("epoll_create1");
      for (int i = 0; i < n; ++i) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = served[i].get();
        if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, served[i].get(), &ev) < 0) throw_errno("epoll_ctl");
      }
      std::vector<epoll_event> events(256);
      std::vector<char> buf(65536);
      while (!stop.load()) {
        int k = epoll_wait(ep.get(), events.data(), static_cast<int>(events.size()), 10);
        if (k < 0) {
          if (errno == EINTR) continue;
          throw_errno("epoll_wait (echo server)");
        }
        for (int e = 0; e < k; ++e) {
          int fd = events[e].data.fd;
          ssize_t got = ::read(fd, buf.data(), buf.size());
          if (got <= 0) {
            if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            epoll_ctl(ep.get(), EPOLL_CTL_DEL, fd, nullptr);
            continue;
          }
          ssize_t off = 0;
          while (off < got) {
            ssize_t put = ::write(fd, buf.data() + off, static_cast<std::size_t>(got - off));
            if (put < 0) {
              if (errno == EAGAIN || errno == EINTR) continue;
              throw_errno("write (echo server)");
            }
            off += put;
          }
        }
      }
    });
    // the client: one epoll thread driving every connection
    workers.spawn([&] {
      OwnedFd ep(epoll_create1(EPOLL_CLOEXEC));
      if (ep.get() < 0) throw_errno("epoll_create1");
      std::vector<char> msg(size, 'p');
      std::vector<char> buf(65536);
      std::vector<std::size_t> have(n, 0);
      std::vector<uint64_t> sent_at(n, 0);
      std::vector<bool> waiting(n, false);
      auto send = [&](int i) {
        ssize_t off = 0;
        while (off < static_cast<ssize_t>(size)) {
          ssize_t put = ::write(clients[i].get(), msg.data() + off, size - static_cast<std::size_t>(off));
          if (put < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            throw_errno("write (ping-pong client)");
          }
          off += put;
        }
        waiting[i] = true;
      };
      for (int i = 0; i < n; ++i) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u32 = static_cast<uint32_t>(i);
        if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, clients[i].get(), &ev) < 0) throw_errno("epoll_ctl");
      }
      const uint64_t t0 = now_ns();
      for (int i = 0; i < n; ++i) {
        sent_at[i] = now_ns();
        send(i);
      }
      int outstanding = n;
      std::vector<epoll_event> events(256);
      uint64_t last = t0;
      while (outstanding > 0 && !stop.load()) {
        int k = epoll_wait(ep.get(), events.data(), static_cast<int>(events.size()), 10);
        if (k < 0) {
          if (errno == EINTR) continue;
          throw_errno("epoll_wait (ping-pong client)");
        }
        const uint64_t now = now_ns();
        if (now - t0 > duration + 5'000'000'000ull) throw std::runtime_error("ping-pong: echoes stopped coming back");
        for (int e = 0; e < k; ++e) {
          int i = static_cast<int>(events[e].data.u32);
          ssize_t got = ::read(clients[i].get(), buf.data(), buf.size());
          if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            throw_errno("read (ping-pong client)");
          }
          if (got == 0) throw std::runtime_error("ping-pong: the echo server closed a connection");
          have[i] += static_cast<std::size_t>(got);
          result.bytes += static_cast<uint64_t>(got);
          if (have[i] < size) continue;
          have[i] -= size;
          waiting[i] = false;
          const uint64_t done = now_ns();
          result.latency.add(done - sent_at[i]);
          ++result.round_trips;
          last = done;
          if (done - t0 < duration) {
            sent_at[i] = done;
            send(i);
          } else {
            --outstanding;
          }
        }
      }
      result.elapsed_ns = last - t0;
      stop = true;  // the echo server's turn to end
    });
    workers.join(poller);
  }
  return result;
}

}  // namespace howfast
