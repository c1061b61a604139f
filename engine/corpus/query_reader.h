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
// ("queries.tsv:7: duplicate query id 42"). An id holding an ASCII control character other than
// the blanks (NUL, ESC, DEL, ...) is a bad line, its id shown escaped: 'q.jsonl:3: query id
// "q\u001b[31m" contains a control character (byte 0x1B at byte 2 of it)'; ids with blanks are
// read (a TREC run refuses them when it is written, a dump holds them). Empty lines are skipped.
std::vector<QueryRecord> readQueries(const std::filesystem::path& path,
                                     BadLinePolicy policy = BadLinePolicy::Stop,
                                     std::uint64_t* skippedLines = nullptr);

}  // namespace wandscope::engine
