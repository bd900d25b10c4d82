// Replays a libFuzzer entry point under any compiler, deterministically, as a normal test (ctest
// label fuzz): every file of its committed seed corpus, every truncation and single-byte
// corruption of each, splices of two seeds, and a fixed-seed stream of structured mutations.
// The entry point aborts on any violation of its contract, so reaching the end is the assertion.
//
// Each fuzz target is linked with this file; NSXALB_FUZZ_CORPUS names its corpus folder
// (tests/fuzz/<target>/) and NSXALB_FUZZ_REPLAY_MUTATIONS the number of mutations, which the
// environment variable NSXALB_FUZZ_REPLAY_ITERATIONS overrides.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace nsxalb::fuzz {
namespace {

std::vector<std::string> Corpus() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(NSXALB_FUZZ_CORPUS)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // the same order on every run
  std::vector<std::string> corpus;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    corpus.push_back(bytes.str());
  }
  return corpus;
}

// The input being replayed, for the abort handler.
const std::string* current_input = nullptr;

// On an abort (a broken contract), saves the input as ./fuzz-replay-crash, which the libFuzzer
// binary runs again: build-fuzz/tests/fuzz/<target>_fuzzer fuzz-replay-crash.
void SaveInputOnAbort(int) {
  if (current_input != nullptr) {
    int fd = open("fuzz-replay-crash", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!write(fd, current_input->data(), current_input->size());
      close(fd);
    }
    const char kNote[] = "fuzz replay: the failing input is in ./fuzz-replay-crash\n";
    (void)!write(2, kNote, sizeof(kNote) - 1);
  }
  signal(SIGABRT, SIG_DFL);
  raise(SIGABRT);
}

void Replay(const std::string& input) {
  static const bool installed = [] { return signal(SIGABRT, SaveInputOnAbort) != SIG_ERR; }();
  (void)installed;
  current_input = &input;
  // A copy in a buffer of exactly its size, so that ASan sees reads past the end.
  std::vector<uint8_t> buffer(input.begin(), input.end());
  LLVMFuzzerTestOneInput(buffer.data(), buffer.size());
  current_input = nullptr;
}

int Iterations() {
  const char* text = std::getenv("NSXALB_FUZZ_REPLAY_ITERATIONS");
  return text != nullptr ? std::atoi(text) : NSXALB_FUZZ_REPLAY_MUTATIONS;
}

TEST(FuzzReplayTest, CorpusIsNotEmpty) { EXPECT_GE(Corpus().size(), 3u) << NSXALB_FUZZ_CORPUS; }

TEST(FuzzReplayTest, EverySeedAndEveryTruncation) {
  for (const std::string& seed : Corpus()) {
    // Long seeds: every prefix up to 256 bytes, then every 61st.
    for (size_t len = 0; len <= seed.size(); len += len < 256 ? 1 : 61) Replay(seed.substr(0, len));
    Replay(seed);
  }
}

TEST(FuzzReplayTest, EverySingleByteCorruption) {
  const char kBytes[] = {'\0', '\x7f', '\x80', '\xc0', '\xdc', '\xff', '"', '\\', '[',
                         '{',  '}',    ',',    '\n',   '=',    '9',    '-', '.'};
  for (const std::string& seed : Corpus()) {
    // Every position of a short seed; 32 spread over a long one.
    const size_t step = seed.size() > 256 ? seed.size() / 32 : 1;
    for (size_t i = 0; i < seed.size(); i += step) {
      for (char b : kBytes) {
        std::string mutated = seed;
        mutated[i] = b;
        Replay(mutated);
      }
    }
  }
}

TEST(FuzzReplayTest, BoundedPseudoRandomMutations) {
  const std::vector<std::string> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  std::mt19937 rng(20240613);  // fixed seed: the same inputs on every run
  const int iterations = Iterations();
  for (int i = 0; i < iterations; ++i) {
    std::string input = corpus[rng() % corpus.size()];
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = input.empty() ? 0 : rng() % input.size();
      switch (rng() % 7) {
        case 0:  // flip a bit
          if (!input.empty()) input[pos] = static_cast<char>(input[pos] ^ (1 << (rng() % 8)));
          break;
        case 1:  // a random byte
          if (!input.empty()) input[pos] = static_cast<char>(rng());
          break;
        case 2:  // insert a byte
          input.insert(pos, 1, static_cast<char>(rng()));
          break;
        case 3:  // erase a run
          if (!input.empty()) input.erase(pos, 1 + rng() % 8);
          break;
        case 4: {  // splice a piece of another seed in
          const std::string& other = corpus[rng() % corpus.size()];
          if (other.empty()) break;
          const size_t from = rng() % other.size();
          input.insert(pos, other.substr(from, 1 + rng() % 32));
          break;
        }
        case 5:  // duplicate a run (deep nesting, repeated members)
          if (!input.empty()) {
            const std::string run = input.substr(pos, 1 + rng() % 16);
            for (int k = 0; k < 1 + static_cast<int>(rng() % 64); ++k) input.insert(pos, run);
          }
          break;
        case 6:  // an interesting number as text
          input.insert(pos, std::vector<std::string>{"0", "-1", "1e308", "-0", "4294967296",
                                                     "18446744073709551616", "9007199254740993",
                                                     "1.5", "NaN", "0x10"}[rng() % 10]);
          break;
      }
    }
    Replay(input);
  }
}

}  // namespace
}  // namespace nsxalb::fuzz
