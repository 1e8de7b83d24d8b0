// The hello-world server's second mode, on io_uring: the same listener, answers and
// counters as the epoll mode (http_server.cpp), one ring per thread. Each thread keeps a
// multishot accept on the shared listener and a multishot receive on each connection it
// accepted, reading into a ring of provided buffers (the kernel picks a free one per
// receive, we hand it back once copied); answers go out as sends of the prebuilt batch,
// and every loop iteration submits what it queued in one call (submit_and_wait).
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <unordered_set>

#include "common/errors.hpp"
#include "network/network.hpp"

#ifdef HOWFAST_HAVE_LIBURING
#include <liburing.h>
#endif

namespace howfast {

#ifndef HOWFAST_HAVE_LIBURING

void check_uring_server() { throw SysError(ENOSYS, "io_uring server: built without liburing", ""); }
void HttpServer::serve_uring(int) {}

#else

namespace {

constexpr unsigned kEntries = 512;
constexpr unsigned kBuffers = 256;  // provided receive buffers per thread (a power of two)
constexpr unsigned kBufferSize = 4096;
constexpr int kGroup = 0;

enum Tag : uint64_t { kAccept = 1, kRecv = 2, kSend = 3, kWake = 4 };

struct UConn {
  int fd = -1;
  std::size_t used = 0;
  uint64_t owed = 0;        // responses not yet sent
  std::size_t partial = 0;  // bytes of the first owed response already sent
  bool receiving = false;   // a multishot receive is armed
  bool sending = false;     // a send is in flight
  bool closing = false;
  char in[kInSize];
};

uint64_t tag(void* p, Tag t) { return reinterpret_cast<uint64_t>(p) | t; }
Tag tag_of(uint64_t data) { return static_cast<Tag>(data & 7); }
UConn* conn_of(uint64_t data) { return reinterpret_cast<UConn*>(data & ~uint64_t{7}); }

// The ring and its provided buffers, released in the destructor.
class URing {
 public:
  URing() {
    io_uring_params p{};
    p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
    int rc = io_uring_queue_init_params(kEntries, &ring, &p);
    if (rc == -EINVAL) {
      p = io_uring_params{};
      rc = io_uring_queue_init_params(kEntries, &ring, &p);
    }
    if (rc < 0) throw SysError(-rc, "io_uring server: io_uring_queue_init", "");
    inited = true;
    setup_buffers();
  }
  ~URing() {
    if (inited) io_uring_queue_exit(&ring);  // cancels every operation still in flight
    if (br) munmap(br, ring_bytes());
    if (pool) munmap(pool, std::size_t{kBuffers} * kBufferSize);
  }
  URing(const URing&) = delete;
  URing& operator=(const URing&) = delete;

  io_uring_sqe* sqe() {
    io_uring_sqe* s = io_uring_get_sqe(&ring);
    if (!s) {
      submit();
      s = io_uring_get_sqe(&ring);
    }
    if (!s) throw SysError(EBUSY, "io_uring server: no free submission slot", "");
    return s;
  }
  void submit() {
    int rc = io_uring_submit(&ring);
    if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) throw SysError(-rc, "io_uring server: submit", "");
  }
  char* buffer(unsigned id) { return pool + std::size_t{id} * kBufferSize; }
  void give_back(unsigned id) {
    io_uring_buf_ring_add(br, buffer(id), kBufferSize, static_cast<unsigned short>(id),
                          io_uring_buf_ring_mask(kBuffers), 0);
    io_uring_buf_ring_advance(br, 1);
  }

  io_uring ring{};

