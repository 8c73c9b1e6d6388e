// The topology file's spellings (docs/fabric-topology.md "Grammar"): the seeds' own line
// "P1-> MT23108 H-1 P1", blanks around the arrow or none, IBDM's width/speed arrows, quoted
// names, comments; and each malformed spelling refused with its line number.
#include <gtest/gtest.h>

#include <string>

#include "fabric/Topology.h"

namespace openflint {
namespace {

using Port = Topology::Port;

struct Spelling {
  const char* cable;  // the cable line under "MTS2400 S-1"
};

class TopologySpellings : public ::testing::TestWithParam<Spelling> {};

// Each spelling declares S-1 P1 <-> H-1 P1, with H-1 of type MT23108.
TEST_P(TopologySpellings, DeclareTheSameCable) {
  const std::string text = std::string("# header\nMTS2400 S-1\n") + GetParam().cable + "\n";
  auto t = Topology::parse(text);
  ASSERT_TRUE(t) << t.error().message() << "\n" << text;
  ASSERT_EQ(t->cables().size(), 1u);
  EXPECT_EQ(t->peer(Port{"S-1", 1}), (Port{"H-1", 1}));
  ASSERT_NE(t->find_system("H-1"), nullptr);
  EXPECT_EQ(t->find_system("H-1")->type, "MT23108");
  EXPECT_EQ(t->cables()[0].line, 3);
}

INSTANTIATE_TEST_SUITE_P(
    Each, TopologySpellings,
    ::testing::Values(Spelling{"P1-> MT23108 H-1 P1"},          // the seeds' example line
                      Spelling{"P1 -> MT23108 H-1 P1"},         // blanks around the arrow
                      Spelling{"P1->MT23108 H-1 P1"},           // none
                      Spelling{"P1 ->MT23108 H-1 P1"},          //
                      Spelling{"  P1\t->\tMT23108   H-1  P1  "},  // tabs, indentation, trailing blanks
                      Spelling{"P1 -4x-> MT23108 H-1 P1"},      // IBDM's width
                      Spelling{"P1 -4x-2.5G-> MT23108 H-1 P1"}, // width and speed
                      Spelling{"P1-12X-10G->MT23108 H-1 P1"},   //
                      Spelling{"P1 -10G-> MT23108 H-1 P1"},     // speed only
                      Spelling{"P1 -> \"MT23108\" \"H-1\" P1"},  // quoted type and name
                      Spelling{"P1 -> MT23108 H-1 P1 # a comment"},
                      Spelling{"P1 -> MT23108 H-1 P1#no blank before it"},
                      Spelling{"p1 -> MT23108 H-1 p1"},         // lower-case port names
                      Spelling{"P1 -> MT23108 H-1 P1\r"}));     // a Windows line end

TEST(TopologySpellings, QuotedNamesHoldBlanksAndCommentSigns) {
  auto t = Topology::parse("MTS2400 \"leaf 1\"   CFG: b1=x  # c\nP1 -> MT27700 \"rack 2 # node 14\" P1\n");
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->peer(Port{"leaf 1", 1}), (Port{"rack 2 # node 14", 1}));
  EXPECT_EQ(t->find_system("leaf 1")->cfg, "CFG: b1=x");
  // The writer quotes such names, so its text parses back to the same cable.
  const std::string text = t->to_text();
  EXPECT_NE(text.find("\"leaf 1\""), std::string::npos) << text;
  auto back = Topology::parse(text);
  ASSERT_TRUE(back) << back.error().message() << "\n" << text;
  EXPECT_EQ(back->peer(Port{"rack 2 # node 14", 1}), (Port{"leaf 1", 1}));
}

TEST(TopologySpellings, PlainNamesAreWrittenBare) {
  auto t = Topology::parse("MTS2400 S-1\nP1-> MT23108 H-1 P1\n");
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->to_text(), "MTS2400 S-1\nP1 -> MT23108 H-1 P1\n\nMT23108 H-1\nP1 -> MTS2400 S-1 P1\n");
}

struct Malformed {
  const char* text;
  const char* message;  // a part of the error
};

class TopologyMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(TopologyMalformed, NamesTheLineAndTheProblem) {
  auto t = Topology::parse(GetParam().text);
  ASSERT_FALSE(t) << GetParam().text;
  EXPECT_EQ(t.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(t.error().message().find(GetParam().message), std::string::npos) << t.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Each, TopologyMalformed,
    ::testing::Values(
        // the seeds' line before any header: says what is missing
        Malformed{"# c\nP1-> MT23108 H-1 P1\n", "line 2: unknown syntax (expected 'SYSTEM-TYPE SYSTEM-NAME [CFG: ...]'; "
                                                "a cable line must follow its system's header line)"},
        Malformed{"MTS2400 S-1\nP1 - > MT23108 H-1 P1\n", "line 2: unknown syntax (expected 'PORT -> "},
        Malformed{"MTS2400 S-1\nP1 => MT23108 H-1 P1\n", "line 2: unknown syntax"},
        Malformed{"MTS2400 S-1\nP1 -> MT23108 H-1\n", "line 2: unknown syntax"},
        Malformed{"MTS2400 S-1\nP1 -> MT23108 H-1 P1 P2\n", "line 2: unknown syntax"},
        Malformed{"MTS2400 S-1\n\nMTS2400 S-2\nP1 -3x-> MT23108 H-1 P1\n", "line 4: unknown link width 3x in '-3x->'"},
        Malformed{"MTS2400 S-1\nP1 -4x-fastG-> MT23108 H-1 P1\n", "line 2: unknown link speed fastG"},
        Malformed{"MTS2400 S-1\nP1 -4x-10G-4x-> MT23108 H-1 P1\n", "line 2: unknown link annotation '4x'"},
        Malformed{"MTS2400 S-1\nP1 -4x> MT23108 H-1 P1\n", "line 2: unknown arrow"},
        Malformed{"MTS2400 S-1\nP1 -> MT23108 \"H-1 P1\n", "line 2: unterminated quote"},
        Malformed{"MTS2400 \"\"\n", "line 1: empty quoted name"},
        Malformed{"MTS2400 S-1\nP1 -> MT23108 \"H-1\"P1\n", "line 2: a quoted name must be followed by a blank"},
        Malformed{"MTS2400 S\"-1\n", "line 1: a '\"' inside a word"},
        Malformed{"MTS2400 S-1\nP1 -> MT23108 H-1 Q1\n", "line 2: unknown port name (expected P1, P2, ...): Q1"},
        Malformed{"MTS2400 S-1\nP0-> MT23108 H-1 P1\n", "line 2: unknown port name (expected P1, P2, ...): P0"}));

}  // namespace
}  // namespace openflint
