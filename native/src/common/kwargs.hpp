// A binding's arguments that fill a config struct, written once. Each argument is a Field:
// its Python name, its default (the only place the default Python sees is written) and
// how its value lands in the struct. A binding lists the positional fields and the
// keyword-only fields it takes; bind_function()/bind_init() turn the two lists into the
// Python signature (py::arg / py::arg_v, py::kw_only) and into a C++ function of exactly
// those parameters that fills a Config and calls the subject's code with it.
//
//   const auto kPath = field<IoConfig>("path", &IoConfig::path);
//   const auto kSeed = field<IoConfig>("seed", &IoConfig::seed, uint64_t{1});
//   bind_function<IoConfig>(m, "disk_io", std::make_tuple(kPath), std::make_tuple(kSeed),
//                           [](const IoConfig& c) { ... }, "doc");
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/errors.hpp"

namespace howfast {

namespace py = pybind11;

// Py: the C++ type pybind11 converts the Python value to (it shapes the signature).
// Defaulted: whether the argument has a default (py::arg_v) or is required (py::arg).
template <typename Config, typename Py, bool Defaulted>
struct Field {
  using config_type = Config;
  using py_type = Py;
  const char* name;
  std::function<void(Config&, const Py&)> set;
  std::optional<Py> fallback;  // the default, when Defaulted

  auto arg() const {
    if constexpr (Defaulted) return py::arg_v(name, *fallback);
    else return py::arg(name);
  }
};

// A required argument stored in a member of Config.
template <typename Config, typename T>
Field<Config, T, false> field(const char* name, T Config::*member) {
  return {name, [member](Config& c, const T& v) { c.*member = v; }, std::nullopt};
}

// An argument with a default, stored in a member of Config.
template <typename Config, typename T, typename D>
Field<Config, T, true> field(const char* name, T Config::*member, D fallback) {
  return {name, [member](Config& c, const T& v) { c.*member = v; }, T(fallback)};
}

// A required path argument (a file or directory name): refused with ValueError when it
// holds a NUL byte (require_path), before anything else looks at it.
template <typename Config>
Field<Config, std::string, false> path_field(const char* name, std::string Config::*member) {
  return {name, [member, name](Config& c, const std::string& v) { c.*member = require_path(v, name); }, std::nullopt};
}

// An argument converted before it is stored (a name parsed into an enum, say).
template <typename Config, typename Py, typename Set>
Field<Config, Py, false> converted(const char* name, Set set) {
  return {name, std::move(set), std::nullopt};
}

template <typename Config, typename Py, typename Set, typename D>
Field<Config, Py, true> converted(const char* name, Set set, D fallback) {
  return {name, std::move(set), Py(fallback)};
}

// The same argument for a Config that holds the field's config as member `part`.
template <typename Outer, typename Inner, typename Py, bool Defaulted>
Field<Outer, Py, Defaulted> nested(const Field<Inner, Py, Defaulted>& f, Inner Outer::*part) {
  return {f.name, [set = f.set, part](Outer& o, const Py& v) { set(o.*part, v); }, f.fallback};
}

namespace kwargs_detail {

template <typename... F>
auto args_of(const std::tuple<F...>& fields) {
  return std::apply([](const auto&... f) { return std::make_tuple(f.arg()...); }, fields);
}

// py::arg/py::arg_v of the positional fields, py::kw_only(), those of the keyword fields.
template <typename... P, typename... K>
auto signature(const std::tuple<P...>& positional, const std::tuple<K...>& keywords) {
  return std::tuple_cat(args_of(positional), std::make_tuple(py::kw_only()), args_of(keywords));
}

// A callable of exactly the fields' parameters (positional, then keywords) that fills a
// Config and returns f(config).
template <typename Config, typename... P, typename... K, typename F>
auto filling(const std::tuple<P...>& positional, const std::tuple<K...>& keywords, F f) {
  return [positional, keywords, f](const typename P::py_type&... p, const typename K::py_type&... k) {
    Config c{};
    std::apply([&](const auto&... field) { (field.set(c, p), ...); }, positional);
    std::apply([&](const auto&... field) { (field.set(c, k), ...); }, keywords);
    return f(c);
  };
}

}  // namespace kwargs_detail

// m.def(name, ...) taking the positional fields, then (keyword-only) the keyword fields.
template <typename Config, typename Pos, typename Kw, typename F, typename... Extra>
void bind_function(py::module_& m, const char* name, const Pos& positional, const Kw& keywords, F f,
                   const Extra&... extra) {
  auto fn = kwargs_detail::filling<Config>(positional, keywords, std::move(f));
  std::apply([&](const auto&... a) { m.def(name, fn, a..., extra...); },
             kwargs_detail::signature(positional, keywords));
}

// cls.def(py::init(...)) the same way; f returns the new object (a unique_ptr).
template <typename Config, typename Class, typename Pos, typename Kw, typename F, typename... Extra>
void bind_init(Class& cls, const Pos& positional, const Kw& keywords, F f, const Extra&... extra) {
  auto fn = kwargs_detail::filling<Config>(positional, keywords, std::move(f));
  std::apply([&](const auto&... a) { cls.def(py::init(fn), a..., extra...); },
             kwargs_detail::signature(positional, keywords));
}

}  // namespace howfast
