// DeviceForms: the accepted device-name forms (fwops' transport table) as a paragraph of --help.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace openflint::cli {

// `lead` followed by every accepted device-name form (fwops/Device.h accepted_device_forms(),
// generated from the transport table) and a full stop, wrapped at `width` columns.
[[nodiscard]] std::string device_forms_paragraph(std::string_view lead, std::size_t width = 100);

}  // namespace openflint::cli
