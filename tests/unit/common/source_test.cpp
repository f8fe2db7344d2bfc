// Unit tests of the source manager: line/column bookkeeping is what every
// diagnostic's `file:line:col` rests on.
#include <gtest/gtest.h>

#include "common/source.h"

namespace modeaudit {
namespace {

TEST(SourceManager, LocatesOffsetsAsOneBasedLineAndColumn) {
    SourceManager sm;
    auto id = sm.add("m.mo", "ab\ncde\n\nf");
    EXPECT_EQ(id, 1u);
    SourceLocation a = sm.locate(id, 0);
    EXPECT_EQ(a.line, 1u);
    EXPECT_EQ(a.column, 1u);
    SourceLocation d = sm.locate(id, 4);  // 'd'
    EXPECT_EQ(d.line, 2u);
    EXPECT_EQ(d.column, 2u);
    SourceLocation f = sm.locate(id, 8);  // 'f' after an empty line
    EXPECT_EQ(f.line, 4u);
    EXPECT_EQ(f.column, 1u);
    EXPECT_EQ(f.offset, 8u);
}

TEST(SourceManager, ReturnsLineTextWithoutNewlineOrCarriageReturn) {
    SourceManager sm;
    auto id = sm.add("m.mo", "first\r\nsecond\nthird");
    EXPECT_EQ(sm.line_text(id, 1), "first");
    EXPECT_EQ(sm.line_text(id, 2), "second");
    EXPECT_EQ(sm.line_text(id, 3), "third");
    EXPECT_EQ(sm.line_text(id, 4), "");
}

TEST(SourceManager, LoadReportsTheSystemReasonForAMissingFile) {
    SourceManager sm;
    std::string error;
    EXPECT_FALSE(sm.load("/nonexistent/dir/model.mo", error).has_value());
    EXPECT_EQ(error, "No such file or directory");
}

TEST(SourceManager, KeepsSeveralFilesApart) {
    SourceManager sm;
    auto a = sm.add("a.mo", "x");
    auto b = sm.add("b.mo", "yy\nz");
    EXPECT_NE(a, b);
    EXPECT_EQ(sm.path(a), "a.mo");
    EXPECT_EQ(sm.contents(b), "yy\nz");
    EXPECT_EQ(sm.locate(b, 3).line, 2u);
}

}  // namespace
}  // namespace modeaudit
