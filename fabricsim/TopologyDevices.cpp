// TopologyDevices: per-node SimDevices from per-model base flash files.
#include "fabricsim/TopologyDevices.h"

#include <fstream>
#include <set>

#include "core/InputFile.h"
#include "devices/DeviceCatalog.h"
#include "sim/SimIdentity.h"

namespace openflint {

namespace fs = std::filesystem;

namespace {

// The base flash of `model`: the image at offset 0, erased (0xff) up to the chip's size.
struct Base {
  fs::path path;
  std::size_t image_bytes = 0;
};

Result<Base> write_base(const sim::SimDevice& blank, const std::string& model, const fs::path& image,
                            const fs::path& dir) {
  const std::size_t size = blank.flash().contents().size();
  std::vector<std::uint8_t> flash(size, 0xff);
  std::size_t image_bytes = 0;
  if (!image.empty()) {
    OF_ASSIGN(const std::vector<std::uint8_t> bytes, read_input_file(image.string(), size, "image for " + model));
    std::copy(bytes.begin(), bytes.end(), flash.begin());
    image_bytes = bytes.size();
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path path = dir / (model + ".flash");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(flash.data()), static_cast<std::streamsize>(flash.size()));
  if (!out) return make_error(ErrorCode::Io, "cannot write the base flash " + path.string());
  return Base{path, image_bytes};
}

}  // namespace

Result<std::unique_ptr<TopologyDevices>> TopologyDevices::build(const SimTopology& topology,
                                                                const TopologyDeviceOptions& options) {
  auto set = std::make_unique<TopologyDevices>();
  const auto& nodes = topology.nodes();
  set->devices_.resize(nodes.size());
  set->handlers_.resize(nodes.size());
  std::map<std::string, Base> bases;
  std::set<std::string> warned;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& node = nodes[i];
    auto info = find_device_by_pci_id(node.device_id);
    if (!info || (*info)->sim_model.empty()) {
      if (warned.insert("id" + std::to_string(node.device_id)).second)
        set->warnings_.push_back("device id " + std::to_string(node.device_id) + " (" + node.name +
                                 ", ...) has no simulator model: no device there");
      continue;
    }
    const std::string model((*info)->sim_model);
    OF_ASSIGN_CTX(auto device, sim::SimDevice::create(**info), node.name);
    auto base = bases.find(model);
    if (base == bases.end()) {
      fs::path image;
      if (const auto it = options.images.find(model); it != options.images.end()) {
        image = it->second;
      } else if (!options.sample_dir.empty() && fs::exists(options.sample_dir / (model + "-old.bin"))) {
        image = options.sample_dir / (model + "-old.bin");
      } else {
        set->warnings_.push_back(model + ": no image given and no sample: its flash is erased (flash recovery)");
      }
      OF_ASSIGN(Base made, write_base(*device, model, image, options.base_dir));
      base = bases.emplace(model, made).first;
    }
    OF_TRY_CTX(device->flash().map_base(base->second.path), node.name);
    if (base->second.image_bytes != 0) {  // an erased flash has no GUIDs to set
      auto own = sim::write_flash_guids(*device, node.guid, base->second.image_bytes);
      if (!own && warned.insert("guid" + model).second)
        set->warnings_.push_back(model + ": GUIDs not set per node (" + own.error().message() + ")");
    }
    device->power_cycle();  // the boot ROM runs over the node's own flash
    set->devices_[i] = SimDeviceResponder::wrap(std::move(device), {});
    set->handlers_[i] = std::make_unique<MadRequestHandler>(set->devices_[i]->backend(), set->devices_[i]->hooks());
    ++set->models_[model];
  }
  return set;
}

std::vector<MadRequestHandler*> TopologyDevices::handlers() const {
  std::vector<MadRequestHandler*> out;
  out.reserve(handlers_.size());
  for (const auto& h : handlers_) out.push_back(h.get());
  return out;
}

std::size_t TopologyDevices::count() const {
  std::size_t n = 0;
  for (const auto& d : devices_) n += d != nullptr;
  return n;
}

}  // namespace openflint
