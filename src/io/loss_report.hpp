// Reports of goodput under loss: the go-back-N closed form (`rdmasim budget --loss p`) as a
// formula sheet and as JSON.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include <vector>

#include "model/loss_budget.hpp"
#include "rdmasim/bandwidth.hpp"

namespace rdmasim {

void print_go_back_n(std::FILE* out, const GbnEstimate& e, int rc_timeout);
nlohmann::ordered_json go_back_n_json(const GbnEstimate& e);

/// One row of `rdmasim bw --loss-sweep`: the simulated RDMA stream and both closed forms.
struct LossRow {
  double loss = 0;
  BwResult rdma;          // simulated (go-back-N, this profile's rc.timeout)
  GbnEstimate rdma_estimate;
  TcpLossEstimate tcp;    // Mathis' closed form (reference)
  BwResult tcp_sim;       // simulated packet-level TCP (sim/tcp_connection.hpp), same messages
};
/// The cliff: RDMA goodput falls off where TCP's degrades gently.
void print_loss_table(std::FILE* out, const std::vector<LossRow>& rows, int rc_timeout);
nlohmann::ordered_json loss_table_json(const std::vector<LossRow>& rows);

}  // namespace rdmasim
