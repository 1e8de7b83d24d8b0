// How fast is the network stack of one machine? Everything here talks to 127.0.0.1 only:
//
// * tcp_bulk: N sender threads stream large writes to N receiver threads (Gbit/s);
// * tcp_ping_pong: C connections each bounce a small message off an epoll echo server;
// * HttpServer: an HTTP/1.1 keep-alive hello-world server, epoll, one thread per core;
// * http_load: an HTTP load generator, C connections over T threads, closed loop (as
//   fast as responses come back, like wrk) or open loop at a fixed rate (like wrk2:
//   latency from the intended send time, so queueing is not hidden).
//
// Latencies go into a fixed log-linear histogram (every request counted, none sampled,
// no allocation while timing): percentiles are exact to within 1/128 of the value.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// The bytes our server answers to every request: what a Go net/http "Hello, World!"
// handler sends (its headers in Go's order), less its Date header (which would make
// every response differ).
extern const char kHelloResponse[];
extern const std::size_t kHelloResponseSize;

// RAII socket / epoll / eventfd descriptor.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd() { reset(); }
  OwnedFd(OwnedFd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  OwnedFd& operator=(OwnedFd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const noexcept { return fd_; }
  void reset() noexcept;

 private:
  int fd_ = -1;
};

// Listening TCP socket on 127.0.0.1:port (0: an ephemeral port); OSError EADDRINUSE
// naming the port when it is taken.
OwnedFd listen_loopback(int port, int backlog = 1024);
int local_port(int fd);
// Blocking connect to 127.0.0.1:port with TCP_NODELAY; OSError ECONNREFUSED naming the
// port when nothing listens there.
OwnedFd connect_loopback(int port);
void set_nonblocking(int fd);

// Log-linear latency histogram in ns: 128 sub-buckets per power of two (error < 1 %).
class Histogram {
 public:
  static constexpr int kSub = 128;
  static constexpr int kBuckets = 64 * kSub;
  Histogram() : counts_(kBuckets, 0) {}
  void add(uint64_t ns) {
    ++counts_[index(ns)];
    ++total_;
    sum_ += ns;
    if (ns > max_) max_ = ns;
  }
  void merge(const Histogram& o);
  uint64_t count() const { return total_; }
  uint64_t max() const { return max_; }
  double mean() const { return total_ ? double(sum_) / double(total_) : 0.0; }
  // The value below which a share q (0..1) of the recorded latencies fall (upper bucket edge,
  // capped at the max seen).
  uint64_t percentile(double q) const;
  // (upper edge ns, count) of every non-empty bucket.
  void nonempty(std::vector<uint64_t>& edges, std::vector<uint64_t>& counts) const;
  static int index(uint64_t ns);
  static uint64_t upper(int index);

 private:
  std::vector<uint64_t> counts_;
  uint64_t total_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
};

// ---- TCP ------------------------------------------------------------------------------

struct TcpBulkConfig {
  int64_t streams{};
  double seconds{};
  int64_t write_size{};
};

struct TcpBulkResult {
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t elapsed_ns = 0;  // first write to the last receiver's end of stream
};

TcpBulkResult tcp_bulk(const TcpBulkConfig& config, Poller& poller);

struct PingPongConfig {
  int64_t connections{};
  double seconds{};
  int64_t message_size{};
};

struct PingPongResult {
  uint64_t round_trips = 0;
  uint64_t bytes = 0;  // bytes echoed back (each round trip: message_size)
  uint64_t elapsed_ns = 0;
  Histogram latency;
};

PingPongResult tcp_ping_pong(const PingPongConfig& config, Poller& poller);

// ---- HTTP server ----------------------------------------------------------------------

struct HttpServerConfig {
  int64_t threads{};  // 0: one per core
  int64_t port{};     // 0: an ephemeral port
  std::string mode;   // "epoll", or "io_uring" (multishot accept and receive, provided buffers)
};

constexpr std::size_t kInSize = 8192;  // a request's headers must fit
constexpr int kHelloBatch = 32;        // responses written at once when pipelined
// kHelloBatch copies of kHelloResponse back to back.
const std::string& hello_batch();
// Counts the complete requests (ending in CRLF CRLF) at the start of in[0, used) and drops them.
uint64_t take_requests(char* in, std::size_t& used);
// Throws SysError naming what this kernel or build lacks for the io_uring server.
void check_uring_server();

class HttpServer {
 public:
  explicit HttpServer(const HttpServerConfig& config);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  int port() const noexcept { return port_; }
  int threads() const noexcept { return static_cast<int>(workers_.size()); }
  uint64_t served() const;       // responses written
  uint64_t connections() const;  // connections accepted
  bool running() const noexcept { return !stopped_; }
  const char* mode() const noexcept { return uring_ ? "io_uring" : "epoll"; }
  void stop();  // idempotent; joins the threads, closes every socket

 private:
  void serve(int index);
  void serve_uring(int index);  // http_server_uring.cpp
  OwnedFd listener_;
  bool uring_ = false;
  OwnedFd wake_;  // eventfd: stop
  int port_ = 0;
  std::vector<std::thread> workers_;
  struct alignas(64) Counter {
    std::atomic<uint64_t> served{0};
    std::atomic<uint64_t> accepted{0};
  };
  std::unique_ptr<Counter[]> counters_;
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;
};

// ---- HTTP load generator --------------------------------------------------------------

struct HttpLoadConfig {
  int64_t port{};
  int64_t connections{};
  int64_t threads{};
  double seconds{};
  double rate{};     // requests per second over all connections; 0: closed loop
  double grace{};    // seconds to wait for outstanding responses after the run
  std::string host;  // Host header
  std::string path;
};

struct HttpLoadResult {
  uint64_t requests = 0;  // responses received complete
  uint64_t sent = 0;      // requests written
  uint64_t errors = 0;    // connections closed or reset by the server, malformed responses
  uint64_t bytes = 0;     // response bytes read
  uint64_t elapsed_ns = 0;
  uint64_t send_window_ns = 0;  // the time during which requests were sent
  uint64_t cpu_ns = 0;          // CPU time the generator's threads used (user + system)
  Histogram latency;
};

HttpLoadResult http_load(const HttpLoadConfig& config, Poller& poller);

// ---- a client for other servers (memcached) ---------------------------------------------

struct RequestLoadConfig {
  int64_t port{};
  int64_t connections{};
  double seconds{};
  std::string request;  // sent again as soon as the reply is in
  std::string reply;    // the exact bytes each request must get back
};

struct RequestLoadResult {
  uint64_t requests = 0;  // replies received complete and equal to the expected one
  uint64_t elapsed_ns = 0;
  Histogram latency;
};

RequestLoadResult request_load(const RequestLoadConfig& config, Poller& poller);

}  // namespace howfast
