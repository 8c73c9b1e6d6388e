// ParseCommandLine: CLI11's parse with the project's exit codes.
#include "cli/ParseCommandLine.h"

#include "cli/ExitCode.h"

namespace openflint::cli {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
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
  return std::nullopt;
}

}  // namespace openflint::cli
