// ResetMethods: parsing the reset_method selection and running the first selected method.
#include "pcisim/ResetMethods.h"

#include <algorithm>
#include <cerrno>

namespace openflint::pcisim {
namespace {
constexpr std::string_view kFlr = "flr";
constexpr std::string_view kBus = "bus";
}  // namespace

ResetMethods::ResetMethods(bool alone_on_bus) {
  supported_.push_back(kFlr);
  if (alone_on_bus) supported_.push_back(kBus);
  selected_ = supported_;
}

std::string ResetMethods::text() const {
  std::lock_guard guard(mutex_);
  std::string out;
  for (std::string_view m : selected_) {
    if (!out.empty()) out += ' ';
    out += m;
  }
  return out + "\n";
}

int ResetMethods::select(std::string_view text) {
  std::vector<std::string_view> chosen;
  while (!text.empty()) {
    const auto start = text.find_first_not_of(" \t\n");
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const std::string_view word = text.substr(0, text.find_first_of(" \t\n"));
    text.remove_prefix(word.size());
    if (word == "default") {
      chosen = supported_;
      continue;
    }
    const auto it = std::find(supported_.begin(), supported_.end(), word);
    if (it == supported_.end()) return -EINVAL;
    if (std::find(chosen.begin(), chosen.end(), *it) == chosen.end()) chosen.push_back(*it);
  }
  if (chosen.empty()) return -EINVAL;
  std::lock_guard guard(mutex_);
  selected_ = std::move(chosen);
  return 0;
}

std::string_view ResetMethods::reset(sim::SimDevice& device) const {
  std::string_view method;
  {
    std::lock_guard guard(mutex_);
    method = selected_.front();
  }
  if (method == kBus) (void)device.link_reset();  // an FLR leaves the firmware as it runs
  return method;
}

}  // namespace openflint::pcisim
