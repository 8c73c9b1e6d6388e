// ParseCommandLine: CLI11's parse with the project's exit codes.
#include "cli/ParseCommandLine.h"

#include <string>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "fwops/recording/SessionRecording.h"

namespace openflint::cli {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  std::string record;
  app.add_option("--record", record,
                 "Record every device operation of this run, with the device's answers, into FILE (gzip; "
                 "replay it with the device name replay:FILE; OPENFLINT_RECORD=FILE does the same)")
      ->type_name("FILE");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    (void)app.exit(e);
    return kUsage;
  }
  // --record, else OPENFLINT_RECORD, read here while the tool has one thread: a file that cannot
  // be created stops the tool before it touches a device.
  if (!record.empty()) {
    if (auto started = record_sessions_to(record); !started) return report_error(started.error(), false);
  } else if (auto log = active_session_log(); !log) {
    return report_error(log.error(), false);
  }
  return std::nullopt;
}

}  // namespace openflint::cli
