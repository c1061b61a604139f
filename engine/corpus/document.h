// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace wandscope::engine {

// One corpus document as read from a file. `id` is the external id (BEIR "_id", MS MARCO pid).
struct Document {
  std::string id;
  std::string title;
  std::string text;
};

// One query as read from a query file.
struct QueryRecord {
  std::string id;
  std::string text;
};

}  // namespace wandscope::engine
