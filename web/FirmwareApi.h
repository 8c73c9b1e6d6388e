// FirmwareApi: the web console's firmware actions on a served device — an image upload that is
// queried, verified and checked against the device before a burn is offered; the burn, with live
// progress; the board identity (sg/sv); the safe reset. Every one goes through the library call
// the CLIs make (fwops burn_device, edit_device_identity, plan_reset/run_reset) and returns the
// document they print with --json; refused in read-only mode; audited, done or refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.h"
#include "web/DeviceApi.h"
#include "web/WebJobs.h"

namespace openflint {

class FirmwareApi {
 public:
  // `devices` and `jobs` must outlive it; `devices` must outlive `jobs` too (a job still running
  // when the server stops uses it while WebJobs waits for it).
  FirmwareApi(const DeviceApi& devices, WebJobs& jobs) : devices_(devices), jobs_(jobs) {}

  // The body of POST /api/devices/N/image: an image, or an MFA archive (the device's PSID picks
  // the board). It is queried and verified, then checked against the device as a burn would be
  // (the flash read and compared, every refusal made; nothing written). {"ok", "upload", "device",
  // "label", "size", "image": the `flint -i IMAGE q --json` document, "verify": its verify
  // document, "preflight": what the burn will do (reports/BurnDocument.h)}. An image that does
  // not verify, or that the burn would refuse, is the error (InvalidImage, InvalidArgument...)
  // and is not kept.
  [[nodiscard]] Result<nlohmann::json> upload(std::size_t index, std::vector<std::uint8_t> body, const std::string& label,
                                              const std::string& peer);
  // {"upload"} of the same device: the burn as a job (WebJobs), its result the `flint burn --json`
  // document with "device_query", the device's `flint q --json` afterwards. {"ok", "job"}.
  [[nodiscard]] Result<nlohmann::json> start_burn(std::size_t index, const nlohmann::json& request, const std::string& peer);
  // {"guid"?, "mac"?, "vsd"?} (at least one): `flint -d DEV sg GUID [MAC]` / `sv VSD` as a job; its
  // result {"ok", "device", "method", "base_guid", "base_mac", "image_vsd", "device_vsd"}.
  [[nodiscard]] Result<nlohmann::json> start_identity(std::size_t index, const nlohmann::json& request,
                                                      const std::string& peer);
  // `mst reset DEV --no --json`'s plan, and the reset itself (`mst reset -y --json`'s document).
  [[nodiscard]] Result<nlohmann::json> reset_plan(std::size_t index) const;
  [[nodiscard]] Result<nlohmann::json> reset(std::size_t index, const std::string& peer);

  // Kept uploads: the oldest is forgotten beyond this (images are up to a flash's size).
  static constexpr std::size_t kKeptUploads = 4;
  // The largest body POST .../image takes.
  static constexpr std::uint64_t kMaxUploadBytes = std::uint64_t{256} << 20;

 private:
  struct Upload {
    std::size_t device = 0;
    std::string label;
    std::vector<std::uint8_t> image;
    std::uint64_t serial = 0;
  };
  [[nodiscard]] Result<void> writable(std::size_t index, const std::string& who, const std::string& action) const;

  const DeviceApi& devices_;
  WebJobs& jobs_;
  std::mutex mutex_;
  std::map<std::string, Upload> uploads_;
  std::uint64_t next_upload_ = 1;
};

}  // namespace openflint
