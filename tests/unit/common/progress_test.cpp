#include "common/progress.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace modeaudit {
namespace {

struct Recorder {
    std::vector<std::string> writes;
    double now = 0;
};

TEST(Progress, RedrawsAtMostTenTimesASecond) {
    Recorder r;
    {
        Progress p("work", 2000, true, [&r](const std::string& s) { r.writes.push_back(s); }, [&r] { return r.now; });
        for (int i = 0; i < 2000; ++i) {  // 2000 items over 2 s, one each millisecond
            p.advance();
            r.now += 0.001;
        }
        // Ten a second over 2 s, the first and the last: at most 22 lines.
        EXPECT_LE(r.writes.size(), 22u);
        EXPECT_GE(r.writes.size(), 19u);
        EXPECT_EQ(r.writes.front(), "\r\033[Kwork: 1/2000");
        EXPECT_EQ(r.writes.back(), "\r\033[Kwork: 2000/2000");  // the end is always shown
    }
    EXPECT_EQ(r.writes.back(), "\r\033[K");  // cleared when done
}

TEST(Progress, SlowItemsAreEachShown) {
    Recorder r;
    Progress p("work", 0, true, [&r](const std::string& s) { r.writes.push_back(s); }, [&r] { return r.now; });
    for (int i = 0; i < 5; ++i) {
        p.advance("item");
        r.now += 0.5;
    }
    ASSERT_EQ(r.writes.size(), 5u);
    EXPECT_EQ(r.writes[4], "\r\033[Kwork: 5 item");
}

TEST(Progress, DisabledWritesNothing) {
    Recorder r;
    {
        Progress p("work", 3, false, [&r](const std::string& s) { r.writes.push_back(s); }, [&r] { return r.now; });
        p.advance();
        p.finish();
    }
    EXPECT_TRUE(r.writes.empty());
}

}  // namespace
}  // namespace modeaudit
