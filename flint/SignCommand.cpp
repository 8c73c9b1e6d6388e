// SignCommand: `flint -i IMG sign --private_key KEY.pem --key_uuid UUID` and the signature lines of
// v and q (image/Fs4Signature: the bytes signed and the section layout, as mstflint's sign).
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/HexString.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "flint/ImageSignature.h"
#include "image/FirmwareImage.h"
#include "image/Fs4Image.h"
#include "image/Fs4Signature.h"
#include "image/SectionType.h"

namespace openflint::flint {
namespace {

constexpr std::uint64_t kMaxKeyFile = 1 << 20;  // a PEM key is a few KiB

Result<RsaKey> load_key(const std::string& path, bool is_private) {
  const std::string what = is_private ? "private key" : "public key";
  OF_ASSIGN(const auto pem, read_input_file(path, kMaxKeyFile, what));
  return is_private ? RsaKey::from_private_pem(pem, path) : RsaKey::from_public_pem(pem, path);
}

std::string describe(const fs4::SignatureInfo& s) {
  std::string text(fs4::to_string(s.state));
  if (s.state == fs4::SignatureState::Signed) text += ", key UUID " + fs4::key_uuid_text(s.key_uuid);
  if (s.state == fs4::SignatureState::Digest) text += s.matches.value_or(false) ? " (SHA-256, matches)" : " (SHA-256, does not match)";
  if (s.state == fs4::SignatureState::Signed && s.matches)
    text += *s.matches ? ", verified with the public key" : ", does not match the public key";
  return text + " (" + std::string(section_type::name(s.type)) + ")";
}

// Replaces the image file by `image` when it still verifies.
Result<void> replace_image(const Options& options, const std::vector<std::uint8_t>& image) {
  auto report = verify_image(image);
  if (!report || !report->bootable())
    return make_error(ErrorCode::Internal, options.image + ": the signed image would not verify");
  return write_output_file(options.image, image, "image");
}

// sign without a key: the SHA-256 digest, as mstflint's sign without --private_key.
int insert_digest_into(const Options& options) {
  auto bytes = read_whole_file(options.image);
  if (!bytes) return report_error(options, bytes.error());
  auto with_digest = fs4::insert_digest(*bytes);
  if (!with_digest) return report_error(options, with_digest.error().with_context(options.image));
  if (auto w = replace_image(options, *with_digest); !w) return report_error(options, w.error());
  if (options.json) {
    cli::print_json({{"ok", true}, {"image", options.image}, {"section", "IMAGE_SIGNATURE_256"}, {"digest", "SHA-256"}});
  } else if (!options.silent) {
    std::cout << "-I- Wrote the SHA-256 digest of " << options.image << " into IMAGE_SIGNATURE_256 (no key)\n";
  }
  return cli::kOk;
}

}  // namespace

Result<SignatureSummary> summarize_signatures(Bytes image, const std::string& public_key_path) {
  SignatureSummary out;
  if (!fs4::probe(image, 0)) return out;
  std::optional<RsaKey> key;
  if (!public_key_path.empty()) {
    OF_ASSIGN(auto loaded, load_key(public_key_path, false));
    key.emplace(std::move(loaded));
  }
  auto read = fs4::read_signatures(image, key ? &*key : nullptr);
  if (!read) {  // a damaged image: v still prints its verify lines, and a key check fails
    out.lines.push_back("Image signature:       not read: " + read.error().message());
    out.key_check_failed = key.has_value();
    return out;
  }
  const auto& sections = *read;
  if (sections.empty()) out.lines.push_back("Image signature:       none (no signature section)");
  bool verified = false;
  for (const auto& s : sections) {
    out.lines.push_back("Image signature:       " + describe(s));
    nlohmann::json j{{"section", section_type::name(s.type)}, {"address", hex_string(s.address)},
                     {"state", fs4::to_string(s.state)}};
    if (s.state == fs4::SignatureState::Signed) j["key_uuid"] = fs4::key_uuid_text(s.key_uuid);
    j["matches"] = s.matches ? nlohmann::json(*s.matches) : nlohmann::json(nullptr);
    out.json.push_back(std::move(j));
    if (key && s.matches == false) out.key_check_failed = true;
    if (key && s.state == fs4::SignatureState::Signed && s.matches == true) verified = true;
  }
  if (key && !verified) out.key_check_failed = true;
  return out;
}

int run_sign(const Options& options) {
  if (!options.device.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument, "sign works on an image file (-i), not on a device"));
  if (options.image.empty() || options.private_key.empty() != options.key_uuid.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument,
                                       "sign needs -i IMAGE, and --private_key KEY.pem with --key_uuid UUID (or neither: "
                                       "the image's SHA-256 digest)"));
  if (options.private_key.empty()) return insert_digest_into(options);
  auto uuid = fs4::parse_key_uuid(options.key_uuid);
  if (!uuid) return report_error(options, uuid.error());
  auto key = load_key(options.private_key, true);
  if (!key) return report_error(options, key.error());
  auto bytes = read_whole_file(options.image);
  if (!bytes) return report_error(options, bytes.error());
  auto signed_image = fs4::sign_image(*bytes, *key, *uuid);
  if (!signed_image) return report_error(options, signed_image.error().with_context(options.image));
  // Check, then write: the file is replaced only by an image that still verifies.
  if (auto w = replace_image(options, *signed_image); !w) return report_error(options, w.error());
  const std::string section = key->bits() == 2048 ? "IMAGE_SIGNATURE_256" : "IMAGE_SIGNATURE_512";
  if (options.json) {
    cli::print_json({{"ok", true}, {"image", options.image}, {"section", section}, {"key_bits", key->bits()},
                     {"key_uuid", fs4::key_uuid_text(*uuid)}});
  } else if (!options.silent) {
    std::cout << "-I- Signed " << options.image << " with a " << key->bits() << "-bit key (" << section
              << ", key UUID " << fs4::key_uuid_text(*uuid) << ")\n";
  }
  return cli::kOk;
}

}  // namespace openflint::flint
