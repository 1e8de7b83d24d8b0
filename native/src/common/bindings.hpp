// One registration function per subject; module.cpp calls them all.
#pragma once

#include <pybind11/pybind11.h>

namespace howfast {

void register_probes(pybind11::module_& m);
void register_fsync(pybind11::module_& m);
void register_memtable(pybind11::module_& m);
void register_rocksdb(pybind11::module_& m);
void register_storage(pybind11::module_& m);
void register_sqlite(pybind11::module_& m);
void register_network(pybind11::module_& m);
void register_hashing(pybind11::module_& m);
void register_cpu(pybind11::module_& m);
void register_codecs(pybind11::module_& m);
void register_serial(pybind11::module_& m);

}  // namespace howfast
