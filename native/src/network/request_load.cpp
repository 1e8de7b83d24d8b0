// A closed-loop client for a request/response server we did not write (memcached): C
// connections on one epoll thread, each sending the same request and waiting for the
// reply, which must be byte for byte the one given; the next request goes out as soon as
// the reply is complete (as redis-benchmark's clients do). Every reply's latency is kept.
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "network/network.hpp"
#include "network/threads.hpp"

namespace howfast {

namespace {

struct Client {
  OwnedFd fd;
  std::size_t have = 0;  // bytes of the current reply received
  uint64_t sent_at = 0;
};

void check(const RequestLoadConfig& c) {
  require(c.port >= 1 && c.port <= 65535, "port must be 1 to 65535, got " + std::to_string(c.port));
  require(c.connections >= 1 && c.connections <= 4096,
          "connections must be 1 to 4096, got " + std::to_string(c.connections));
  require(c.seconds > 0 && c.seconds <= 600, "seconds must be above 0 and at most 600, got " + std::to_string(c.seconds));
  require(!c.request.empty() && c.request.size() <= 65536, "request must be 1 to 65536 bytes");
  require(!c.reply.empty() && c.reply.size() <= 65536, "reply must be 1 to 65536 bytes");
}

void send_all(int fd, const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t put = ::send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (put < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw_errno("send (request load)");
    }
    off += static_cast<std::size_t>(put);
  }
}

// Reads what arrived on one client; true when its reply is complete (and checked).
bool receive(Client& cl, const std::string& reply, char* buf) {
  const std::size_t want = reply.size() - cl.have;
  ssize_t got = ::read(cl.fd.get(), buf, want);
  if (got < 0) {
    if (errno == EAGAIN || errno == EINTR) return false;
    throw_errno("read (request load)");
  }
  if (got == 0) throw std::runtime_error("request load: the server closed a connection");
  if (std::memcmp(buf, reply.data() + cl.have, static_cast<std::size_t>(got)) != 0)
    throw std::runtime_error("request load: the server's reply differs from the one expected: " +
                             std::string(buf, static_cast<std::size_t>(got)).substr(0, 80));
  cl.have += static_cast<std::size_t>(got);
  return cl.have == reply.size();
}

OwnedFd watch(std::vector<Client>& clients) {
  OwnedFd ep(epoll_create1(EPOLL_CLOEXEC));
  if (ep.get() < 0) throw_errno("epoll_create1");
  for (std::size_t i = 0; i < clients.size(); ++i) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, clients[i].fd.get(), &ev) < 0) throw_errno("epoll_ctl");
  }
  return ep;
}

void drive(const RequestLoadConfig& c, std::vector<Client>& clients, const std::atomic<bool>& stop,
           RequestLoadResult& r) {
  OwnedFd ep = watch(clients);
  std::vector<epoll_event> events(256);
  std::vector<char> buf(c.reply.size());
  const uint64_t duration = static_cast<uint64_t>(c.seconds * 1e9);
  const uint64_t t0 = now_ns();
  uint64_t last = t0;
  for (auto& cl : clients) {
    cl.sent_at = now_ns();
    send_all(cl.fd.get(), c.request);
  }
  std::size_t outstanding = clients.size();
  while (outstanding > 0 && !stop.load()) {
    int k = epoll_wait(ep.get(), events.data(), static_cast<int>(events.size()), 10);
    if (k < 0) {
      if (errno == EINTR) continue;
      throw_errno("epoll_wait (request load)");
    }
    if (now_ns() - t0 > duration + 5'000'000'000ull) throw std::runtime_error("request load: replies stopped coming");
    for (int e = 0; e < k; ++e) {
      Client& cl = clients[events[e].data.u32];
      if (!receive(cl, c.reply, buf.data())) continue;
      const uint64_t done = now_ns();
      r.latency.add(done - cl.sent_at);
      ++r.requests;
      cl.have = 0;
      last = done;
      if (done - t0 >= duration) {
        --outstanding;
        continue;
      }
      cl.sent_at = done;
      send_all(cl.fd.get(), c.request);
    }
  }
  r.elapsed_ns = last - t0;
}

}  // namespace

RequestLoadResult request_load(const RequestLoadConfig& c, Poller& poller) {
  check(c);
  std::vector<Client> clients(static_cast<std::size_t>(c.connections));
  for (auto& cl : clients) {
    cl.fd = connect_loopback(static_cast<int>(c.port));
    set_nonblocking(cl.fd.get());
  }
  RequestLoadResult result;
  std::atomic<bool> stop{false};
  {
    Workers workers(stop);
    workers.spawn([&] { drive(c, clients, stop, result); });
    workers.join(poller);
  }
  return result;
}

}  // namespace howfast
