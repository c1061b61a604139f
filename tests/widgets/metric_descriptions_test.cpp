// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/query_counters.h"
#include "widgets/metric_descriptions.h"

#include <gtest/gtest.h>

namespace wandscope::test {
namespace {

TEST(MetricDescriptions, EveryQueryCounterIsExplained) {
  engine::QueryCounters{}.forEach([](const char* name, std::uint64_t) {
    const QString key = QString::fromLatin1(name);
    EXPECT_FALSE(widgets::metricDescription(key).isEmpty()) << name;
    EXPECT_NE(widgets::metricTitle(key), key) << name;
  });
}

TEST(MetricDescriptions, UnknownKeysGetATitleButNoDescription) {
  EXPECT_TRUE(widgets::metricDescription(u"no_such_metric").isEmpty());
  EXPECT_EQ(widgets::metricTitle(u"no_such_metric"), QStringLiteral("No such metric"));
  for (const char* key : {"df", "idf", "max_score", "blocks", "tf", "doc_length", "contribution", "wall_ms",
                          "cpu_ms", "kth_score", "docs", "terms", "postings", "segments", "analyzer", "k1", "b"}) {
    EXPECT_FALSE(widgets::metricDescription(QString::fromLatin1(key)).isEmpty()) << key;
  }
}

}  // namespace
}  // namespace wandscope::test
