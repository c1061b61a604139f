// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>

namespace wandscope::widgets {

// The tooltip text of every metric the workbench shows, in one place so each is defined once
// (query counters follow docs/COUNTERS.md). Keys are the snake_case names used by reports and JSON:
// the QueryCounters names ("postings_decoded", ...), term statistics ("df", "idf", "max_score",
// "blocks"), explain columns ("tf", "doc_length", "contribution"), timings ("wall_ms", "cpu_ms")
// and index statistics ("docs", "terms", "postings", ...). Unknown keys give an empty string.
QString metricDescription(QStringView key);

// A short human title for a metric key: "postings_decoded" -> "Postings decoded".
QString metricTitle(QStringView key);

}  // namespace wandscope::widgets
