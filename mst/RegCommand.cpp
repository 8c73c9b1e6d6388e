// RegCommand: `mst reg DEV --reg-name NAME [--get | --set F=V,...]` — an access register by field name, as mstreg shows it.
#include <algorithm>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/Confirm.h"
#include "cli/JsonOutput.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "fwops/Device.h"
#include "fwops/registers/RegisterByName.h"
#include "fwops/access/StaleLocks.h"
#include "mst/Commands.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

struct RegArgs {
  std::string device;
  std::string reg_name;
  std::string indexes;
  std::string set;
  std::string sysfs;
  std::string show_reg_name;  // --show-reg NAME (else --reg-name names it)
  bool get = false;
  bool show_reg = false;
  bool show_regs = false;
  bool yes = false;
  bool no = false;
};

std::string pad(const std::string& s, std::size_t width) { return s + std::string(width > s.size() ? width - s.size() : 0, ' '); }

// mstreg's table: "Field Name | Data", names padded to the longest + 3.
void print_values(std::ostream& out, const std::vector<FieldValue>& values) {
  std::size_t width = 10;
  for (const auto& v : values) width = std::max(width, v.field->name.size());
  width += 3;
  out << pad("Field Name", width) << " | " << pad("Data", 8) << '\n' << std::string(width + 14, '=') << '\n';
  for (const auto& v : values) out << pad(std::string(v.field->name), width) << " | " << hex_dword(v.value) << '\n';
  out << std::string(width + 14, '=') << '\n';
}

json values_json(const std::vector<FieldValue>& values) {
  json fields = json::array();
  for (const auto& v : values) fields.push_back({{"name", std::string(v.field->name)}, {"value", v.value}});
  return fields;
}

int show_layout(const RegisterLayout& layout, const Common& common) {
  if (common.json) {
    json fields = json::array();
    for (const auto& f : layout.fields)
      fields.push_back({{"name", std::string(f.name)}, {"address", f.address}, {"offset", f.lsb}, {"size", f.width},
                        {"access", std::string(to_string(f.access))}});
    cli::print_json(json{{"register", std::string(layout.name)}, {"id", hex_string(layout.id)}, {"size", layout.size},
                      {"fields", fields}});
    return cli::kOk;
  }
  std::cout << "Field Name                      | Address (Bytes) | Offset (Bits) | Size (Bits) | Access\n";
  for (const auto& f : layout.fields)
    std::cout << pad(std::string(f.name), 32) << "| " << pad(hex_dword(f.address), 16) << "| " << pad(std::to_string(f.lsb), 14)
              << "| " << pad(std::to_string(f.width), 12) << "| " << to_string(f.access) << '\n';
  return cli::kOk;
}

