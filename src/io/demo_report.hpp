// Printing of the progressive demo: the ledgers side by side (a column per step), each
// step's saving and its share of the total, and the toy model's summary lines.
#pragma once

#include <cstdio>

#include "rdmasim/demo.hpp"

namespace rdmasim {

void print_demo(std::FILE* out, const DemoResult& d);

}  // namespace rdmasim
