// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/request_record.h"

namespace wandscope::engine {

const char* requestOutcomeName(RequestOutcome outcome) noexcept {
  switch (outcome) {
    case RequestOutcome::Ok:
      return "ok";
    case RequestOutcome::Error:
      return "error";
    case RequestOutcome::Shed:
      return "shed";
    case RequestOutcome::NotRun:
      return "not_run";
  }
  return "unknown";
}

}  // namespace wandscope::engine
