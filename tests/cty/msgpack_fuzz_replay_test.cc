// Replays the fuzz entry point under any compiler: the seed corpus, every truncation and single
// byte corruption of it, and a bounded, fixed-seed stream of pseudo-random inputs. The entry point
// aborts on any contract violation, so reaching the end of each test is the assertion; the tests
// also count outcomes to prove the inputs exercise both success and error paths.
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/type.h"
#include "tests/cty/hex.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace nsxalb::cty {
namespace {

using ::nsxalb::cty::testing::Unhex;

std::vector<std::string> SeedCorpus() {
  return {
      Unhex("83 a2 69 64 d4 00 00 a4 6e 61 6d 65 a5 61 6c 70 68 61 a4 73 69 7a 65 c0"),
      Unhex("92 c4 08 22 73 74 72 69 6e 67 22 a1 78"),
      Unhex("92 c4 11 5b 22 6c 69 73 74 22 2c 22 6e 75 6d 62 65 72 22 5d 92 01 02"),
      Unhex("80"),
      Unhex("c0"),
      Unhex("d4 00 00"),
      Unhex("c7 03 0c 81 01 c2"),
      Unhex("cf ff ff ff ff ff ff ff ff"),
      Unhex("cb 3f e0 00 00 00 00 00 00"),
      Unhex("a6 31 65 2b 34 30 30"),
      Unhex("91 91 90"),
      Unhex("88 a2 69 64 a1 78 a4 73 69 7a 65 01 a2 6f 6e c3 a4 74 61 67 73 91 a1 61 a6 6c 61 62 "
            "65 6c 73 81 a1 6b 02 a3 61 6e 79 c0 a4 70 61 69 72 92 a1 70 03 a8 76 63 65 6e 74 65 "
            "72 73 91 81 a4 6e 61 6d 65 a1 6e"),
      R"({"id":"x","size":1e400,"tags":["a"],"any":{"value":1,"type":"number"}})",
      "[[{\"value\":[1],\"type\":[\"list\",\"number\"]}]]",
  };
}

void Replay(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

TEST(MsgpackFuzzReplayTest, SeedCorpusAndEveryTruncation) {
  for (const std::string& seed : SeedCorpus()) {
    for (size_t len = 0; len <= seed.size(); ++len) Replay(seed.substr(0, len));
  }
}

TEST(MsgpackFuzzReplayTest, EverySingleByteCorruption) {
  for (const std::string& seed : SeedCorpus()) {
    if (seed.size() > 80) continue;
    for (size_t i = 0; i < seed.size(); ++i) {
      for (int b : {0x00, 0x7f, 0x80, 0x90, 0xc0, 0xc1, 0xc4, 0xcb, 0xd4, 0xdc, 0xdf, 0xff}) {
        std::string mutated = seed;
        mutated[i] = static_cast<char>(b);
        Replay(mutated);
      }
    }
  }
}

TEST(MsgpackFuzzReplayTest, BoundedPseudoRandomInputs) {
  std::mt19937 rng(20240613);  // fixed seed: the same inputs on every run
  const std::vector<std::string> seeds = SeedCorpus();
  int decoded = 0;
  int rejected = 0;
  const Type probe = Type::Dynamic();
  for (int i = 0; i < 20000; ++i) {
    std::string input;
    if (i % 2 == 0) {
      // Structured mutation of a seed: splice, flip, insert, delete.
      input = seeds[rng() % seeds.size()];
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !input.empty(); ++e) {
        size_t pos = rng() % input.size();
        switch (rng() % 4) {
          case 0:
            input[pos] = static_cast<char>(rng());
            break;
          case 1:
            input.insert(pos, 1, static_cast<char>(rng()));
            break;
          case 2:
            input.erase(pos, 1);
            break;
          case 3:
            input += seeds[rng() % seeds.size()].substr(0, rng() % 8);
            break;
        }
      }
    } else {
      size_t len = rng() % 48;
      for (size_t j = 0; j < len; ++j) input.push_back(static_cast<char>(rng()));
    }
    Replay(input);
    if (DecodeMsgpack(input, probe).ok()) {
      ++decoded;
    } else {
      ++rejected;
    }
  }
  EXPECT_GT(decoded, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace nsxalb::cty
