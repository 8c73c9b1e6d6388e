// Commands: the flint subcommands; each returns a process exit code (see ExitCode.h).
#pragma once

#include <string>
#include <vector>

#include "core/Error.h"
#include "flint/Options.h"

namespace openflint::flint {

int run_query(const Options& options);
int run_verify(const Options& options);
int run_dump_config(const Options& options, const std::string& out_path);
int run_archive_list(const Options& options);
int run_archive_extract(const Options& options, const std::string& out_path);
// MFA2 packages (Mfa2Commands.cpp): run_archive_list/extract hand an MFA2 -i to these.
int run_mfa2_list(const Options& options);
int run_mfa2_extract(const Options& options, const std::string& out_path);
// archive create --format mfa2: one device and component per FS3/FS4 image (files or directories).
int run_archive_create(const Options& options, const std::vector<std::string>& inputs, const std::string& out_path);
// PLDM packages (PldmCommands.cpp): run_archive_list/extract hand a PLDM -i to these; archive
// create --format pldm: one device record and one component per FS3/FS4 image.
int run_pldm_list(const Options& options);
int run_pldm_extract(const Options& options, const std::string& out_path);
int run_pldm_create(const Options& options, const std::vector<std::string>& inputs, const std::string& out_path);

// On -d DEVICE (DeviceCommands.cpp, FlashCommands.cpp).
int run_device_query(const Options& options);
int run_device_verify(const Options& options);
int run_device_reset(const Options& options);
int run_erase(const Options& options, const std::string& address);
int run_rw(const Options& options, const std::string& address);
int run_ww(const Options& options, const std::string& address, const std::string& data);
int run_wwne(const Options& options, const std::string& address, const std::string& data);
int run_rb(const Options& options, const std::string& address, const std::string& size, const std::string& out_path);
int run_wb(const Options& options, const std::string& in_path, const std::string& address);
int run_ri(const Options& options, const std::string& out_path);
// flint -d DEVICE -i IMAGE burn (BurnCommand.cpp).
int run_burn(const Options& options);
// sg / sv on -i IMAGE (the file is patched in place) or -d DEVICE (SetCommands.cpp).
// `params`: mstflint's FS3 "guids_num=N[,N2]" / "step_size=S[,S2]" (a MAC slot holding one counts too).
int run_set_guids(const Options& options, const std::string& guid, const std::string& mac,
                  const std::vector<std::string>& params = {});
int run_set_vsd(const Options& options, const std::string& vsd);

// -i IMAGE sign --private_key KEY --key_uuid UUID: an FS4 image signed in place (SignCommand.cpp).
int run_sign(const Options& options);

// ChecksumCommands.cpp: on -d DEVICE when given, else on -i IMAGE.
int run_checksum(const Options& options);
// -d DEVICE against -i IMAGE: 0 equal, 1 differ.
int run_binary_compare(const Options& options);

// MaintenanceCommands.cpp, on -d DEVICE.
int run_swreset(const Options& options);
int run_hw_query(const Options& options);
int run_device_dump_config(const Options& options, const std::string& out_path);
int run_wbne(const Options& options, const std::string& address, const std::string& size,
             const std::vector<std::string>& data);
int run_clear_semaphore(const Options& options);
// Burns -i IMAGE in place at 0 without failsafe, after a y/N question.
int run_burn_block(const Options& options);


// Prints an error ("-E- ..." on stderr, or a JSON document on stdout with --json) and
// returns the exit code that goes with it.
int report_error(const Options& options, const Error& error);

}  // namespace openflint::flint