int run_reg_command(const RegArgs& a, const Common& common) {
  if (a.show_regs) {
    json names = json::array();
    for (const auto& r : register_layouts()) names.push_back(std::string(r.name));
    if (common.json) cli::print_json(json{{"registers", names}});
    else for (const auto& r : register_layouts()) std::cout << r.name << '\n';
    return cli::kOk;
  }
  if (a.show_reg && !a.show_reg_name.empty() && !a.reg_name.empty() && a.show_reg_name != a.reg_name)
    return cli::report_error(Error(ErrorCode::InvalidArgument, "--show-reg " + a.show_reg_name + " and --reg-name " +
                                                                   a.reg_name + " name different registers"),
                             common.json);
  const std::string& register_name = a.show_reg && !a.show_reg_name.empty() ? a.show_reg_name : a.reg_name;
  if (register_name.empty())
    return cli::report_error(Error(ErrorCode::InvalidArgument, "name a register: --reg-name NAME (or --show-reg NAME)"),
                             common.json);
  auto layout = find_register_layout(register_name);
  if (!layout) return cli::report_error(Error(ErrorCode::InvalidArgument, layout.error().message()), common.json);
  if (a.show_reg) return show_layout(**layout, common);
  if (a.get == !a.set.empty())
    return cli::report_error(Error(ErrorCode::InvalidArgument, "give one of --get and --set"), common.json);
  auto indexes = parse_field_list(a.indexes);
  if (!indexes) return cli::report_error(indexes.error().with_context("--indexes"), common.json);
  auto fields = parse_field_list(a.set);
  if (!fields) return cli::report_error(fields.error().with_context("--set"), common.json);
  if (auto ok = check_settable(**layout, *fields); !ok) return cli::report_error(ok.error(), common.json);
  DeviceOpenOptions open_options;
  if (!a.sysfs.empty()) open_options.sysfs_root = a.sysfs;
  auto device = open_device(a.device, open_options);
  if (!device) return cli::report_error(device.error(), common.json);
  auto port = device->register_port();
  if (!port) return cli::report_error(port.error().with_context(a.device), common.json);  // with its advice
  if (a.get) {
    auto values = get_register(**port, **layout, *indexes);
    if (!values) return cli::report_error(with_stale_lock_advice(*device, values.error().with_context(a.device)), common.json);
    if (common.json) {
      cli::print_json(json{{"device", a.device}, {"register", std::string((*layout)->name)}, {"fields", values_json(*values)}});
    } else {
      print_values(std::cout, *values);
    }
    return cli::kOk;
  }
  std::string what;
  for (const auto& [name, value] : *fields) what += (what.empty() ? "" : ", ") + name + "=" + hex_string(value);
  if (!cli::confirm("Send register " + std::string((*layout)->name) + " to " + a.device + " with " + what + "?", {a.yes, a.no})) {
    (void)cli::report_error(Error(ErrorCode::InvalidArgument, "register write to " + a.device + " declined: nothing was sent"), common.json);
    return cli::kDeclined;
  }
  auto sent = set_register(**port, **layout, *indexes, *fields);
  if (!sent) return cli::report_error(with_stale_lock_advice(*device, sent.error().with_context(a.device)), common.json);
  if (auto saved = device->commit(); !saved) return cli::report_error(saved.error(), common.json);
  if (common.json) {
    cli::print_json(json{{"ok", true}, {"device", a.device}, {"register", std::string((*layout)->name)}, {"sent", values_json(*sent)}});
  } else {
    print_values(std::cout, *sent);
  }
  return cli::kOk;
}

}  // namespace

void add_reg_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static RegArgs args;
  auto* reg = app.add_subcommand("reg", "read or write an access register of the running firmware by field name "
                                        "(MGIR, MFRL, MNVQC, MNVGC, MTMP, MTRC_CAP, ...: --show-regs), as mstreg shows it");
  reg->add_option("DEV", args.device, "the device (name forms: mst --help)");
  reg->add_option("--reg-name,--reg_name", args.reg_name, "the register");
  reg->add_flag("-g,--get", args.get, "read it and print every field");
  reg->add_option("-s,--set", args.set, "FIELD=VALUE,... : read it, change these fields, write it (asks first)");
  reg->add_option("-i,--indexes", args.indexes, "FIELD=VALUE,... : the index fields (which instance)");
  // mstreg's form is `--show_reg NAME`; `--reg-name NAME --show-reg` works too. An option with an
  // optional value (not a flag, which would refuse `--show-reg=NAME` and leave `--show-reg NAME`'s
  // NAME to be taken for the device).
  auto* show_reg = reg->add_option("--show-reg,--show_reg", args.show_reg_name,
                                   "[NAME]: the register's fields, positions and access (no device needed)")
                       ->expected(0, 1);
  reg->add_flag("--show-regs,--show_regs", args.show_regs, "the registers mst reg knows");
  reg->add_flag("-y,--yes", args.yes, "write without asking");
  reg->add_flag("--no", args.no, "answer no");
  reg->add_option("--sysfs", args.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  reg->callback([&run, &common, show_reg] {
    args.show_reg = show_reg->count() > 0;
    run = [&common] {
      if (args.device.empty() && !args.show_reg && !args.show_regs)
        return cli::report_error(Error(ErrorCode::InvalidArgument, "give a device (or --show-reg/--show-regs)"), common.json);
      return run_reg_command(args, common);
    };
  });
}

}  // namespace openflint::mst
