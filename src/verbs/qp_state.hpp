// The RC queue pair state machine and the attributes each transition requires
// (man ibv_modify_qp; the kernel's ib_modify_qp_is_ok table).
//
// RESET -> INIT: STATE | PKEY_INDEX | PORT | ACCESS_FLAGS
// INIT  -> RTR : STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER
// RTR   -> RTS : STATE | SQ_PSN | MAX_QP_RD_ATOMIC | RETRY_CNT | RNR_RETRY | TIMEOUT
// plus the optional attributes of each transition, INIT -> INIT and RTS -> RTS modifications,
// and any state -> RESET or ERR with STATE alone. A missing required or a not-allowed attribute,
// an illegal transition, CUR_STATE different from the current state, or a value out of its
// field's range is EINVAL. SQD/SQE are not modelled (EINVAL).
#pragma once

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

/// 0 when `mask`/`attr` is a legal modification of an RC QP in state `cur` (the new state in
/// *next), else EINVAL.
int check_modify(ibv_qp_state cur, const ibv_qp_attr& attr, int mask, ibv_qp_state* next);

}  // namespace rdmasim::verbs
