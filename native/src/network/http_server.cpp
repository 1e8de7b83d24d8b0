// The HTTP/1.1 keep-alive hello-world server: one listening socket on 127.0.0.1, one
// thread per core, each with its own epoll set holding the listener (EPOLLEXCLUSIVE, so
// one thread wakes per new connection) and the connections it accepted. Every request
// (headers ending in an empty line; pipelined requests too) gets kHelloResponse.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <unordered_set>

#include "common/errors.hpp"
#include "network/network.hpp"

namespace howfast {

namespace {

constexpr int kBatch = kHelloBatch;  // responses written per write() when pipelined

struct Conn {
  int fd = -1;
  std::size_t used = 0;
  uint64_t owed = 0;     // responses not yet written in full
  std::size_t partial = 0;  // bytes of the first owed response already written
  char in[kInSize];
};

const std::string& batch() { return hello_batch(); }

uint64_t take_requests(Conn& c) { return howfast::take_requests(c.in, c.used); }

// Writes what is owed; false when the socket is full (wait for EPOLLOUT).
bool flush(Conn& c) {
  const std::string& b = batch();
  while (c.owed) {
    uint64_t k = std::min<uint64_t>(c.owed, kBatch);
    std::size_t len = static_cast<std::size_t>(k) * kHelloResponseSize - c.partial;
    ssize_t put = ::send(c.fd, b.data() + c.partial, len, MSG_NOSIGNAL);
    if (put < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
      throw_errno("send (http server)");
    }
    std::size_t done = c.partial + static_cast<std::size_t>(put);
    c.owed -= done / kHelloResponseSize;
    c.partial = done % kHelloResponseSize;
  }
  return true;
}

}  // namespace

HttpServer::HttpServer(const HttpServerConfig& config) {
  int threads = static_cast<int>(config.threads);
  require(config.threads >= 0 && config.threads <= 256,
          "threads must be 0 (one per core) to 256, got " + std::to_string(config.threads));
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  require(config.mode == "epoll" || config.mode == "io_uring",
          "mode must be 'epoll' or 'io_uring', got '" + config.mode + "'");
  uring_ = config.mode == "io_uring";
  if (uring_) check_uring_server();  // OSError naming what the kernel lacks, before any thread
  listener_ = listen_loopback(static_cast<int>(config.port), 4096);
  // epoll accepts until EAGAIN; io_uring must find a blocking listener, or its accept would
  // answer EAGAIN at once instead of waiting for the next connection
  if (!uring_) set_nonblocking(listener_.get());
  port_ = local_port(listener_.get());
  wake_ = OwnedFd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (wake_.get() < 0) throw_errno("eventfd");
  counters_ = std::make_unique<Counter[]>(static_cast<std::size_t>(threads));
  try {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this, i] { serve(i); });
  } catch (...) {
    stop();
    throw;
  }
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::stop() {
  if (stopped_) return;
  stopping_ = true;
  uint64_t one = 1;
  if (wake_.get() >= 0) (void)!::write(wake_.get(), &one, sizeof one);
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  listener_.reset();
  stopped_ = true;
}

uint64_t HttpServer::served() const {
  uint64_t n = 0;
  for (std::size_t i = 0; i < workers_.size(); ++i) n += counters_[i].served.load(std::memory_order_relaxed);
  return n;
}

uint64_t HttpServer::connections() const {
  uint64_t n = 0;
  for (std::size_t i = 0; i < workers_.size(); ++i) n += counters_[i].accepted.load(std::memory_order_relaxed);
  return n;
}

// kHelloBatch copies of the response, back to back: pipelined answers in one write().
const std::string& hello_batch() {
  static const std::string b = [] {
    std::string s;
    for (int i = 0; i < kHelloBatch; ++i) s.append(kHelloResponse, kHelloResponseSize);
    return s;
  }();
  return b;
}

uint64_t take_requests(char* in, std::size_t& used) {
  uint64_t n = 0;
  std::size_t start = 0;
  for (;;) {
    void* end = memmem(in + start, used - start, "\r\n\r\n", 4);
    if (!end) break;
    start = static_cast<std::size_t>(static_cast<char*>(end) - in) + 4;
    ++n;
  }
  if (start) {
    std::memmove(in, in + start, used - start);
    used -= start;
  }
  return n;
}

