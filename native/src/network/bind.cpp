#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "network/network.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

using BC = TcpBulkConfig;
using PC = PingPongConfig;
using SC = HttpServerConfig;
using LC = HttpLoadConfig;
using RC = RequestLoadConfig;

py::dict latency_dict(const Histogram& h) {
  py::dict out;
  out["p50_ns"] = h.percentile(0.50);
  out["p90_ns"] = h.percentile(0.90);
  out["p99_ns"] = h.percentile(0.99);
  out["p999_ns"] = h.percentile(0.999);
  out["max_ns"] = h.max();
  out["mean_ns"] = h.mean();
  std::vector<uint64_t> edges, counts;
  h.nonempty(edges, counts);
  out["hist_edges_ns"] = to_array(std::move(edges));
  out["hist_counts"] = to_array(std::move(counts));
  return out;
}

py::dict run_tcp_bulk(const BC& config) {
  TcpBulkResult r = without_gil([&](Poller& poller) { return tcp_bulk(config, poller); });
  py::dict out;
  out["bytes_sent"] = r.bytes_sent;
  out["bytes_received"] = r.bytes_received;
  out["elapsed_ns"] = r.elapsed_ns;
  return out;
}

py::dict run_ping_pong(const PC& config) {
  PingPongResult r = without_gil([&](Poller& poller) { return tcp_ping_pong(config, poller); });
  py::dict out;
  out["round_trips"] = r.round_trips;
  out["bytes"] = r.bytes;
  out["elapsed_ns"] = r.elapsed_ns;
  out["latency"] = latency_dict(r.latency);
  return out;
}

py::dict run_http_load(const LC& config) {
  HttpLoadResult r = without_gil([&](Poller& poller) { return http_load(config, poller); });
  py::dict out;
  out["requests"] = r.requests;
  out["sent"] = r.sent;
  out["errors"] = r.errors;
  out["bytes"] = r.bytes;
  out["elapsed_ns"] = r.elapsed_ns;
  out["send_window_ns"] = r.send_window_ns;
  out["cpu_ns"] = r.cpu_ns;
  out["latency"] = latency_dict(r.latency);
  return out;
}

py::dict run_request_load(const RC& config) {
  RequestLoadResult r = without_gil([&](Poller& poller) { return request_load(config, poller); });
  py::dict out;
  out["requests"] = r.requests;
  out["elapsed_ns"] = r.elapsed_ns;
  out["latency"] = latency_dict(r.latency);
  return out;
}

}  // namespace

void register_network(py::module_& m) {
  m.attr("HELLO_RESPONSE") = py::bytes(kHelloResponse, kHelloResponseSize);

  bind_function<BC>(m, "tcp_bulk", std::make_tuple(field<BC>("streams", &BC::streams), field<BC>("seconds", &BC::seconds)),
                    std::make_tuple(field<BC>("write_size", &BC::write_size, int64_t{1} << 20)), &run_tcp_bulk,
                    "Stream `write_size`-byte writes over `streams` TCP connections on 127.0.0.1 for `seconds`, "
                    "one sender and one receiver thread per stream. Returns bytes sent, received and the time "
                    "from the first write to the last end of stream.");
  bind_function<PC>(m, "tcp_ping_pong",
                    std::make_tuple(field<PC>("connections", &PC::connections), field<PC>("seconds", &PC::seconds)),
                    std::make_tuple(field<PC>("message_size", &PC::message_size, int64_t{64})), &run_ping_pong,
                    "Bounce a `message_size`-byte message over each of `connections` TCP connections on 127.0.0.1 "
                    "(one epoll echo thread, one epoll client thread) for `seconds`. Returns round trips and their "
                    "latency histogram.");
  bind_function<LC>(
      m, "http_load",
      std::make_tuple(field<LC>("port", &LC::port), field<LC>("connections", &LC::connections),
                      field<LC>("seconds", &LC::seconds)),
      std::make_tuple(field<LC>("threads", &LC::threads, int64_t{1}), field<LC>("rate", &LC::rate, 0.0),
                      field<LC>("grace", &LC::grace, 2.0), field<LC>("host", &LC::host, std::string("127.0.0.1")),
                      field<LC>("path", &LC::path, std::string("/"))),
      &run_http_load,
      "HTTP/1.1 keep-alive GETs to 127.0.0.1:`port` over `connections` connections and `threads` threads for "
      "`seconds`: closed loop when `rate` is 0, else open loop at `rate` requests/s (latency from the intended "
      "send time). Returns counts and the latency of every request as a histogram.");

  bind_function<RC>(
      m, "request_load",
      std::make_tuple(field<RC>("port", &RC::port), field<RC>("connections", &RC::connections),
                      field<RC>("seconds", &RC::seconds), field<RC>("request", &RC::request),
                      field<RC>("reply", &RC::reply)),
      std::make_tuple(), &run_request_load,
      "Closed loop against a server on 127.0.0.1:`port` (memcached): `connections` connections on one epoll "
      "thread, each sending `request` and reading exactly `reply` back (any other byte is an error) for "
      "`seconds`. Returns replies, elapsed ns and the latency histogram.");

  py::class_<HttpServer> server(m, "HttpServer",
                                "HTTP/1.1 keep-alive hello-world server on 127.0.0.1 (epoll, or io_uring with "
                                "mode='io_uring'; one thread per core), "
                                "running from construction until stop() (or the end of a with block).");
  bind_init<SC>(server, std::make_tuple(),
                std::make_tuple(field<SC>("threads", &SC::threads, int64_t{0}), field<SC>("port", &SC::port, int64_t{0}),
                                field<SC>("mode", &SC::mode, std::string("epoll"))),
                [](const SC& c) { return std::make_unique<HttpServer>(c); });
  server.def_property_readonly("port", &HttpServer::port)
      .def_property_readonly("threads", &HttpServer::threads)
      .def_property_readonly("mode", &HttpServer::mode, "epoll or io_uring")
      .def_property_readonly("running", &HttpServer::running)
      .def_property_readonly("served", &HttpServer::served, "requests answered so far")
      .def_property_readonly("connections", &HttpServer::connections, "connections accepted so far")
      .def("stop", [](HttpServer& s) {
        py::gil_scoped_release release;
        s.stop();
      }, "Stop serving: join the threads, close every socket (idempotent).")
      .def("__enter__", [](HttpServer& s) -> HttpServer& { return s; }, py::return_value_policy::reference)
      .def("__exit__", [](HttpServer& s, const py::args&) {
        py::gil_scoped_release release;
        s.stop();
      });
}

}  // namespace howfast
