// flint: entry point (command set grows in flint/*.cpp).
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"flint: query, verify and burn InfiniBand/Ethernet adapter and switch firmware"};
  CLI11_PARSE(app, argc, argv);
  return 0;
}
