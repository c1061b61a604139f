// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/search_request.h"

#include "engine/core/error.h"

#include <gtest/gtest.h>

namespace wandscope::test {
namespace {

using namespace engine;

TEST(SearchRequest, AlgorithmNamesRoundTrip) {
  for (Algorithm a : allAlgorithms()) EXPECT_EQ(parseAlgorithm(algorithmName(a)), a);
  try {
    parseAlgorithm("bogus");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("bulk-and"), std::string::npos) << e.what();
  }
}

TEST(SearchRequest, AlgorithmsApplyToTheirOperator) {
  EXPECT_TRUE(algorithmSupports(Algorithm::Wand, Operator::Or));
  EXPECT_FALSE(algorithmSupports(Algorithm::Wand, Operator::And));
  EXPECT_TRUE(algorithmSupports(Algorithm::BulkAnd, Operator::And));
  EXPECT_FALSE(algorithmSupports(Algorithm::BulkAnd, Operator::Or));
  EXPECT_TRUE(algorithmSupports(Algorithm::Taat, Operator::Or));
  EXPECT_FALSE(algorithmSupports(Algorithm::Taat, Operator::And));
  EXPECT_TRUE(algorithmSupports(Algorithm::Exhaustive, Operator::And));
  EXPECT_TRUE(algorithmSupports(Algorithm::Auto, Operator::Or));
}

TEST(SearchRequest, OptionsParseAndPrint) {
  SearchOptions o;
  EXPECT_EQ(o.toString(),
            "bulk_and=on,freq_prune=on,candidate_prune=on,lazy_freq=on,window_jump=on,slice_resume=on,"
            "window_skip=on,simd_merge=on,long_windows=on,bulk_or=on,bound_first=on,taat=on,rank_floor=on");
  o.apply("freq_prune=off,lazy_freq=0,window_jump=false,bulk_or=off,bound_first=off,taat=off,rank_floor=off");
  EXPECT_FALSE(o.taat);
  EXPECT_FALSE(o.rankFloor);
  EXPECT_FALSE(o.bulkOr);
  EXPECT_FALSE(o.boundFirst);
  EXPECT_FALSE(o.freqPrune);
  EXPECT_FALSE(o.lazyFreq);
  EXPECT_FALSE(o.windowJump);
  EXPECT_TRUE(o.sliceResume);
  o.apply("freq_prune");
  EXPECT_TRUE(o.freqPrune);
  EXPECT_THROW(o.apply("nonsense=off"), Error);
  EXPECT_THROW(o.apply("freq_prune=maybe"), Error);
  // An unknown name is reported as such whatever its value.
  try {
    o.apply("bar=baz");
    ADD_FAILURE() << "bar=baz accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown optimisation 'bar'"), std::string::npos) << e.what();
  }
  o.apply("");  // no switches: nothing changes
  EXPECT_TRUE(o.freqPrune);
}

// A switch given twice (which value would win?) and empty items (a typo) are refused, naming them.
TEST(SearchRequest, OptionsRefuseDuplicatesAndEmptyItems) {
  auto message = [](const char* spec) {
    SearchOptions o;
    try {
      o.apply(spec);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Usage) << spec;
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message("freq_prune=off,freq_prune=on").find("'freq_prune' is given twice"), std::string::npos);
  EXPECT_NE(message("freq_prune=off,lazy_freq").find("(accepted)"), std::string::npos);
  for (const char* spec : {",", "freq_prune=off,,lazy_freq=off", ",freq_prune=off", "freq_prune=off,"}) {
    EXPECT_NE(message(spec).find("an empty item"), std::string::npos) << spec;
  }
  EXPECT_EQ(SearchOptions::names(),
            "bulk_and, freq_prune, candidate_prune, lazy_freq, window_jump, slice_resume, window_skip, simd_merge, "
            "long_windows, bulk_or, bound_first, taat, rank_floor");
}

// "freq_prune=off, lazy_freq=off" was refused as an unknown switch ' lazy_freq' while a --target
// spec took the same blank: blanks around items, names and values are ignored, but a blank item
// is still an empty one.
TEST(SearchRequest, OptionsIgnoreBlanksAroundItems) {
  SearchOptions o;
  o.apply(" freq_prune=off, lazy_freq = off ,\ttaat\t=\toff ");
  EXPECT_FALSE(o.freqPrune);
  EXPECT_FALSE(o.lazyFreq);
  EXPECT_FALSE(o.taat);
  EXPECT_TRUE(o.windowJump);
  o.apply("freq_prune , lazy_freq");
  EXPECT_TRUE(o.freqPrune);
  EXPECT_TRUE(o.lazyFreq);
  for (const char* spec : {"freq_prune=off, ", "freq_prune=off, ,lazy_freq=off", " "}) {
    try {
      o.apply(spec);
      ADD_FAILURE() << "'" << spec << "' accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("an empty item"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(o.apply("freq_prune=off, freq_prune =on"), Error);
}

}  // namespace
}  // namespace wandscope::test
