// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/corpus_reader.h"
#include "engine/corpus/document.h"

#include <filesystem>
#include <vector>

namespace wandscope::engine {

// Reads a whole query file: BEIR JSON lines {"_id": str, "text": str} or TSV id<TAB>text, told
// apart by the first non-blank character of the first non-empty line ('{' means JSON lines).
// Plain or .gz. Errors name file, line and field; duplicate query ids are an error
// ("queries.tsv:7: duplicate query id 42"). Empty lines are skipped.
std::vector<QueryRecord> readQueries(const std::filesystem::path& path,
                                     BadLinePolicy policy = BadLinePolicy::Stop,
                                     std::uint64_t* skippedLines = nullptr);

}  // namespace wandscope::engine