 private:
  static std::size_t ring_bytes() { return sizeof(io_uring_buf) * kBuffers; }
  void setup_buffers() {
    void* r = mmap(nullptr, ring_bytes(), PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (r == MAP_FAILED) throw_errno("io_uring server: mmap (buffer ring)");
    br = static_cast<io_uring_buf_ring*>(r);
    void* b = mmap(nullptr, std::size_t{kBuffers} * kBufferSize, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE,
                   -1, 0);
    if (b == MAP_FAILED) throw_errno("io_uring server: mmap (receive buffers)");
    pool = static_cast<char*>(b);
    io_uring_buf_ring_init(br);
    io_uring_buf_reg reg{};
    reg.ring_addr = reinterpret_cast<uint64_t>(br);
    reg.ring_entries = kBuffers;
    reg.bgid = kGroup;
    int rc = io_uring_register_buf_ring(&ring, &reg, 0);
    if (rc < 0) throw SysError(-rc, "io_uring server: provided buffer rings (IORING_REGISTER_PBUF_RING, Linux 5.19)", "");
    for (unsigned i = 0; i < kBuffers; ++i) give_back(i);
  }

  bool inited = false;
  io_uring_buf_ring* br = nullptr;
  char* pool = nullptr;
};

void arm_accept(URing& r, int listener) {
  io_uring_sqe* s = r.sqe();
  io_uring_prep_multishot_accept(s, listener, nullptr, nullptr, SOCK_CLOEXEC);
  io_uring_sqe_set_data64(s, kAccept);
}

void arm_recv(URing& r, UConn* c) {
  io_uring_sqe* s = r.sqe();
  io_uring_prep_recv_multishot(s, c->fd, nullptr, 0, 0);
  s->flags |= IOSQE_BUFFER_SELECT;
  s->buf_group = kGroup;
  io_uring_sqe_set_data64(s, tag(c, kRecv));
  c->receiving = true;
}

void send_owed(URing& r, UConn* c) {
  if (c->sending || c->owed == 0 || c->closing) return;
  const uint64_t k = std::min<uint64_t>(c->owed, kHelloBatch);
  const std::size_t len = static_cast<std::size_t>(k) * kHelloResponseSize - c->partial;
  io_uring_sqe* s = r.sqe();
  io_uring_prep_send(s, c->fd, hello_batch().data() + c->partial, len, MSG_NOSIGNAL);
  io_uring_sqe_set_data64(s, tag(c, kSend));
  c->sending = true;
}

void arm_wake(URing& r, int wake) {
  io_uring_sqe* s = r.sqe();
  io_uring_prep_poll_add(s, wake, POLLIN);
  io_uring_sqe_set_data64(s, kWake);
}

}  // namespace

void check_uring_server() {
  URing probe;  // a ring with a provided buffer ring, or SysError naming what failed
  io_uring_probe* p = io_uring_get_probe_ring(&probe.ring);
  if (!p) throw SysError(ENOSYS, "io_uring server: io_uring_get_probe_ring", "");
  const bool ok = io_uring_opcode_supported(p, IORING_OP_ACCEPT) && io_uring_opcode_supported(p, IORING_OP_RECV) &&
                  io_uring_opcode_supported(p, IORING_OP_SEND);
  io_uring_free_probe(p);
  if (!ok) throw SysError(ENOSYS, "io_uring server: the kernel lacks accept, recv or send on io_uring", "");
}

void HttpServer::serve_uring(int index) {
  // As the epoll mode: a worker that fails stops serving (its clients see their
  // connections close) and never throws out of the thread.
  std::unordered_set<UConn*> conns;
  Counter& counter = counters_[static_cast<std::size_t>(index)];
  auto forget = [&](UConn* c) {
    if (c->receiving || c->sending) return;  // its last completion frees it
    ::close(c->fd);
    conns.erase(c);
    delete c;
  };
  try {
    URing r;
    arm_accept(r, listener_.get());
    arm_wake(r, wake_.get());
    while (!stopping_.load(std::memory_order_relaxed)) {
      __kernel_timespec tick{0, 100'000'000};
      io_uring_cqe* cqe = nullptr;
      int rc = io_uring_submit_and_wait_timeout(&r.ring, &cqe, 1, &tick, nullptr);
      if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) throw SysError(-rc, "io_uring server: wait", "");
      unsigned head, seen = 0;
      io_uring_for_each_cqe(&r.ring, head, cqe) {
        ++seen;
        const uint64_t data = io_uring_cqe_get_data64(cqe);
        const int res = cqe->res;
        const bool more = cqe->flags & IORING_CQE_F_MORE;
        switch (tag_of(data)) {
          case kWake:
            break;  // the stop flag is checked at the top of the loop
          case kAccept:
            if (res >= 0) {
              UConn* c = new UConn;
              c->fd = res;
              conns.insert(c);
              counter.accepted.fetch_add(1, std::memory_order_relaxed);
              arm_recv(r, c);
            } else if (res != -EAGAIN && res != -EINTR && res != -ECONNABORTED && res != -ENFILE && res != -EMFILE) {
              throw SysError(-res, "io_uring server: accept", "");
            }
            if (!more) arm_accept(r, listener_.get());
            break;
          case kRecv: {
            UConn* c = conn_of(data);
            if (!more) c->receiving = false;
            if (res > 0) {
              const unsigned id = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
              const std::size_t n = static_cast<std::size_t>(res);
              if (c->used + n > kInSize) {
                c->closing = true;  // headers too large: not a client of ours
              } else {
                std::memcpy(c->in + c->used, r.buffer(id), n);
                c->used += n;
                const uint64_t k = take_requests(c->in, c->used);
                c->owed += k;
                counter.served.fetch_add(k, std::memory_order_relaxed);
              }
              r.give_back(id);
              send_owed(r, c);
              if (!more && !c->closing) arm_recv(r, c);
            } else if (res == -ENOBUFS) {
              if (!more) arm_recv(r, c);  // every buffer was taken: try again
            } else {
              c->closing = true;  // end of stream or an error
            }
            if (c->closing) {
              if (c->receiving) shutdown(c->fd, SHUT_RDWR);  // ends the armed receive
              forget(c);
            }
            break;
          }
          case kSend: {
            UConn* c = conn_of(data);
            c->sending = false;
            if (res < 0) {
              c->closing = true;
            } else {
              const std::size_t done = c->partial + static_cast<std::size_t>(res);
              c->owed -= done / kHelloResponseSize;
              c->partial = done % kHelloResponseSize;
              send_owed(r, c);
            }
            if (c->closing) {
              if (c->receiving) shutdown(c->fd, SHUT_RDWR);  // ends the armed receive
              forget(c);
            }
            break;
          }
        }
      }
      io_uring_cq_advance(&r.ring, seen);
    }
    for (UConn* c : conns) ::close(c->fd);  // the ring's exit (URing's destructor) cancels the rest
  } catch (const std::exception&) {
    for (UConn* c : conns) ::close(c->fd);
  }
  for (UConn* c : conns) delete c;
  conns.clear();
}

#endif

}  // namespace howfast
