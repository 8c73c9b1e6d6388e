// DeviceForms: the accepted device-name forms wrapped into a --help paragraph.
#include "cli/DeviceForms.h"

#include <sstream>

#include "fwops/Device.h"

namespace openflint::cli {

std::string device_forms_paragraph(std::string_view lead, std::size_t width) {
  std::istringstream words(std::string(lead) + " " + std::string(accepted_device_forms()) + ".");
  std::string out;
  std::size_t line = 0;
  for (std::string word; words >> word;) {
    if (line > 0 && line + 1 + word.size() > width) {
      out += '\n';
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

}  // namespace openflint::cli
