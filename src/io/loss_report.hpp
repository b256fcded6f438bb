// Reports of goodput under loss: the go-back-N closed form (`rdmasim budget --loss p`) as a
// formula sheet and as JSON.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include <vector>

#include "config/sweeps.hpp"
#include "model/loss_budget.hpp"

namespace rdmasim {

using config::LossRow;

void print_go_back_n(std::FILE* out, const GbnEstimate& e, int rc_timeout);
nlohmann::ordered_json go_back_n_json(const GbnEstimate& e);

/// The cliff: RDMA goodput falls off where TCP's degrades gently.
void print_loss_table(std::FILE* out, const std::vector<LossRow>& rows, int rc_timeout);
nlohmann::ordered_json loss_table_json(const std::vector<LossRow>& rows);

}  // namespace rdmasim
