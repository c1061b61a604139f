// SPDX-License-Identifier: GPL-3.0-or-later
// usageAsBadInput: a query the engine refuses is a bad line of the file that held it (exit 3
// naming file and query), any other error passes unchanged, and the location is only worked out
// when it is needed.
#include "engine/core/error.h"

#include <gtest/gtest.h>

#include <string>

namespace wandscope::test {
namespace {

TEST(UsageAsBadInput, AUsageErrorBecomesABadInputNamingWhere) {
  try {
    engine::usageAsBadInput([] { engine::throwUsage("query has 1,025 distinct terms (at most 1,024)"); },
                            [] { return std::string("q.tsv: query 7 (line 7)"); });
    FAIL() << "nothing thrown";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_STREQ(e.what(), "q.tsv: query 7 (line 7): query has 1,025 distinct terms (at most 1,024)");
  }
}

TEST(UsageAsBadInput, OtherErrorsPassUnchangedAndValuesAreReturned) {
  int whereCalls = 0;
  const auto where = [&] {
    ++whereCalls;
    return std::string("unused");
  };
  for (const auto kind : {engine::ErrorKind::BadInput, engine::ErrorKind::Index, engine::ErrorKind::Io,
                          engine::ErrorKind::Internal}) {
    try {
      engine::usageAsBadInput([&] { throw engine::Error(kind, "as it was"); }, where);
      FAIL() << "nothing thrown";
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), kind);
      EXPECT_STREQ(e.what(), "as it was");
    }
  }
  EXPECT_EQ(engine::usageAsBadInput([] { return 42; }, where), 42);
  EXPECT_EQ(whereCalls, 0);
}

}  // namespace
}  // namespace wandscope::test
