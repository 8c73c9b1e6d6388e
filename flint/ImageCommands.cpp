// ImageCommands: query, verify and dump-config on the image given with -i.
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "flint/ImageSignature.h"
#include "flint/ImageSource.h"
#include "reports/ImageReport.h"
#include "image/FirmwareImage.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)

int report_error(const Options& options, const Error& error) { return cli::report_error(error, options.json); }

int run_query(const Options& options) {
  auto source = open_image(options);
  if (!source) return report_error(options, source.error());
  auto query = query_image(source->bytes());
  if (!query) return report_error(options, query.error().with_context(source->label()));
  auto signature = summarize_signatures(source->bytes(), options.public_key);
  if (!signature) return report_error(options, signature.error().with_context(source->label()));
  if (options.json) {
    nlohmann::json doc = query_json(*query);
    if (!signature->json.empty()) doc["signatures"] = signature->json;
    doc["ok"] = true;
    cli::print_json(doc);
  } else {
    print_query(std::cout, *query);
    for (const auto& line : signature->lines) std::cout << line << '\n';
  }
  return cli::kOk;
}

int run_verify(const Options& options) {
  auto source = open_image(options);
  if (!source) return report_error(options, source.error());
  auto report = verify_image(source->bytes());
  if (!report) return report_error(options, report.error().with_context(source->label()));
  // FS4: the signature sections' state; with --public_key, a signature that does not verify fails v.
  auto signature = summarize_signatures(source->bytes(), options.public_key);
  if (!signature) return report_error(options, signature.error().with_context(source->label()));
  const bool ok = report->bootable() && !signature->key_check_failed;
  if (options.json) {
    nlohmann::json doc = verify_document(*report, ok);
    if (!signature->json.empty()) doc["signatures"] = signature->json;
    cli::print_json(doc);
  } else {
    print_verify(std::cout, *report);
    for (const auto& line : signature->lines) std::cout << line << '\n';
    if (report->bootable() && signature->key_check_failed)
      std::cout << "-E- The image signature does not verify with " << options.public_key << "\n";
  }
  return ok ? cli::kOk : cli::kFailed;
}

int run_dump_config(const Options& options, const std::string& out_path) {
  if (!options.device.empty()) return run_device_dump_config(options, out_path);
  auto source = open_image(options);
  if (!source) return report_error(options, source.error());
  auto ini = dump_config(source->bytes());
  if (!ini) {
    // The file was read: a missing or damaged INI section is a fault of the image (3), not i/o.
    const Error& e = ini.error();
    const Error why = e.code() == ErrorCode::NotFound ? Error(ErrorCode::InvalidImage, e.message()) : e;
    return report_error(options, why.with_context(source->label()));
  }
  if (out_path.empty()) {
    std::cout << *ini;
    return cli::kOk;
  }
  const Bytes text(reinterpret_cast<const std::uint8_t*>(ini->data()), ini->size());
  if (auto w = write_output_file(out_path, text); !w) return report_error(options, w.error());
  return cli::kOk;
}

}  // namespace openflint::flint
