// Human-readable reports in the look of the tools people already use: perftest's header
// block and latency table (format strings copied from perftest),
// followed by rdmasim's ledger tables, and the budget's formula sheet.
#pragma once

#include <array>
#include <cstdio>
#include <vector>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim {

void print_lat_header(std::FILE* out, const LatResult& r);
/// perftest's header block for a latency ("Latency") or bandwidth ("BW") test.
void print_test_header(std::FILE* out, const LatConfig& c, const ResolvedToggles& toggles,
                       const std::vector<std::string>& routes, const char* kind, int tx_depth, int qps = 1,
                       bool bidirectional = false, int outstanding_reads = 16, int cq_mod = 1);
/// perftest's BW table (MiB/s, or Gb/s with `gbits`), then goodput against the ideal.
void print_bw_table(std::FILE* out, const std::vector<BwResult>& rows, bool gbits);
/// bw --post-list / --cq-mod: doorbells and CQEs, the client's cost per message on each of its
/// servers (what bounds the message rate) and the mean ledger of a WQE from its list's post.
void print_batching(std::FILE* out, const std::vector<BwResult>& rows);
/// A QP that completed with an error, as ib_write_bw reports it ("Completion with error at
/// client", the ibv_wc_status, scnt/ccnt), then the RC and fabric counters.
void print_completion_error(std::FILE* out, const BwConfig& b, const BwResult& r);
/// Connection setup in the timed loop (or the QP pool's cost) and the receiving application's
/// completions, when the run modelled them.
void print_bw_connections_and_receiver(std::FILE* out, const std::vector<BwResult>& rows);
void print_lat_table(std::FILE* out, const std::vector<LatResult>& rows);
/// One row per category with its mean in usec and its share; rows add up to t_avg.
void print_ledger(std::FILE* out, const LatResult& r);
/// One size's ledger in picoseconds per reported sample (mean for a run, exact for a budget).
struct LedgerRow {
  Bytes size{};
  std::array<double, kCategoryCount> ps{};
  double total_ps = 0;
};
LedgerRow ledger_row(const LatResult& r);
LedgerRow ledger_row(const BudgetResult& b);
std::vector<LedgerRow> ledger_rows(const std::vector<LatResult>& rows);
/// One row per size, one column per category that is non-zero anywhere (for -a).
void print_ledger_matrix(std::FILE* out, const char* title, const std::vector<LedgerRow>& rows);
void print_budget(std::FILE* out, const BudgetResult& b);
/// The budget's critical path stage by stage (`budget --stages`).
void print_critical_path(std::FILE* out, const BudgetResult& b);

/// perftest's name of the verb ("RDMA_Write", "Send", "RDMA_Read").
const char* perftest_verb(TestKind t);

}  // namespace rdmasim
