// The blocking flusher (flush='blocking', one buffer): the writer writes the buffer with
// one pwrite, as the seed's Go memtable does, and waits for it (and for the fdatasync
// when the log needs the flush durable).
#include "memtable/impl.hpp"

namespace howfast {

void Memtable::Impl::flush_blocking(Buffer* b, Segment& seg) {
  recorded_pwrite(rec.get(), *seg.fd, b->io, b->len, static_cast<off_t>(b->offset));
  if (b->need_sync) recorded_fdatasync(rec.get(), *seg.fd);
  b->written = b->len;
  b->synced = true;
  complete(b);
}

}  // namespace howfast
