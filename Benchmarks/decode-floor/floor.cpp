// The floor under issue 26's "1 GB/s of op-log text per core": what simdjson (Debian's libsimdjson-dev), the
// fastest JSON parser there is, does with the same log on one thread of this machine, building nothing that
// focal's decoder builds (no strings, ids or objects: views into the text and integers only).
//
//   floor LOG   prints, for three ways of reading LOG (best of five passes, the thread's CPU time):
//     lines        each line parsed alone with the On-Demand API, as focal's decoder is handed one line at a
//                  time (a request's lines, a chunk's lines on each engine): the fields an op has read as
//                  focal reads them (strings as views, numbers as integers, an id's keys, `properties` as
//                  its text, found and checked for structure);
//     stream       the same fields through `iterate_many`, simdjson's own newline-delimited reader, which
//                  finds the structure of a whole batch of lines at once;
//     tape         the DOM parser's `parse_many`: every line made into simdjson's tape, its top-level
//                  members visited.
//
// Built by `./Scripts/bench decode` with -march=native: simdjson's On-Demand front end is compiled for the
// instruction set of the build (AVX2 here); without it, the header picks its portable fallback kernel.
#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <string_view>

using namespace simdjson;

static double thread_cpu() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Reads the fields of one op from `doc` as focal's decoder does; false for a line it cannot read.
template <typename Document> static bool read_op(Document &doc, uint64_t &sum) {
  ondemand::object op;
  if (doc.get_object().get(op)) return false;
  for (auto field : op) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    auto value = field.value();
    if (key == "op" || key == "event" || key == "name" || key == "namespace" || key == "session") {
      std::string_view text;
      if (value.get_string().get(text)) return false;
      sum += text.size();
    } else if (key == "time" || key == "index") {
      int64_t number;
      if (value.get_int64().get(number)) return false;
      sum += number;
    } else if (key == "node" || key == "parent") {
      ondemand::json_type type;
      if (value.type().get(type)) return false;
      if (type == ondemand::json_type::array) {
        for (auto element : value.get_array()) {
          std::string_view text;
          if (element.raw_json_token().get(text)) return false;
          sum += text.size();
        }
      } else {
        std::string_view text;
        if (value.raw_json_token().get(text)) return false;
        sum += text.size();
      }
    } else {
      ondemand::object object;
      std::string_view text;
      if (value.get_object().get(object) || object.raw_json().get(text)) return false;
      sum += text.size();
    }
  }
  return true;
}

static void report(const char *name, size_t bytes, size_t lines, size_t errors, double seconds, uint64_t sum) {
  std::printf("simdjson %-7s %7.1f MB/s %7.1f ns/line  (%zu lines, %zu not read; checksum %llu)\n", name,
              bytes / seconds / 1e6, seconds / lines * 1e9, lines, errors, (unsigned long long)sum);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: floor LOG\n");
    return 2;
  }
  padded_string log;
  if (padded_string::load(argv[1]).get(log)) {
    std::fprintf(stderr, "floor: cannot read %s\n", argv[1]);
    return 1;
  }
  const char *start = log.data(), *end = log.data() + log.size();
  double best[3] = {1e9, 1e9, 1e9};
  size_t lines[3] = {}, errors[3] = {};
  uint64_t sums[3] = {};
  // The three passes are written out, each with its own counters: folded into one timing helper taking a lambda
  // per pass, the same reads measured the stream pass 10 % slower (733-743 against 805-836 MB/s, alternating
  // builds), and this program is meant to give simdjson's best.
  for (int pass = 0; pass < 5; pass++) {
    {
      ondemand::parser parser;
      size_t n = 0, bad = 0;
      uint64_t sum = 0;
      double began = thread_cpu();
      for (const char *line = start; line < end;) {
        const char *newline = static_cast<const char *>(std::memchr(line, '\n', end - line));
        if (!newline) newline = end;
        // The log's padding follows its last line, so every line has simdjson's padding after it.
        auto doc = parser.iterate(line, newline - line, (end - line) + SIMDJSON_PADDING);
        if (!read_op(doc, sum)) bad++;
        n++;
        line = newline + 1;
      }
      double seconds = thread_cpu() - began;
      if (seconds < best[0]) best[0] = seconds, lines[0] = n, errors[0] = bad, sums[0] = sum;
    }
    {
      ondemand::parser parser;
      ondemand::document_stream stream;
      size_t n = 0, bad = 0;
      uint64_t sum = 0;
      double began = thread_cpu();
      if (parser.iterate_many(log, 1 << 20).get(stream)) return 1;
      for (auto doc : stream) {
        if (!read_op(doc, sum)) bad++;
        n++;
      }
      double seconds = thread_cpu() - began;
      if (seconds < best[1]) best[1] = seconds, lines[1] = n, errors[1] = bad, sums[1] = sum;
    }
    {
      dom::parser parser;
      dom::document_stream stream;
      size_t n = 0, bad = 0;
      uint64_t sum = 0;
      double began = thread_cpu();
      if (parser.parse_many(log, 1 << 20).get(stream)) return 1;
      for (auto doc : stream) {
        dom::object op;
        if (doc.get(op)) {
          bad++;
        } else {
          for (auto [key, value] : op) sum += key.size() + static_cast<uint64_t>(value.type());
        }
        n++;
      }
      double seconds = thread_cpu() - began;
      if (seconds < best[2]) best[2] = seconds, lines[2] = n, errors[2] = bad, sums[2] = sum;
    }
  }
  const char *names[3] = {"lines", "stream", "tape"};
  for (int i = 0; i < 3; i++) report(names[i], log.size(), lines[i], errors[i], best[i], sums[i]);
  return 0;
}
