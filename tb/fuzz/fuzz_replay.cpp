// SPDX-License-Identifier: Apache-2.0
// fuzz_replay: the fuzz harness (fuzz_top.hpp) without libFuzzer.
//   fuzz_replay <target> [-v] <file|dir>...
//     runs every file (directories: their files, in name order): the seed
//     corpus and the crash regressions (CTest label fuzz), or one crash file
//     to debug (-v: a line per cycle). A violated invariant aborts with its
//     reason; a missing directory counts as empty.
//   fuzz_replay --self-test <target> <file|dir>...
//     for each fault of fuzz::Mutation, runs the files in a child process
//     with the fault injected and expects it to abort: the invariants can
//     fail. Exit status 1 if some fault went unnoticed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/targets.hpp"

namespace fs = std::filesystem;
using tonic::fuzz::Mutation;

namespace {

std::vector<std::vector<uint8_t>> load(const std::vector<fs::path>& files) {
  std::vector<std::vector<uint8_t>> out;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    out.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return out;
}

/// Runs every input with fault `m` in a child; true if the child aborted.
bool aborts_with(const char* target, const std::vector<std::vector<uint8_t>>& inputs, Mutation m) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    for (const auto& d : inputs) tonic::fuzz::run_target(target, d.data(), d.size(), false, m);
    std::_Exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

}  // namespace

int main(int argc, char** argv) {
  const bool self_test = argc > 1 && std::string(argv[1]) == "--self-test";
  const int first = self_test ? 2 : 1;
  if (argc < first + 2) {
    std::fprintf(stderr, "usage: %s [--self-test] <target> [-v] <file|dir>...\n", argv[0]);
    return 2;
  }
  const char* target = argv[first];
  std::vector<fs::path> files;
  bool verbose = false;
  for (int i = first + 1; i < argc; ++i) {
    if (std::string(argv[i]) == "-v") {
      verbose = true;
      continue;
    }
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());  // a fixed order: deterministic
  const auto inputs = load(files);
  if (!tonic::fuzz::run_target(target, nullptr, 0)) {
    std::fprintf(stderr, "unknown target %s\n", target);
    return 2;
  }

  if (self_test) {
    int missed = 0;
    for (int i = 1; i < static_cast<int>(Mutation::kCount); ++i) {
      const auto m = static_cast<Mutation>(i);
      const bool caught = aborts_with(target, inputs, m);
      std::printf("fuzz self-test %s: fault %s %s\n", target, tonic::fuzz::mutation_name(m),
                  caught ? "caught" : "NOT caught");
      missed += !caught;
    }
    return missed ? 1 : 0;
  }

  size_t bytes = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (verbose) std::fprintf(stderr, "%s\n", files[i].string().c_str());
    tonic::fuzz::run_target(target, inputs[i].data(), inputs[i].size(), verbose);
    bytes += inputs[i].size();
  }
  std::printf("fuzz_replay %s: %zu inputs (%zu bytes), every invariant held\n", target, inputs.size(), bytes);
  return 0;
}
