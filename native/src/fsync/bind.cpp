#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "fsync/fsync.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

// The arguments of durable_writes() and group_commit(), each written once; the defaults
// are the ones Python sees.
using DC = DurableWriteConfig;
using GC = GroupCommitConfig;

template <typename Config>
auto sync_field() {
  return converted<Config, std::string>(
      "sync", [](Config& c, const std::string& v) { c.sync = parse_sync_mode(v); }, "fsync");
}

auto durable_positional() {
  return std::make_tuple(path_field<DC>("path", &DC::path), field<DC>("block_size", &DC::block_size),
                         field<DC>("count", &DC::count));
}

auto durable_keywords() {
  return std::make_tuple(
      sync_field<DC>(), field<DC>("direct", &DC::direct, false),
      converted<DC, std::string>("layout", [](DC& c, const std::string& v) { c.layout = parse_layout(v); }, "append"),
      field<DC>("seed", &DC::seed, 1));
}

auto group_positional() {
  return std::make_tuple(path_field<GC>("path", &GC::path), field<GC>("record_size", &GC::record_size),
                         field<GC>("records_per_sync", &GC::records_per_sync), field<GC>("syncs", &GC::syncs));
}

auto group_keywords() { return std::make_tuple(sync_field<GC>(), field<GC>("seed", &GC::seed, 1)); }

py::dict run_durable_writes(const DurableWriteConfig& config) {
  DurableWriteResult r = without_gil([&](Poller& poller) { return durable_writes(config, poller); });
  py::dict out;
  out["latency_ns"] = to_array(std::move(r.latency_ns));
  out["sync_ns"] = to_array(std::move(r.sync_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["bytes"] = r.bytes;
  out["alignment"] = r.alignment;
  return out;
}

py::dict run_group_commit(const GroupCommitConfig& config) {
  GroupCommitResult r = without_gil([&](Poller& poller) { return group_commit(config, poller); });
  py::dict out;
  out["batch_ns"] = to_array(std::move(r.batch_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["records"] = r.records;
  out["bytes"] = r.bytes;
  return out;
}

}  // namespace

void register_fsync(py::module_& m) {
  bind_function<DC>(m, "durable_writes", durable_positional(), durable_keywords(), &run_durable_writes,
        "Write `count` blocks of `block_size` bytes to a new file at `path`, making each durable per "
        "`sync` ('none', 'fsync', 'fdatasync', 'dsync' = O_DSYNC), optionally with O_DIRECT. Returns "
        "per-operation latencies (ns) and totals. The file is left for the caller to verify and remove.");
  bind_function<GC>(m, "group_commit", group_positional(), group_keywords(), &run_group_commit,
        "Append `records_per_sync` records, then one sync; repeat `syncs` times. Returns per-batch latencies.");
}

}  // namespace howfast
