// make_seeds: writes a small seed corpus per fuzz target (images, an MFA, fwburn inputs, sim states, MADs, fabric text files, trace events).
#include <array>
#include <cstdio>
#include <regex>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "image/Fs1Writer.h"
#include "image/Fs2Writer.h"
#include "image/Fs3Writer.h"
#include "image/Fs4Writer.h"
#include "image/Mfa2Writer.h"
#include "image/PldmWriter.h"
#include "image/MfaWriter.h"
#include "image/SectionType.h"
#include "image/FirmwareTraceStrings.h"
#include "image/TraceEvent.h"
#include "image/TraceStringDbBuilder.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/inband/MadFormat.h"
#include "mtcr/registers/MgirRegister.h"
#include "sim/SimDevice.h"
#include "sim/SimStateFile.h"

namespace {

namespace fs = std::filesystem;
using openflint::gph::GphSection;

bool save(const fs::path& dir, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

std::vector<GphSection> sections() {
  return {{openflint::gph::kDdr, std::vector<std::uint8_t>(256, 0x5a), 0},
          {openflint::gph::kJmp, std::vector<std::uint8_t>(32, 0x33), 0}};
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// fuzz_burn_ini: each sample description, a NUL, its board INI; fillers shrunk so runs stay fast.
bool burn_seeds(const fs::path& out, const fs::path& samples) {
  bool ok = true;
  int written = 0;
  for (const char* model : {"connectx3", "connectx4", "mt25204", "spectrum"}) {
    for (const char* version : {"old", "new"}) {
      const fs::path dir = samples / model;
      std::string desc = read_text(dir / (std::string(version) + ".fwdesc"));
      const std::string ini = read_text(dir / (std::string(version) + ".ini"));
      if (desc.empty() || ini.empty()) continue;
      desc = std::regex_replace(desc, std::regex("filler_size = 0x[0-9a-fA-F]+"), "filler_size = 0x40");
      std::string seed = desc + '\0' + ini;
      ok = ok && save(out, std::string(model) + "-" + version, {seed.begin(), seed.end()});
      ++written;
    }
  }
  return ok && written > 0;
}

// fuzz_sim_state: the state.json of fresh simulated devices (one in recovery, one booted).
bool sim_state_seeds(const fs::path& out) {
  bool ok = true;
  for (const char* model : {"connectx4", "spectrum"}) {
    auto dev = openflint::sim::SimDevice::create(model);
    if (!dev) return false;
    openflint::sim::SimStateFile s;
    s.model = model;
    s.flash_chip = std::string((*dev)->flash().chip().name);
    s.faults.power_cut_after_ops = 3;
    s.counters = (*dev)->counters();
    s.boot = (*dev)->boot_state();
    s.registers = (*dev)->cr_space().registers();
    if (std::string(model) == "spectrum") {
      openflint::ImageQuery q;
      q.fw_version = openflint::FwVersion{13, 2000, 1010};
      q.psid = "MT_2190110032";
      q.base_guid = openflint::UidRange{0x0002c90300a04000ull, 8};
      s.boot->recovery = false;
      s.boot->running = q;
    }
    const std::string text = s.to_json();
    ok = ok && save(out, std::string(model) + ".json", {text.begin(), text.end()});
  }
  return ok;
}

using Mad = std::array<std::uint8_t, openflint::mad::kMadSize>;

Mad request(std::uint8_t cls, std::uint8_t method, std::uint16_t attr, std::uint32_t attr_mod) {
  namespace mad = openflint::mad;
  Mad m{};
  m[mad::kOffBaseVersion] = 1;
  m[mad::kOffClass] = cls;
  m[mad::kOffClassVersion] = 1;
  m[mad::kOffMethod] = method;
  mad::put64(m.data(), mad::kOffTid, 0x1234);
  mad::put16(m.data(), mad::kOffAttrId, attr);
  mad::put32(m.data(), mad::kOffAttrMod, attr_mod);
  return m;
}

std::vector<std::uint8_t> with_prefix(std::initializer_list<std::uint8_t> prefix, const Mad& m) {
  std::vector<std::uint8_t> v(prefix);
  v.insert(v.end(), m.begin(), m.end());
  return v;
}

// fuzz_mad_request / fuzz_mad_reply: CR-space reads and writes (mode 0 and 2), MGIR over SMP
// and GMP, a directed-route SMP, a switch reset; as requests and as answers.
bool mad_seeds(const fs::path& requests, const fs::path& replies) {
  namespace mad = openflint::mad;
  using openflint::AccessRegisterTlv;
  std::vector<std::pair<std::string, Mad>> reqs;
  reqs.emplace_back("gmp-read", request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrCrAccessGmp,
                                        mad::cr_attr_mod_mode0(0xf0014, 4)));
  Mad write = request(mad::kClassVendorA, mad::kMethodSet, mad::kAttrCrAccessGmp, mad::cr_attr_mod_mode2(2));
  for (std::uint32_t i = 0; i < 2; ++i) {
    mad::put32(write.data(), 32 + i * 12, 0xf0400 + i * 4);
    mad::put32(write.data(), 36 + i * 12, 0x80000000u);
    mad::put32(write.data(), 40 + i * 12, 0xffffffffu);
  }
  reqs.emplace_back("gmp-write-mode2", write);
  reqs.emplace_back("smp-read", request(mad::kClassSmpLid, mad::kMethodGet, mad::kAttrCrAccessSmp,
                                        mad::cr_attr_mod_mode0(0xf0014, 1)));
  Mad dr = request(mad::kClassSmpDirected, mad::kMethodGet, mad::kAttrCrAccessSmp, mad::cr_attr_mod_mode0(0, 14));
  dr[mad::kOffHopCount] = 1;
  reqs.emplace_back("dr-smp-read", dr);
  AccessRegisterTlv mgir;
  mgir.register_id = openflint::MgirRegister::kId;
  mgir.data.assign(44, 0);
  Mad smp_reg = request(mad::kClassSmpLid, mad::kMethodGet, mad::kAttrRegAccessSmp, 0);
  const auto smp_payload = mgir.encode(mad::kSmpDataSize).value();
  std::copy(smp_payload.begin(), smp_payload.end(), smp_reg.begin() + mad::kOffSmpData);
  reqs.emplace_back("smp-mgir", smp_reg);
  mgir.data.assign(openflint::MgirRegister::kSize, 0);
  Mad gmp_reg = request(mad::kClassVendorA, mad::kMethodGet, mad::kAttrRegAccessGmp, 0);
  const auto gmp_payload = mgir.encode(mad::kVendorDataSize).value();
  std::copy(gmp_payload.begin(), gmp_payload.end(), gmp_reg.begin() + mad::kOffVendorData);
  reqs.emplace_back("gmp-mgir", gmp_reg);
  reqs.emplace_back("sw-reset", request(mad::kClassVendorA, mad::kMethodSet, mad::kAttrSwReset, 5));
  bool ok = true;
  for (const auto& [name, m] : reqs) {
    ok = ok && save(requests, name + "-memory", with_prefix({0}, m)) && save(requests, name + "-sim", with_prefix({1}, m));
    // The answer: response bit set, status 0; a reply's control byte picks its class (see the target).
    Mad answer = m;
    answer[mad::kOffMethod] = static_cast<std::uint8_t>(answer[mad::kOffMethod] | mad::kResponseBit);
    const std::uint8_t class_bits = m[mad::kOffClass] == mad::kClassVendorA ? 0 : m[mad::kOffClass] == mad::kClassSmpLid ? 1 : 2;
    const bool mode2 = mad::attr_mod_mode(mad::get32(m.data(), mad::kOffAttrMod)) == 2;
    const auto count = static_cast<std::uint8_t>(mad::attr_mod_count(mad::get32(m.data(), mad::kOffAttrMod)));
    const auto control = static_cast<std::uint8_t>(class_bits | (mode2 ? 8 : 0) | 16);
    ok = ok && save(replies, name, with_prefix({control, count}, answer));
  }
  return ok;
}

// fuzz_bus_request: one mstmtserver request per command, as a client sends them.
bool bus_seeds(const fs::path& out) {
  const std::vector<std::pair<std::string, std::string>> requests{
      {"version", "V"}, {"list", "L"}, {"open", "O 1 /dev/mst/mt4115_pciconf0"}, {"open-old", "O mt4115_pciconf0"},
      {"close", "C"}, {"read", "R 0xf0014"}, {"read-octal", "R 03600024"}, {"write", "W 0xf0400 0x80000000"},
      {"block-read", "B 0x100 10"}, {"block-write", "U 0x100 10 0x1 0x2 0x3"}, {"pci-change", "P"},
      {"space", "A 2"}, {"block-reply", "O 0x11223344 0xaabbccdd 0x0304"},
      {"register-probe", "G"}, {"register-query", "G 0x9903 1 8 0x0 0x0"},
      {"register-write", "G 0x9062 2 12 0x1 0x0 0xffffffff"}, {"register-reply", "O 0x0 0x1020304 0x0"},
      {"reset-plan", "X 3 0"}, {"reset", "X 4 1"}, {"reset-reply", "O 1 12 reset in 12 ms, runs 12.28.2006"}};
  bool ok = true;
  for (const auto& [name, text] : requests) ok = ok && save(out, name, {text.begin(), text.end()});
  return ok;
}

// The fabric tools' text files: topology (fuzz_topology), name map (fuzz_system_names),
// thresholds (fuzz_thresholds), ibfwmgr's hosts (fuzz_hosts_file), ibadm.conf (fuzz_ibadm_config) and
// the name server's requests (fuzz_name_request); a few good files and near misses.
bool fabric_text_seeds(const fs::path& out) {
  using Seeds = std::vector<std::pair<std::string, std::string>>;
  const std::vector<std::pair<std::string, Seeds>> sets{
      {"topology",
       {{"leaf", "# a leaf and two hosts\nMT52000 leaf-1\nP1 -> MT27700 host-1 P1\nP2 -> MT27700 host-2 P1\n"
                 "P3 -> MT52000 spine-1 P1\n\nMT27700 host-1\nP1 -> MT52000 leaf-1 P1\n"},
        {"cfg", "MTS2400 S-1 CFG: b1=mod1,b2=mod2   # trailing\nP1 -> MT23108 H-1 P1\n# inside\nP2 -> MT23108 H-1 P2\n"},
        {"contradiction", "MT52000 S-1\nP1 -> MT27700 H-1 P1\n\nMT27700 H-1\nP1 -> MT52000 S-1 P2\n"},
        {"twice", "MT52000 S-1\nP1 -> MT27700 H-1 P1\nP1 -> MT27700 H-2 P1\n"},
        {"spellings", "MTS2400 \"leaf 1\"\nP1-> MT23108 H-1 P1\nP2->MT23108 H-2 P1\nP3 -4x-10G-> \"MT23108\" \"h # 3\" P1\n"}}},
      {"system_names",
       {{"map", "# lab\nrack7-sw 0x0002c90300001234\nnode-b 2c90300005678  # no 0x\n"},
        {"where", "node-7 0x1 mlx5_0\nnode-7 0x2 mlx5_1\n"},
        {"switch-description", "MF0;core-1:CS7500/L05/U1"},
        {"bad", "a 0x1\nb 0xzz\nc 0x1 x y\n"}}},
      {"thresholds",
       {{"file", "# lab limits\nSymbolErrorCounter 10\ntemperature 70\nport-state off\n"},
        {"assignment", "LinkDownedCounter=off\nPortRcvErrors 5\n"},
        {"bad", "temperature hot\nSymbolErrorCounter 18446744073709551616\n"}}},
      {"hosts_file",
       {{"hosts", "# lab\n\n  mgmt1  \nmgmt2:4000 # spare port\r\nssh:admin@mgmt3\n[::1]:23109\n"},
        {"ssh-port", "ssh:root@10.0.0.7:2222\n"},
        {"bad", "host:99999\nssh:@\n[::1\n"}}},
      {"ibadm_config",
       {{"services", "# this host\nbus_server = yes\nbus_server_port = 0\nbus_server_allow = 10.0.0.0/8 fd00::/8\n"
                     "bus_server_devices = sim:/tmp/a\nname_server = yes\nname_server_listen = 0.0.0.0\n"
                     "name_server_port = 23109\nhosts = ibadm.hosts\nrun_dir = run\n"},
        {"address", "name_server_address = [::1]:4000\nsweep = no\nname_server_refresh = 60\nca = mlx5_0\nport = 1\n"},
        {"bad", "bus_server = maybe\nbogus = 1\nrun_dir = a\nrun_dir = b\nhosts =\n"}}},
      {"name_request",
       {{"lookup", "N spine-1"}, {"guid", "Q 0x0002c90300b00001"}, {"lid", "Q 17"}, {"list", "L"},
        {"entry", "host-1 0x0002c90300c10000 0 127.0.0.1:4000,sim:@tmp@d 127.0.0.1:4000,sim:@tmp@d"}}}};
  bool ok = true;
  for (const auto& [target, seeds] : sets) {
    for (const auto& [name, text] : seeds) ok = ok && save(out / target, name, {text.begin(), text.end()});
  }
  return ok;
}

// fuzz_trace_strings: our TRACE_STRINGS section, one cut short, and one without formats.
bool trace_strings_seeds(const fs::path& out) {
  using namespace openflint;
  const std::vector<std::uint8_t> full = firmware_trace_strings_section();
  auto empty = encode_trace_strings({});
  if (full.empty() || !empty) return false;
  return save(out, "section", full) && save(out, "cut", {full.begin(), full.begin() + full.size() / 2}) &&
         save(out, "empty", *empty);
}

// fuzz_trace: a string DB built from firmware-like formats and event streams over it (complete
// messages, a 64-bit parameter, a raw word, an unreliable timestamp), plus a DB with no NUL.
bool trace_seeds(const fs::path& out) {
  using namespace openflint;
  const std::vector<std::string_view> formats{"boot from copy %d", "port %d state %u -> %u", "guid %llx",
                                              "flash erase at %#x", "fw reset level %hhu"};
  auto built = build_trace_strings(formats, {.base_address = 0x4000, .max_section_size = 0x40});
  if (!built) return false;
  const auto header = [&](std::uint8_t flags, const std::vector<TraceStringSection>& sections,
                          const std::vector<std::vector<std::uint8_t>>& bytes) {
    std::vector<std::uint8_t> v{flags, 0x10, 0x10, static_cast<std::uint8_t>(sections.size())};
    for (const TraceStringSection& s : sections) {
      for (int shift = 24; shift >= 0; shift -= 8) v.push_back(static_cast<std::uint8_t>(s.base_address >> shift));
      v.push_back(static_cast<std::uint8_t>(s.size >> 8));
      v.push_back(static_cast<std::uint8_t>(s.size));
    }
    for (const auto& b : bytes) v.insert(v.end(), b.begin(), b.end());
    return v;
  };
  const auto words = [](std::vector<std::uint8_t> v, std::initializer_list<std::uint64_t> ws) {
    for (const std::uint64_t w : ws) {
      const auto b = store_trace_word(w);
      v.insert(v.end(), b.begin(), b.end());
    }
    return v;
  };
  const auto& p = built->pointers;
  const auto str = [](std::uint16_t tmsn, std::uint8_t tdsn, std::uint32_t param, std::uint8_t ts = 3) {
    return StringTraceEvent{false, ts, 0x11, tmsn, tdsn, param}.encode();
  };
  const auto stamp = [](std::uint64_t t, std::uint8_t urts) { return TimestampTraceEvent{t, urts}.encode(); };
  const std::vector<std::uint8_t> base = header(0, built->sections, built->section_bytes);
  bool ok = save(out, "messages", words(base, {str(1, 0, p[0]), str(1, 1, 0), str(2, 0, p[1]), str(2, 1, 1), str(2, 2, 4),
                                              str(2, 3, 5), stamp(0x1000, 0), str(3, 0, p[2]), str(3, 1, 0x2c903),
                                              str(3, 2, 0xa04000), str(4, 0, p[3]), str(4, 1, 0x10000), stamp(0x1100, 0)}));
  ok = ok && save(out, "raw-unreliable", words(header(1, built->sections, built->section_bytes),
                                               {str(5, 0, 0x10), str(6, 3, 7), StringTraceEvent{true, 0x7f, 0x20, 7, 0, p[4]}.encode(),
                                                str(7, 1, 300), stamp(0x2000, 1), GenericTraceEvent{false, 1, 0x05, 0xabc}.encode(),
                                                stamp(0x2080, 4)}));
  const std::vector<TraceStringSection> hostile{{0x100, 64}};
  const std::vector<std::vector<std::uint8_t>> no_nul{std::vector<std::uint8_t>(64, '%')};
  ok = ok && save(out, "no-nul", words(header(2, hostile, no_nul), {str(1, 0, 0x13f), str(1, 0, 0x100), str(1, 0, 0x140), stamp(0x80, 0)}));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds OUTDIR FIRMWARE_SAMPLES_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  openflint::Fs1ImageSpec s1;
  s1.fw_version = {5, 3, 0};
  s1.psid = "MT_0370110001";
  s1.ini = "[PS_INFO]\nName = seed\n";
  s1.sections = sections();
  s1.log2_sector_size = 12;
  openflint::Fs2ImageSpec s2;
  s2.fw_version = {2, 42, 5000};
  s2.psid = "MT_1090120019";
  s2.ini = "[PS_INFO]\nName = seed\n";
  s2.sections = sections();
  auto fs1 = openflint::write_fs1_image(s1);
  auto fs2 = openflint::write_fs2_image(s2);
  if (!fs1 || !fs2) {
    std::fprintf(stderr, "make_seeds: writer failed\n");
    return 1;
  }
  openflint::Fs4ImageSpec s4;  // an FS4 spec is an FS3 spec and a security version
  s4.fw_version = {16, 35, 2000};
  s4.release_date = openflint::ReleaseDate{2019, 9, 23};
  s4.psid = "MT_0000000001";
  s4.part_number = "SEED-PART_Ax";
  s4.supported_hw_ids = {0x249};
  s4.base_guid = 0x0002c90300001000ull;
  s4.ini = "[fw]\nkey = value\n";
  s4.sections = {{openflint::section_type::kMainCode, std::vector<std::uint8_t>(0x3000, 0x5a)}};
  s4.flash_size = 0x80000;  // the smallest the writers take: small seeds
  auto fs4 = openflint::write_fs4_image(s4);
  openflint::Fs3ImageSpec s3 = s4;
  s3.log2_chunk_size = 16;
  s3.flash_size = 0x80000;
  auto fs3 = openflint::write_fs3_image(s3);
  if (!fs3 || !fs4) {
    std::fprintf(stderr, "make_seeds: FS3/FS4 writer failed: %s\n",
                 (!fs3 ? fs3.error() : fs4.error()).message().c_str());
    return 1;
  }
  openflint::MfaWriter mfa;
  if (!mfa.add_board({"MT_0000000001", "PN-1", "seed board", {1, 2, 3}, *fs2}).has_value()) return 1;
  auto archive = mfa.build();
  if (!archive) return 1;
  auto mfa2 = openflint::build_mfa2({{"MT_0000000001", *fs3}, {"MT_0000000002", *fs4}}, 1);
  if (!mfa2) return 1;
  // PLDM: the parser reads no image content, so small stand-ins keep the inputs short.
  auto pldm = openflint::build_pldm({{.psid = "MT_0000000001", .image = std::vector<std::uint8_t>(64, 0x11), .version = "1.0.0"},
                                     {.psid = "MT_0000000002", .image = std::vector<std::uint8_t>(96, 0x22), .version = "2.0.0"}},
                                    "seed", 1767225600);
  if (!pldm) return 1;
  bool ok = save(out / "fs1", "fs1.bin", *fs1) && save(out / "fs2", "fs2.bin", *fs2) &&
            save(out / "fs3", "fs3.bin", *fs3) && save(out / "fs4", "fs4.bin", *fs4) &&
            save(out / "mfa", "one-board.mfa", *archive) && save(out / "mfa2", "two-devices.mfa2", *mfa2) &&
            save(out / "pldm", "two-records.fwpkg", *pldm);
  const std::vector<std::uint8_t>* images[] = {&*fs1, &*fs2, &*fs3, &*fs4};
  for (const auto* img : images)
    ok = ok && save(out / "any", "seed" + std::to_string(img->size()) + ".bin", *img);
  ok = ok && burn_seeds(out / "burn_ini", argv[2]) && sim_state_seeds(out / "sim_state") &&
       mad_seeds(out / "mad_request", out / "mad_reply") && bus_seeds(out / "bus_request") &&
       fabric_text_seeds(out) && trace_seeds(out / "trace") &&
       trace_strings_seeds(out / "trace_strings");
  return ok ? 0 : 1;
}
