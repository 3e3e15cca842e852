#include "report.h"

#include <cstdio>
#include <sstream>

namespace lessons {

using json = nlohmann::ordered_json;

namespace {

template <typename T>
json OrNull(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

template <typename T>
std::optional<T> OptionalField(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    return it->get<T>();
}

std::string CsvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Columns are counted in code points, not bytes ("✓" is one column).
size_t DisplayWidth(const std::string& s) {
    size_t w = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++w;
    return w;
}

}  // namespace

std::string Fixed(double value, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, value);
    return buf;
}

std::string Fixed(const std::optional<double>& value, int digits) {
    return value ? Fixed(*value, digits) : "-";
}

json ToJson(const KernelAttributes& a) {
    return json{{"kernel", a.kernel},
                {"registers", a.registers},
                {"static_smem_bytes", a.static_smem_bytes},
                {"max_threads_per_block", a.max_threads_per_block},
                {"active_blocks_per_sm", a.active_blocks_per_sm},
                {"occupancy", a.occupancy}};
}

KernelAttributes KernelAttributesFromJson(const json& a) {
    KernelAttributes k;
    k.kernel = a.value("kernel", "");
    k.registers = a.value("registers", 0);
    k.static_smem_bytes = a.value("static_smem_bytes", 0);
    k.max_threads_per_block = a.value("max_threads_per_block", 0);
    k.active_blocks_per_sm = a.value("active_blocks_per_sm", 0);
    k.occupancy = a.value("occupancy", 0.0);
    return k;
}

json ToJson(const RunResult& r) {
    json j;
    j["lesson"] = r.lesson;
    j["id"] = r.id;
    j["title"] = r.title;
    j["chapter"] = r.chapter;
    j["kind"] = ToString(r.kind);
    j["size_bytes"] = r.size_bytes;
    j["block"] = OrNull(r.block);
    j["threads"] = OrNull(r.threads);
    j["data"] = r.data;
    j["seed"] = r.seed;
    j["cold_l2"] = r.cold_l2;
    j["reps"] = r.reps;
    j["median_ms"] = r.median_ms;
    j["min_ms"] = r.min_ms;
    j["max_ms"] = r.max_ms;
    j["samples_ms"] = r.samples_ms;
    j["h2d_ms"] = OrNull(r.h2d_ms);
    j["kernel_ms"] = OrNull(r.kernel_ms);
    j["d2h_ms"] = OrNull(r.d2h_ms);
    j["bytes_moved"] = r.bytes_moved;
    j["gbps"] = r.gbps;
    j["ceiling_gbps"] = OrNull(r.ceiling_gbps);
    j["pct_of_ceiling"] = OrNull(r.pct_of_ceiling);
    j["verified"] = r.verified;
    j["check"] = r.check_message;
    j["found"] = OrNull(r.found);
    j["value"] = OrNull(r.value);
    j["expected"] = OrNull(r.expected);
    j["extra"] = json::object();
    for (const auto& [name, value] : r.extra) j["extra"][name] = value;
    j["device"] = r.device;
    j["attributes"] = r.attributes ? ToJson(*r.attributes) : json(nullptr);
    j["timestamp"] = r.timestamp;
    j["recorded"] = r.recorded;
    return j;
}

RunResult RunResultFromJson(const json& j) {
    RunResult r;
    r.lesson = j.at("lesson").get<int>();
    r.id = j.at("id").get<std::string>();
    r.title = j.value("title", "");
    r.chapter = j.value("chapter", "");
    r.kind = j.at("kind").get<std::string>() == "gpu" ? StepKind::kGpu : StepKind::kCpu;
    r.size_bytes = j.at("size_bytes").get<uint64_t>();
    r.block = OptionalField<int>(j, "block");
    r.threads = OptionalField<int>(j, "threads");
    r.data = j.value("data", "");
    r.seed = j.value("seed", uint64_t(0));
    r.cold_l2 = j.value("cold_l2", false);
    r.reps = j.value("reps", 0);
    r.median_ms = j.at("median_ms").get<double>();
    r.min_ms = j.at("min_ms").get<double>();
    r.max_ms = j.at("max_ms").get<double>();
    if (j.contains("samples_ms")) r.samples_ms = j.at("samples_ms").get<std::vector<double>>();
    r.h2d_ms = OptionalField<double>(j, "h2d_ms");
    r.kernel_ms = OptionalField<double>(j, "kernel_ms");
    r.d2h_ms = OptionalField<double>(j, "d2h_ms");
    r.bytes_moved = j.value("bytes_moved", uint64_t(0));
    r.gbps = j.at("gbps").get<double>();
    r.ceiling_gbps = OptionalField<double>(j, "ceiling_gbps");
    r.pct_of_ceiling = OptionalField<double>(j, "pct_of_ceiling");
    r.verified = j.at("verified").get<bool>();
    r.check_message = j.value("check", "");
    r.found = OptionalField<uint64_t>(j, "found");
    r.value = OptionalField<double>(j, "value");
    r.expected = OptionalField<double>(j, "expected");
    if (j.contains("extra") && j.at("extra").is_object())
        for (const auto& [name, value] : j.at("extra").items())
            if (value.is_number()) r.extra.emplace_back(name, value.get<double>());
    r.device = j.value("device", "");
    if (j.contains("attributes") && !j.at("attributes").is_null())
        r.attributes = KernelAttributesFromJson(j.at("attributes"));
    r.timestamp = j.value("timestamp", "");
    r.recorded = j.value("recorded", false);
    return r;
}

json ToJson(const HostInfo& h) {
    return json{{"cpu", h.cpu_name},
                {"hardware_threads", h.hardware_threads},
                {"total_memory_bytes", h.total_memory},
                {"available_memory_bytes", HostAvailableMemory()}};
}

json LessonToJson(const Registry& registry, const Lesson& l, const std::string& unavailable) {
    json j;
    j["lesson"] = l.number;
    j["id"] = l.id;
    j["chapter"] = registry.ChapterOf(l).number;
    j["chapter_id"] = l.chapter;
    j["title"] = l.title;
    j["kind"] = ToString(l.kind);
    j["available"] = unavailable.empty();
    j["unavailable_reason"] = unavailable.empty() ? json(nullptr) : json(unavailable);
    j["previous"] = l.previous ? json(l.previous) : json(nullptr);
    j["source"] = l.source_path;
    j["uses_threads"] = l.uses_threads;
    j["library"] = l.library;
    if (l.blocks) {
        j["blocks"] = json{{"default", l.blocks->default_block},
                           {"choices", l.blocks->Choices()},
                           {"power_of_two", l.blocks->power_of_two},
                           {"why", l.blocks->why}};
    } else {
        j["blocks"] = nullptr;
    }
    return j;
}

std::string CsvHeader() {
    return "lesson,id,kind,size_bytes,block,threads,data,reps,median_ms,min_ms,max_ms,h2d_ms,"
           "kernel_ms,d2h_ms,gbps,pct_of_ceiling,verified,found,device";
}

std::string CsvRow(const RunResult& r) {
    auto opt = [](const auto& v) { return v ? std::to_string(*v) : std::string(); };
    auto num = [](const std::optional<double>& v) { return v ? Fixed(*v, 6) : std::string(); };
    std::ostringstream s;
    s << r.lesson << ',' << CsvField(r.id) << ',' << ToString(r.kind) << ',' << r.size_bytes << ','
      << opt(r.block) << ',' << opt(r.threads) << ',' << r.data << ',' << r.reps << ','
      << Fixed(r.median_ms, 6) << ',' << Fixed(r.min_ms, 6) << ',' << Fixed(r.max_ms, 6) << ','
      << num(r.h2d_ms) << ',' << num(r.kernel_ms) << ',' << num(r.d2h_ms) << ',' << Fixed(r.gbps, 3)
      << ',' << num(r.pct_of_ceiling) << ',' << (r.verified ? "true" : "false") << ','
      << opt(r.found) << ',' << CsvField(r.device);
    return s.str();
}

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> right)
    : m_header(std::move(header)), m_right(std::move(right)) {
    m_right.resize(m_header.size(), false);
}

void TextTable::AddRow(std::vector<std::string> row) {
    row.resize(m_header.size());
    m_rows.push_back(std::move(row));
}

std::string TextTable::Render() const {
    std::vector<size_t> widths(m_header.size(), 0);
    auto measure = [&](const std::vector<std::string>& row) {
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    };
    measure(m_header);
    for (const auto& row : m_rows) measure(row);
    std::string out;
    auto emit = [&](const std::vector<std::string>& row) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - DisplayWidth(row[c]), ' ');
            if (c) line += "  ";
            line += m_right[c] ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : "");
        }
        out += line + "\n";
    };
    emit(m_header);
    std::vector<std::string> rule;
    for (size_t w : widths) rule.push_back(std::string(w, '-'));
    emit(rule);
    for (const auto& row : m_rows) emit(row);
    return out;
}

}  // namespace lessons