void HttpServer::serve(int index) {
  if (uring_) return serve_uring(index);
  // A worker that fails stops serving; the load generator then sees the connections
  // close (an error it counts and reports). It never throws out of the thread.
  std::unordered_set<Conn*> conns;
  OwnedFd ep;
  Counter& counter = counters_[static_cast<std::size_t>(index)];
  auto close_conn = [&](Conn* c) {
    // Leave the epoll set before closing: close() alone removes the socket from it only when
    // no other descriptor refers to it, and a child process forked at that moment (a tool
    // started with subprocess) holds copies of every descriptor until it execs. The set
    // would then still report events for a connection whose state was freed.
    epoll_ctl(ep.get(), EPOLL_CTL_DEL, c->fd, nullptr);
    ::close(c->fd);
    conns.erase(c);
    delete c;
  };
  try {
    ep = OwnedFd(epoll_create1(EPOLL_CLOEXEC));
    if (ep.get() < 0) throw_errno("epoll_create1");
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLEXCLUSIVE;
    ev.data.ptr = nullptr;  // the listener
    if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, listener_.get(), &ev) < 0) throw_errno("epoll_ctl(listener)");
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.ptr = this;  // the stop signal
    if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, wake_.get(), &wake) < 0) throw_errno("epoll_ctl(eventfd)");
    epoll_event events[128];
    while (!stopping_.load(std::memory_order_relaxed)) {
      int k = epoll_wait(ep.get(), events, 128, 100);
      if (k < 0) {
        if (errno == EINTR) continue;
        throw_errno("epoll_wait (http server)");
      }
      for (int e = 0; e < k; ++e) {
        void* tag = events[e].data.ptr;
        if (tag == this) break;
        if (tag == nullptr) {
          for (;;) {
            int fd = accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
              if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
              if (errno == ECONNABORTED) continue;
              throw_errno("accept (http server)");
            }
            Conn* c = new Conn;
            c->fd = fd;
            conns.insert(c);
            epoll_event cev{};
            cev.events = EPOLLIN | EPOLLRDHUP;
            cev.data.ptr = c;
            if (epoll_ctl(ep.get(), EPOLL_CTL_ADD, fd, &cev) < 0) {
              close_conn(c);
              throw_errno("epoll_ctl(connection)");
            }
            counter.accepted.fetch_add(1, std::memory_order_relaxed);
          }
          continue;
        }
        Conn* c = static_cast<Conn*>(tag);
        bool alive = true;
        if (events[e].events & EPOLLIN) {
          for (;;) {
            if (c->used == kInSize) {  // headers too large: not a client of ours
              alive = false;
              break;
            }
            const std::size_t space = kInSize - c->used;
            ssize_t got = ::recv(c->fd, c->in + c->used, space, 0);
            if (got < 0) {
              if (errno == EINTR) continue;
              if (errno != EAGAIN && errno != EWOULDBLOCK) alive = false;
              break;
            }
            if (got == 0) {
              alive = false;
              break;
            }
            c->used += static_cast<std::size_t>(got);
            uint64_t n = take_requests(*c);
            c->owed += n;
            counter.served.fetch_add(n, std::memory_order_relaxed);
            if (static_cast<std::size_t>(got) < space) break;  // drained; epoll says when more comes
          }
        }
        if (alive && (events[e].events & (EPOLLERR | EPOLLHUP))) alive = false;
        if (alive) {
          bool was_waiting = c->owed > 0 && (events[e].events & EPOLLOUT);
          bool done;
          try {
            done = flush(*c);
          } catch (const SysError&) {
            done = true;
            alive = false;  // the peer went away mid-answer (EPIPE, ECONNRESET)
          }
          if (alive && (!done || was_waiting)) {
            epoll_event cev{};
            cev.events = EPOLLIN | EPOLLRDHUP | (done ? 0u : static_cast<uint32_t>(EPOLLOUT));
            cev.data.ptr = c;
            if (epoll_ctl(ep.get(), EPOLL_CTL_MOD, c->fd, &cev) < 0) throw_errno("epoll_ctl(mod)");
          }
        }
        if (!alive) close_conn(c);
      }
    }
  } catch (const std::exception&) {
    // fall through: close what this worker holds
  }
  for (Conn* c : conns) {
    ::close(c->fd);
    delete c;
  }
  conns.clear();
}

}  // namespace howfast
