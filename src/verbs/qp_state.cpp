#include "verbs/qp_state.hpp"

#include <cerrno>

namespace rdmasim::verbs {
namespace {

struct Rule {
  ibv_qp_state from, to;
  unsigned required, optional;
};

constexpr unsigned kAltMig = IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE;
constexpr Rule kRules[] = {
    {IBV_QPS_RESET, IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, 0},
    {IBV_QPS_INIT, IBV_QPS_INIT, 0, IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS},
    {IBV_QPS_INIT, IBV_QPS_RTR,
     IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
         IBV_QP_MIN_RNR_TIMER,
     IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX},
    {IBV_QPS_RTR, IBV_QPS_RTS,
     IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT,
     IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_MIN_RNR_TIMER | kAltMig},
    {IBV_QPS_RTS, IBV_QPS_RTS, 0, IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_MIN_RNR_TIMER | kAltMig},
};

constexpr unsigned kKnownAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

bool values_ok(const ibv_qp_attr& a, unsigned m) {
  if ((m & IBV_QP_PORT) && a.port_num != 1) return false;
  if ((m & IBV_QP_PKEY_INDEX) && a.pkey_index != 0) return false;
  if ((m & IBV_QP_ACCESS_FLAGS) && (a.qp_access_flags & ~kKnownAccess)) return false;
  if ((m & IBV_QP_PATH_MTU) && (a.path_mtu < IBV_MTU_256 || a.path_mtu > IBV_MTU_4096)) return false;
  if ((m & IBV_QP_AV) && (a.ah_attr.dlid == 0 || a.ah_attr.port_num > 1)) return false;
  if ((m & IBV_QP_MIN_RNR_TIMER) && a.min_rnr_timer > 31) return false;
  if ((m & IBV_QP_TIMEOUT) && a.timeout > 31) return false;
  if ((m & IBV_QP_RETRY_CNT) && a.retry_cnt > 7) return false;
  if ((m & IBV_QP_RNR_RETRY) && a.rnr_retry > 7) return false;
  if ((m & IBV_QP_DEST_QPN) && a.dest_qp_num > 0xffffff) return false;
  if ((m & IBV_QP_RQ_PSN) && a.rq_psn > 0xffffff) return false;
  if ((m & IBV_QP_SQ_PSN) && a.sq_psn > 0xffffff) return false;
  return true;
}

}  // namespace

int check_modify(ibv_qp_state cur, const ibv_qp_attr& attr, int mask_in, ibv_qp_state* next) {
  if (mask_in < 0) return EINVAL;
  const auto mask = static_cast<unsigned>(mask_in);
  if ((mask & IBV_QP_CUR_STATE) && attr.cur_qp_state != cur) return EINVAL;
  const ibv_qp_state to = (mask & IBV_QP_STATE) ? attr.qp_state : cur;
  if (to == IBV_QPS_RESET || to == IBV_QPS_ERR) {
    if ((mask & ~(IBV_QP_STATE | IBV_QP_CUR_STATE)) != 0 || !(mask & IBV_QP_STATE)) return EINVAL;
    *next = to;
    return 0;
  }
  for (const Rule& r : kRules) {
    if (r.from != cur || r.to != to) continue;
    const unsigned required = r.required, allowed = r.required | r.optional | IBV_QP_STATE;
    if ((mask & required) != required || (mask & ~allowed) != 0) return EINVAL;
    if (!values_ok(attr, mask)) return EINVAL;
    *next = to;
    return 0;
  }
  return EINVAL;
}

}  // namespace rdmasim::verbs
