// The source diff of the code view (text/diff.h).
#include <gtest/gtest.h>

#include "text/diff.h"

using namespace lessons;
using namespace lessons::app;

TEST(AppDiff, ChangedLinesFollowTheLongestCommonSubsequence) {
    const auto prev = SplitLines("a\nb\nc\nd\n");
    const auto cur = SplitLines("a\nx\nc\n  d\n\ny\n");
    EXPECT_EQ(ChangedLines(prev, cur), (std::vector<bool>{false, true, false, false, false, true}));
    EXPECT_EQ(SplitLines(""), std::vector<std::string>{});
}
