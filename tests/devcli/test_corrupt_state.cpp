// test_corrupt_state: hcasim and flint on a sim whose state.json holds values of the wrong JSON type.
#include <fstream>

#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

class CorruptStateTest : public DevcliTest {
 protected:
  // Creates a device, then replaces one member of its state.json (a JSON pointer) by `value`.
  void create_with(const std::string& pointer, const nlohmann::json& value, const std::string& name = "dev") {
    create("connectx4", {}, name);
    const auto path = dir_ / name / "state.json";
    nlohmann::json j = nlohmann::json::parse(std::ifstream(path), nullptr, false);
    ASSERT_TRUE(j.is_object());
    j[nlohmann::json::json_pointer(pointer)] = value;
    std::ofstream(path, std::ios::trunc) << j.dump(2);
  }
};

TEST_F(CorruptStateTest, WrongTypeIsOneClearBadInputError) {
  create_with("/powered", "yes");
  auto r = hcasim({"show", dev_path()});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // bad input, not an abort (134)
  EXPECT_NE(r.err.find("powered: must be true or false"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("state.json"), std::string::npos) << r.err;
  r = flint({"-d", dev(), "q"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("powered"), std::string::npos) << r.err;
  r = hcasim({"show", dev_path(), "--json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(parse_json(r)["ok"], false);
}

TEST_F(CorruptStateTest, NestedWrongTypesAreNamed) {
  create_with("/boot/booted_address", -1);
  auto r = hcasim({"show", dev_path()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("boot.booted_address"), std::string::npos) << r.err;

  create_with("/faults", nlohmann::json::array({1, 2}), "dev2");
  r = flint({"-d", dev("dev2"), "q"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("faults: must be an object"), std::string::npos) << r.err;

  create_with("/registers/983060", "0x209", "dev3");
  r = flint({"-d", dev("dev3"), "rw", "0xf0014"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("registers.983060"), std::string::npos) << r.err;
}

TEST_F(CorruptStateTest, NotJsonIsBadInputToo) {
  create("connectx4", {});
  std::ofstream(dir_ / "dev" / "state.json", std::ios::trunc) << "{\"format\": ";
  const auto r = hcasim({"show", dev_path()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("not a json object"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint::test
